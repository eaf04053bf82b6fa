"""Tenhou's ``m`` meld code, decoded on examples worked by hand from the bit layout (``engine.records.tenhou_meld``);
each comes from a real mjlog of ``shared/records/tenhou`` (the tag and the discard it claims are quoted), and each
derivation is written out so that a reader can check it without the decoder."""

import pytest

from engine.records.game import CallKind
from engine.records.tenhou_meld import MeldCodeError, decode_meld


def test_pon_of_the_red_dragon():
    # double-ron.mjlog hand 0: <T132/><D132/><N who="3" m="50761"/>, seat 3 pons the 中 seat 0 discarded.
    # 50761 = 0b1100_0110_0100_1001: bits 0-1 = 01, the next seat (3 + 1 = seat 0); bit 2 clear, bit 3 set: a pon;
    # bits 5-6 = (50761 >> 5) & 3 = 1586 & 3 = 2: copy 2 is not in the pon;
    # t = 50761 >> 9 = 99 = 3 * 33 + 0: kind 33 (7z 中), the claimed tile is the pon's first, id 33 * 4 + 0 = 132.
    meld = decode_meld(50761)
    assert meld.kind is CallKind.PON
    assert meld.ids == (132, 133, 135)
    assert meld.called == 132
    assert meld.from_seat(3) == 0


def test_chi_of_234p():
    # double-ron.mjlog hand 0: <G44/><N who="0" m="25631"/>, seat 0 chis the 3p (id 44) seat 3 discarded.
    # 25631 = 0b0110_0100_0001_1111: bits 0-1 = 11, the previous seat (0 + 3 = seat 3); bit 2 set: a chi;
    # t = 25631 >> 10 = 25 = 3 * 8 + 1: run 8 = the 2nd run of the pins (8 // 7 = 1 suit on, 8 % 7 = 1 from its
    # start): kinds 10 11 12 = 2p 3p 4p, and the claimed tile is the run's 2nd;
    # copies: bits 3-4 = 3, bits 5-6 = 0, bits 7-8 = (25631 >> 7) & 3 = 200 & 3 = 0:
    # ids 10*4+3 = 43, 11*4+0 = 44, 12*4+0 = 48; the claimed one is 44.
    meld = decode_meld(25631)
    assert meld.kind is CallKind.CHI
    assert meld.ids == (43, 44, 48)
    assert meld.called == 44
    assert meld.from_seat(0) == 3


def test_chi_of_789s():
    # double-ron.mjlog hand 0: <F103/><N who="3" m="62847"/>, seat 3 chis the 8s (id 103) seat 2 discarded.
    # 62847 = 0b1111_0101_0111_1111: bits 0-1 = 11, the previous seat (seat 2); bit 2 set: a chi;
    # t = 62847 >> 10 = 61 = 3 * 20 + 1: run 20 = the last of the sous (20 // 7 = 2, 20 % 7 = 6): kinds 24 25 26 =
    # 7s 8s 9s, claimed the 2nd; copies: (62847 >> 3) & 3 = 7855 & 3 = 3, (62847 >> 5) & 3 = 1963 & 3 = 3,
    # (62847 >> 7) & 3 = 490 & 3 = 2: ids 24*4+3 = 99, 25*4+3 = 103, 26*4+2 = 106.
    meld = decode_meld(62847)
    assert meld.kind is CallKind.CHI
    assert meld.ids == (99, 103, 106)
    assert meld.called == 103
    assert meld.from_seat(3) == 2


def test_pon_of_north():
    # 2010081709gm-...-fe3371ad.mjlog hand 0: <D120/><N who="3" m="46185"/>, seat 3 pons seat 0's North (id 120).
    # 46185 = 0b1011_0100_0110_1001: bits 0-1 = 01, the next seat (seat 0); bit 3 set: a pon; bits 5-6 = 11: copy 3
    # is left out; t = 46185 >> 9 = 90 = 3 * 30 + 0: kind 30 (4z North), claimed the first: ids 120 121 122.
    meld = decode_meld(46185)
    assert meld.kind is CallKind.PON
    assert meld.ids == (120, 121, 122)
    assert meld.called == 120
    assert meld.from_seat(3) == 0


def test_kakan_robbed():
    # 2010081709gm-...-fe3371ad.mjlog: <U45/><N who="1" m="16947"/><AGARI ...> (seat 1 adds the 3p and is robbed).
    # 16947 = 0b0100_0010_0011_0011: bits 0-1 = 11, the pon came from the previous seat (seat 0); bit 4 set: a kakan;
    # bits 5-6 = 01: copy 1 is the added tile; t = 16947 >> 9 = 33 = 3 * 11 + 0: kind 11 (3p), the pon was
    # 44 46 47 (claimed 44), and 45 is added: the kan is 44-47, the tile on offer to a robbing win 45.
    meld = decode_meld(16947)
    assert meld.kind is CallKind.KAKAN
    assert meld.ids == (44, 45, 46, 47)
    assert meld.called == 45
    assert meld.from_seat(1) == 0


def test_ankan():
    # 2010122717gm-...-8e787e61.mjlog: <U7/><N who="1" m="1024"/><DORA hai="98"/> (seat 1's concealed kan of 2m).
    # 1024 = 0b0100_0000_0000: bits 0-1 = 00, no source: concealed; bits 2-5 clear: a kan; 1024 >> 8 = 4: the
    # kind's first copy, kind 1 (2m): ids 4-7, no tile claimed.
    meld = decode_meld(1024)
    assert meld.kind is CallKind.ANKAN
    assert meld.ids == (4, 5, 6, 7)
    assert meld.called is None
    assert meld.from_seat(1) is None


def test_daiminkan():
    # 2011020415gm-...-e037b629.mjlog: <F106/><N who="3" m="27139"/><W33/><DORA .../> (seat 3 kans seat 2's 9s).
    # 27139 = 0b0110_1010_0000_0011: bits 0-1 = 11, the previous seat (seat 2); bits 2-5 clear: a kan;
    # 27139 >> 8 = 106: the claimed id, kind 106 // 4 = 26 (9s): ids 104-107.
    meld = decode_meld(27139)
    assert meld.kind is CallKind.DAIMINKAN
    assert meld.ids == (104, 105, 106, 107)
    assert meld.called == 106
    assert meld.from_seat(3) == 2


def test_nukidora():
    # Three-player only (refused by the readers): bit 5 set, bits 8-15 the north's id: (121 << 8) | 0x20 = 31008.
    meld = decode_meld(31008)
    assert meld.kind is CallKind.NUKIDORA
    assert meld.ids == (121,)


@pytest.mark.parametrize(
    ("m", "says"),
    [
        (-1, "16-bit"),
        (0x10000, "16-bit"),
        ((3 << 10) | 0x4 | 1, "previous seat"),  # a chi from the next seat
        ((21 * 3 << 10) | 0x4 | 3, "21 runs"),  # run 21 does not exist
        ((34 * 3 << 9) | 0x8 | 1, "34"),  # kind 34 does not exist
        (0x18 | 1, "both"),  # pon and kakan bits together
        (0x8, "no seat"),  # a pon from nobody
        ((136 << 8) | 1, "0-135"),  # a kan of id 136
    ],
)
def test_impossible_codes_are_named(m, says):
    with pytest.raises(MeldCodeError, match=says):
        decode_meld(m)
