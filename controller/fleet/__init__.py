"""The parlor's fleet: ``mqtt_link`` (a table's link to the broker: availability, state, events, commands) and
``mjtable fleet`` (``parlor``: every table's state from the broker, on one page, ``page``).
"""
