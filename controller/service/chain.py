"""The journal's hash chain: every row a run writes holds a SHA-256 of the row before it and of its own content, so an
edited, deleted, inserted or reordered row is found when the journal is read (a tournament must be able to trust it).

A run's chain goes: the run row (linked to the run before it), then for each hand in order its row, its events in
sequence order and its result (with the match state after it). The columns the service updates in place are not
linked, and say so here: ``runs.finished_at``, ``matches.finished_at``, ``matches.state`` (checked instead against
the match state the match's last result links) and ``hands.dice`` (a copy of the dice event's).

Content is hashed as stored (the column values SQLite returns, as JSON), so reading never re-encodes anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GENESIS = ""
"""The link before the first run of a journal."""

RUN_COLUMNS = ("id", "seed", "rules", "options", "hands", "started_at", "players")
HAND_COLUMNS = (
    "id",
    "match_id",
    "number",
    "seed",
    "dealer",
    "round_wind",
    "consecutive_dealer",
    "rules",
    "options",
    "started_at",
    "players",
)
EVENT_COLUMNS = ("seq", "at", "kind", "data")
RESULT_COLUMNS = ("result", "match_state", "finished_at")


def link(before: str, what: str, values: Sequence[Any]) -> str:
    """The hash of one row: the row before's hash, what the row is (run, hand, event, result) and its values."""
    body = json.dumps([what, *values], ensure_ascii=False, separators=(",", ":"), default=_blob)
    return hashlib.sha256(f"{before}\n{body}".encode()).hexdigest()


def _blob(value: Any) -> Any:
    """A blob, which the service never writes (an edited row may hold one): hashed as its hex, so that the row is
    named as changed rather than failing to hash."""
    if isinstance(value, bytes):
        return {"blob": value.hex()}
    raise TypeError(f"a {type(value).__name__} in a journal row")


@dataclass(frozen=True)
class Head:
    """The last row written, as the ``journal.sqlite-head`` file keeps it beside the journal: a row the journal must
    still hold with that hash when it is opened again, or its tail was lost (a cut WAL, a card that lost writes)."""

    run: int
    row: str
    """``run``, ``hand``, ``event`` or ``result``."""
    hash: str
    hand_id: int = 0
    hand: int = -1
    """The hand's number in its run (``-1`` for a run row)."""
    seq: int = -1

    def describe(self) -> str:
        if self.row == "run":
            return f"the start of run {self.run}"
        if self.row == "hand":
            return f"the start of hand {self.hand} of run {self.run}"
        if self.row == "result":
            return f"the result of hand {self.hand} of run {self.run}"
        return f"event {self.seq} of hand {self.hand} of run {self.run}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "row": self.row,
            "hash": self.hash,
            "hand_id": self.hand_id,
            "hand": self.hand,
            "seq": self.seq,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Head:
        """Read back; ``ValueError`` for anything but what ``to_dict`` writes."""
        if not isinstance(data, dict) or set(data) != {"run", "row", "hash", "hand_id", "hand", "seq"}:
            raise ValueError("expected the fields run, row, hash, hand_id, hand, seq")
        if data["row"] not in ("run", "hand", "event", "result") or not isinstance(data["hash"], str):
            raise ValueError(f"row {data['row']!r} or hash {data['hash']!r} is not one the journal writes")
        numbers = [data[key] for key in ("run", "hand_id", "hand", "seq")]
        if not all(type(number) is int and -1 <= number < 2**63 for number in numbers):
            raise ValueError(f"run, hand_id, hand and seq must be integers, got {numbers}")
        return cls(data["run"], data["row"], data["hash"], data["hand_id"], data["hand"], data["seq"])
