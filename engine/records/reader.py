"""Which format a record is in, found from its content (a file's name says nothing reliable), and the one entry
point that reads any of them: ``parse(data)``.

Bytes are taken as they come off a download: gzip (Tenhou serves its mjlogs gzipped) is opened, a UTF-8 byte order
mark dropped, and bytes that are not UTF-8 are named (their hand then fails where the damage lies) rather than
refusing the whole record.
"""

from __future__ import annotations

import zlib
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
    record = _READERS[detect(text)](text)
    if damage is None:
        return record
    named = RecordError(damage.reason, fmt=record.format.value, where=damage.where)
    return replace(record, problems=(named, *record.problems))
