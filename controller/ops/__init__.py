"""Operating the table: ``daemon`` (``mjtable run`` under systemd: ``sdnotify``'s notify protocol, ``watchdog``,
SIGTERM, the fleet link) and ``mjtable doctor`` (``doctor``, with ``broker_check`` and ``camera_check``).
"""
