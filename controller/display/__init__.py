"""The dealer-light display: ``view`` (the public state the service keeps up to date), ``web`` (its HTTP server:
``/``, ``/api/state``, ``/events``, controls), ``page`` (the HTML page), ``hints`` (what a technician checks per
fault) and ``static/`` (the tile faces).
"""
