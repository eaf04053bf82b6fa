"""The dealer-light display: ``view`` (the public state the service keeps up to date), ``tablestate`` (the parts of
it the table page draws: melds with the claimed tile, the winner's hand, a hand's payments, the history),
``web`` (its HTTP server: the pages, ``/api/state``, ``/api/history``, ``/events``, controls), ``hints`` (what a
technician checks per fault) and ``static/`` (the pages: ``table.html`` at ``/``, ``history.html``, ``overlay.html``,
their scripts and styles, and the tile faces).
"""
