"""The table service and its hand (``mjtable run``, ``mjtable history``).

``service.serve`` plays hands on the table (``tableside``: the simulated one by default), each hand's table cycle
driven from the MCU's phase (``cycle``; the next walls built meanwhile, ``nextwalls``), the seated bots' moves
(``players``) and the players' buttons (``inputs``) as events (``events``) journaled (``journal``) before they are
applied (``hand``: a hand is a fold of its events); ``records`` reads journaled hands back; ``shutdown`` stops the
table the safe way on SIGTERM.
"""
