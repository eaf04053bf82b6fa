"""A journal behind the table: what a resume finds the journal lost, from its head file or from the MCU.

The head file (``Journal.lost``) names a row that was written and is gone. The MCU keeps counting while the service
is down: a table that threw the dice more often than the journal holds throws has dealt a hand the journal lost.
Either way the hand in play is not replayed as if nothing happened: the service voids it with the reason
(``Service._journal_behind``), says so at ERROR, on the display and in the hand's result, and the run goes on with
the next hand. (The other reading, stopping for the technician, would leave the table standing for a hand that is
lost either way; the void keeps the match's scores as the journal can vouch for them.)

The MCU's counters vouch only while it kept its state: an MCU that booted since (unconfigured at the handshake) or
has thrown no dice since it booted (``dice_serial`` 0) is not compared. A boot after the journal's last throw,
then one throw the service died before journaling, is the one case it would call a loss wrongly.
"""

from __future__ import annotations

from controller.service.events import EventKind
from controller.service.hand import HandState
from controller.service.journal import Journal, RunRecord
from firmware_bridge.messages import Identity, Snapshot

SERIALS = 256
"""``dice_serial`` is one byte on the wire (PROTOCOL.md §4, SNAPSHOT)."""


def journaled_throw(journal: Journal, run: RunRecord) -> tuple[int, int] | None:
    """(hand number, MCU dice serial) of the run's last journaled throw that recorded its serial."""
    for record, _ in reversed(journal.hands(run.id)):
        for event in reversed(journal.events(record.id)):
            serial = event.data.get("serial")
            if event.kind is EventKind.DICE and type(serial) is int and 0 <= serial < SERIALS:
                return record.number, serial
    return None


def table_ahead(
    journal: Journal, run: RunRecord, hand: HandState, identity: Identity | None, snapshot: Snapshot | None
) -> str | None:
    """What the MCU did that the journal does not hold, or ``None`` (also when the MCU cannot tell)."""
    if identity is None or not identity.configured or snapshot is None or snapshot.dice_serial == 0:
        return None
    thrown = journaled_throw(journal, run)
    if thrown is None:
        return None
    number, serial = thrown
    since = (snapshot.dice_serial - serial) % SERIALS
    allowed = 0 if hand.referee is not None else 1  # a throw done but not journaled when the service died
    if since <= allowed:
        return None
    return (
        f"the table threw the dice {since} times since the journal's last throw (hand {number}, the MCU's throw "
        f"{serial}; it reports throw {snapshot.dice_serial}): the journal lost the hands dealt since"
    )
