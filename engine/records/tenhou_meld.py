"""Tenhou's meld code: the ``m`` number of an mjlog ``<N>`` (and of ``AGARI m``), decoded bit by bit.

The 16 bits pack the meld's kind, its tiles as physical ids (0-135: ``id // 4`` is the kind, the low two bits which
of the four copies) and the seat the claimed tile came from, relative to the caller (1 = the next seat 下家,
2 = opposite 対面, 3 = the previous seat 上家; 0 = none: a concealed kan):

* chi, bit 2 set: bits 0-1 the source; bits 3-4, 5-6, 7-8 the copy of the run's 1st, 2nd, 3rd tile; bits 10-15
  ``t = 3 * run + called``, where ``run`` 0-20 numbers the runs 123m..789m, 123p.., 123s.. (7 a suit) and
  ``called`` 0-2 is the place of the claimed tile in the run.
* pon, bit 3 set, and kakan (a pon made a kan), bit 4 set: bits 0-1 the source (of the pon); bits 5-6 the copy left
  out of the pon (the kakan's added tile); bits 9-15 ``t = 3 * kind + called``, ``called`` the place of the claimed
  tile among the pon's three copies.
* nukidora (a north set aside, three-player only), bit 5 set: bits 8-15 the tile's id.
* otherwise a kan: bits 0-1 the source (0 for a concealed kan), bits 8-15 the id of the claimed tile (of a
  concealed kan, the kind's first copy).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.records.game import CallKind


class MeldCodeError(ValueError):
    """An ``m`` value that is no meld."""


@dataclass(frozen=True)
class TenhouMeld:
    """A decoded ``m``: physical ids (sorted), the claimed or added id (``None`` for a concealed kan and a nukidora),
    and the source relative to the caller (0 none, 1 next, 2 opposite, 3 previous)."""

    kind: CallKind
    ids: tuple[int, ...]
    called: int | None
    source: int

    def from_seat(self, seat: int) -> int | None:
        return None if self.source == 0 else (seat + self.source) % 4


def decode_meld(m: int) -> TenhouMeld:
    """Decode one ``m``; raises ``MeldCodeError`` for a value outside 16 bits or a meld that cannot be."""
    if not 0 <= m <= 0xFFFF:
        raise MeldCodeError(f"meld code {m} is not a 16-bit number")
    source = m & 3
    if m & 0x4:
        return _chi(m, source)
    if m & 0x18:
        return _pon_or_kakan(m, source)
    if m & 0x20:
        return TenhouMeld(CallKind.NUKIDORA, (m >> 8,), None, 0)
    return _kan(m, source)


def _chi(m: int, source: int) -> TenhouMeld:
    if source != 3:
        raise MeldCodeError(
            f"meld code {m} is a chi from relative seat {source}; a chi comes from the previous seat (3)"
        )
    t = m >> 10
    run, called = divmod(t, 3)
    if run > 20:
        raise MeldCodeError(f"meld code {m} is a chi of run {run}; there are 21 runs")
    base = (run // 7) * 9 + run % 7
    ids = tuple((base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3))
    return TenhouMeld(CallKind.CHI, ids, ids[called], source)


def _pon_or_kakan(m: int, source: int) -> TenhouMeld:
    if m & 0x18 == 0x18:
        raise MeldCodeError(f"meld code {m} sets both the pon bit and the kakan bit")
    if source == 0:
        raise MeldCodeError(f"meld code {m} is a pon from no seat")
    t = m >> 9
    kind, called = divmod(t, 3)
    if kind > 33:
        raise MeldCodeError(f"meld code {m} names tile kind {kind}; there are 34")
    left_out = (m >> 5) & 3
    pon = tuple(kind * 4 + copy for copy in range(4) if copy != left_out)
    if m & 0x8:
        return TenhouMeld(CallKind.PON, pon, pon[called], source)
    return TenhouMeld(CallKind.KAKAN, tuple(sorted((*pon, kind * 4 + left_out))), kind * 4 + left_out, source)


def _kan(m: int, source: int) -> TenhouMeld:
    tile = m >> 8
    if tile > 135:
        raise MeldCodeError(f"meld code {m} names tile id {tile}; ids run 0-135")
    ids = tuple(tile // 4 * 4 + copy for copy in range(4))
    if source == 0:
        return TenhouMeld(CallKind.ANKAN, ids, None, 0)
    return TenhouMeld(CallKind.DAIMINKAN, ids, tile, source)
