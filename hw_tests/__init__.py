"""Hardware test harness: the table MCU simulator on a pty, fault injection, the suite and the link soak.

- ``hw_tests.simulator.McuSimulator``: the MCU side of PROTOCOL.md on ``os.openpty()``, deterministic by seed;
- ``hw_tests.mechanism.TableModel``: the four-port, two-set mechanism (phases, timings, jams, counts, dice);
- ``hw_tests.faults``: ``FaultPlan`` (``Jam``, a short side, ``ResetDuring``) and ``Noise``;
- ``hw_tests.harness.simulated_table``: a simulator and a connected ``Table`` in one ``with``;
- ``python -m hw_tests`` (``hw_tests.suite``) and ``python -m hw_tests soak`` (``hw_tests.soak``).
"""
