"""The real records of ``shared/records`` (see its README: sources, licences, credit), read once per test run, and
the small helpers the record tests share."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.records import Call, CallKind, GameRecord, HandRecord, Riichi, Win, parse
from tests.paths import SHARED

RECORDS = SHARED / "records"
MJLOGS = sorted((RECORDS / "tenhou").glob("*.mjlog"))
TENHOU6 = sorted((RECORDS / "tenhou").glob("*.json"))
BOTZONE = RECORDS / "mcr" / "botzone-sample.txt"


@cache
def game(name: str) -> GameRecord:
    """A record by file name (``double-ron.mjlog``, ``chankan.json``, ``botzone-sample.txt``)."""
    folder = "mcr" if name.endswith(".txt") else "tenhou"
    return parse((RECORDS / folder / name).read_bytes())


def settle_rows(name: str) -> list[dict[str, Any]]:
    path = RECORDS / name
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def accepted_riichi(hand: HandRecord, seat: int | None = None) -> int:
    return sum(1 for m in hand.moves if isinstance(m, Riichi) and m.accepted and seat in (None, m.seat))


def end_scores(hand: HandRecord) -> tuple[int, ...]:
    """A hand's closing scores by the record: its start, its deltas, less each riichi stick paid."""
    assert hand.scores is not None
    return tuple(hand.scores[s] + hand.deltas[s] - 1000 * accepted_riichi(hand, s) for s in range(4))


def won(hand: HandRecord) -> bool:
    return any(isinstance(result, Win) for result in hand.results)


def codes(text: str) -> list[str]:
    """Sorted codes of compact notation in which ``0`` is a red five (the settle files' spelling): ``406p`` ->
    ``['0p', '4p', '6p']``."""
    found, ranks = [], ""
    for char in text:
        if char.isdigit():
            ranks += char
        else:
            found += [rank + char for rank in ranks]
            ranks = ""
    return sorted(found)


_SETTLE_KINDS = {"chi": "chi", "pon": "pon", "daiminkan": "kan", "kakan": "kakan", "ankan": "kan"}
_SIDES = {1: "right", 2: "opposite", 3: "left"}


def settle_melds(hand: HandRecord, seat: int) -> list[tuple[str, list[str], str]]:
    """The seat's melds at the end of the hand in the settle files' terms (``pon``, ``kan``, ``kakan``; tiles as
    sorted codes; ``from=left`` for the previous seat, or ``concealed``), sorted, from the record's moves."""
    melds: list[Call] = []
    for move in hand.moves:
        if isinstance(move, Call) and move.seat == seat:
            if move.kind is CallKind.KAKAN:
                melds = [m for m in melds if not (m.kind is CallKind.PON and m.tiles[0].kind == move.tiles[0].kind)]
            melds.append(move)
    out = []
    for meld in melds:
        source = "concealed" if meld.from_seat is None else "from=" + _SIDES[(meld.from_seat - seat) % 4]
        out.append((_SETTLE_KINDS[meld.kind.value], sorted(tile.code for tile in meld.tiles), source))
    return sorted(out)


def parse_settle_melds(melds: list[str]) -> list[tuple[str, list[str], str]]:
    found = []
    for meld in melds:
        kind, tiles, source = meld.split(":")
        found.append((kind, codes(tiles), source))
    return sorted(found)
