"""Which format a record is in, found from its content (a file's name says nothing reliable), and the one entry
point that reads any of them: ``parse(data)``; ``parse_games(data)`` also reads a file of several tenhou.net/6 games,
one JSON document per line (what ``mjtable history --format tenhou6`` writes for a run of several matches).

Bytes are taken as they come off a download: gzip (Tenhou serves its mjlogs gzipped) is opened, a UTF-8 byte order
mark dropped, and bytes that are not UTF-8 are named (their hand then fails where the damage lies) rather than
refusing the whole record.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from dataclasses import replace

from engine.records.botzone import parse_botzone
from engine.records.errors import RecordError
from engine.records.game import Format, GameRecord
from engine.records.tenhou6 import parse_tenhou6
from engine.records.tenhou_xml import parse_mjlog

MAX_BYTES = 64 * 1024 * 1024
"""The most a gzipped record may open to: a real game is tens of kilobytes."""

_READERS = {Format.TENHOU_XML: parse_mjlog, Format.TENHOU6: parse_tenhou6, Format.BOTZONE: parse_botzone}


def decode(data: str | bytes) -> tuple[str, RecordError | None]:
    """The record's text, and the damage found decoding it (bytes that are not UTF-8), if any."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), None
    if data[:2] == b"\x1f\x8b":
        try:
            data = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, MAX_BYTES + 1)
        except zlib.error as error:
            raise RecordError(f"the gzip data cannot be opened: {error}") from None
        if len(data) > MAX_BYTES:
            raise RecordError(f"the gzip data opens to more than {MAX_BYTES:,} bytes; no game record is that long")
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        damage = RecordError(f"byte 0x{data[error.start]:02x} is not UTF-8", where=f"byte {error.start}")
        return data.decode("utf-8", errors="replace"), damage


def detect(text: str) -> Format:
    """The format of a record's text: ``<mjloggm`` opens an mjlog, ``{`` a tenhou.net/6 log, a first line
    ``Match <id>`` a Botzone text. Raises ``RecordError`` for anything else."""
    head = text.lstrip()[:200]
    if head.startswith("<?xml") or head.startswith("<mjloggm"):
        if "<mjloggm" in head:
            return Format.TENHOU_XML
    elif head.startswith("{"):
        return Format.TENHOU6
    elif head.startswith("Match ") or head.startswith("Match\t"):
        return Format.BOTZONE
    shown = repr(head[:40]) if head else "nothing but blanks"
    raise RecordError(
        f"not a game record this reader knows (an mjlog '<mjloggm', a tenhou.net/6 '{{\"log\"', a Botzone 'Match'):"
        f" it begins {shown}"
    )


def parse(data: str | bytes) -> GameRecord:
    """Read a record of any known format. Raises ``RecordError`` when the whole record is unusable (unknown format,
    damaged header, a three-player game); a damaged hand is left out and named in ``GameRecord.problems``."""
    text, damage = decode(data)
    return _read(text, detect(text), damage)


def parse_games(data: str | bytes) -> Iterator[GameRecord | RecordError]:
    """Every game of a record file in order: one, or for tenhou.net/6 JSON Lines (a first line that is a whole
    document, more lines after it) one per non-blank line. A game that cannot be read at all is its
    ``RecordError`` (``hand`` None, ``where`` its line), and the games after it are still read; so is bytes' damage
    (not UTF-8), before the games."""
    text, damage = decode(data)
    found = detect(text)
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if found is not Format.TENHOU6 or len(lines) < 2 or not _whole_document(lines[0][1]):
        yield _read(text, found, damage)
        return
    if damage is not None:
        yield RecordError(damage.reason, fmt=found.value, where=damage.where)
    for number, line in lines:
        try:
            yield _read(line, detect(line), None)
        except RecordError as error:
            yield RecordError(error.reason, fmt=found.value, where=f"line {number}")


def _whole_document(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, RecursionError):
        return False


def _read(text: str, found: Format, damage: RecordError | None) -> GameRecord:
    record = _READERS[found](text)
    if damage is None:
        return record
    named = RecordError(damage.reason, fmt=record.format.value, where=damage.where)
    return replace(record, problems=(named, *record.problems))
