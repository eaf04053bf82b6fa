"""The table service and the ``mjtable`` command line.

- ``mjtable run``: ``service.serve`` plays hands on the table (``tableside``: the simulated one by default), each
  hand's table cycle driven from the MCU's phase (``cycle``), the seated bots' moves (``players``) and the MCU's
  confirmations journaled (``journal``) before they are applied (``hand``: a hand is a fold of its events);
- ``mjtable history``: journaled hands as JSON records or readable logs (``records``);
- ``mjtable doctor``: the configuration and the hardware it points at (``doctor``);
- deployed (``deploy/``): ``daemon`` runs the service with systemd's notify protocol (``sdnotify``) and watchdog
  (``watchdog``), the safe stop on SIGTERM (``shutdown``) and the MQTT fleet link (``mqtt_link``); ``mjtable fleet``
  is the parlor's page of every table (``fleet``, ``fleet_page``);
- the dealer-light display: ``display`` (public state), ``web`` (``/``, ``/api/state``, ``/events``, controls);
- ``config``: the TOML configuration (``examples/mjtable.toml``); ``hints``: what a technician checks per fault;
  ``errors``: the controller's exceptions.
"""
