"""The table service and the ``mjtable`` command line."""
