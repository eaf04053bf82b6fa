"""The table service and the ``mjtable`` command line, grouped by job (each subpackage's docstring says more).

- ``service``: ``mjtable run`` plays hands on the table, every input journaled before it is applied; ``history``
  reads the journal back (``service.records``);
- ``people``: the people's table: the overhead camera read into sights, the witness that turns them into actions,
  and the simulated table where bots play as people would;
- ``display``: the dealer-light display (public state, the web page and its server, the technician's fault hints);
- ``fleet``: the table's MQTT link to the parlor's broker, and ``mjtable fleet``'s page of every table;
- ``ops``: deployed operation (``deploy/``): the systemd daemon and watchdog, and ``mjtable doctor``'s checks;
- here: ``cli`` (the ``mjtable`` command line), ``config`` (the TOML configuration, ``examples/mjtable.toml``),
  ``errors`` (the controller's exceptions), ``jsonin`` (JSON from outside, decoded with one clear error).
"""
