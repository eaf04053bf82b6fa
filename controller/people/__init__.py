"""People at the table (``service.players = "people"``): the service sees only the overhead camera and the seat
buttons.

``watch`` follows the hand through the camera; ``lookout`` reads frames into ``sights``; ``witness`` turns sights
and presses into the referee's actions, by the procedure written in ``tablemodel``. The simulated table:
``peopletable`` (bots playing as people would), ``camera`` (the bots' discards read by a simulated camera) and
``renderer`` (its frames, rendered in a process of their own).
"""
