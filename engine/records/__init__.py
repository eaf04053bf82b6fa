"""Real game records (Tenhou mjlog XML, tenhou.net/6 JSON, Botzone MCR text) read into one neutral form.

Pure: every reader takes the record's text (or bytes) and does no I/O. ``parse(data)`` finds the format from the
content and returns a ``GameRecord`` (``parse_games`` every game of a file of several); see ``engine.records.game``
for the form and each format's module for what it says and how. ``tenhou_walls(record.wall_seed, n)`` deals a
Tenhou game's walls again, dead wall included.
``engine.records.replay`` plays a record's hands through the table's referee (``mjtable replay``).
"""

from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    CallKind,
    Discard,
    Draw,
    DrawKind,
    DrawnGame,
    Format,
    GameRecord,
    HandRecord,
    Move,
    NewDora,
    RecordTile,
    Riichi,
    Rules,
    Win,
    Yaku,
)
from engine.records.reader import decode, detect, parse, parse_games
from engine.records.tenhou_wall import TenhouWall, tenhou_walls

__all__ = [
    "Call",
    "CallKind",
    "Discard",
    "Draw",
    "DrawKind",
    "DrawnGame",
    "Format",
    "GameRecord",
    "HandRecord",
    "Move",
    "NewDora",
    "RecordError",
    "RecordTile",
    "Riichi",
    "Rules",
    "TenhouWall",
    "Win",
    "Yaku",
    "decode",
    "detect",
    "parse",
    "parse_games",
    "tenhou_walls",
]
