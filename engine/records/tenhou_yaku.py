"""Tenhou's yaku: the numbers of mjlog ``AGARI yaku``/``yakuman`` and the words of tenhou.net/6 results, to the
project's yaku keys (the riichi ruleset's: ``riichi``, ``seat_wind``, ``aka_dora``...).

The numbering is Tenhou's (0 門前清自摸和 ... 54 赤ドラ); the seat and round winds have one number per wind, the
project one key each. A tenhou.net/6 result writes ``場風 東(1飜)`` or ``四槓子(役満)``, in Japanese from Tenhou and
often in English from converters (``Ura Dora(0飜)``); a name neither table knows keeps its words with key ``""``.
"""

from __future__ import annotations

import re

from engine.records.game import Yaku

TENHOU_YAKU: tuple[tuple[str, str], ...] = (
    ("menzen_tsumo", "門前清自摸和"),
    ("riichi", "立直"),
    ("ippatsu", "一発"),
    ("chankan", "槍槓"),
    ("rinshan", "嶺上開花"),
    ("haitei", "海底摸月"),
    ("houtei", "河底撈魚"),
    ("pinfu", "平和"),
    ("tanyao", "断幺九"),
    ("iipeikou", "一盃口"),
    ("seat_wind", "自風 東"),
    ("seat_wind", "自風 南"),
    ("seat_wind", "自風 西"),
    ("seat_wind", "自風 北"),
    ("round_wind", "場風 東"),
    ("round_wind", "場風 南"),
    ("round_wind", "場風 西"),
    ("round_wind", "場風 北"),
    ("haku", "役牌 白"),
    ("hatsu", "役牌 發"),
    ("chun", "役牌 中"),
    ("double_riichi", "両立直"),
    ("chiitoitsu", "七対子"),
    ("chanta", "混全帯幺九"),
    ("ittsu", "一気通貫"),
    ("sanshoku_doujun", "三色同順"),
    ("sanshoku_doukou", "三色同刻"),
    ("sankantsu", "三槓子"),
    ("toitoi", "対々和"),
    ("sanankou", "三暗刻"),
    ("shousangen", "小三元"),
    ("honroutou", "混老頭"),
    ("ryanpeikou", "二盃口"),
    ("junchan", "純全帯幺九"),
    ("honitsu", "混一色"),
    ("chinitsu", "清一色"),
    ("renhou", "人和"),
    ("tenhou", "天和"),
    ("chiihou", "地和"),
    ("daisangen", "大三元"),
    ("suuankou", "四暗刻"),
    ("suuankou_tanki", "四暗刻単騎"),
    ("tsuuiisou", "字一色"),
    ("ryuuiisou", "緑一色"),
    ("chinroutou", "清老頭"),
    ("chuuren", "九蓮宝燈"),
    ("junsei_chuuren", "純正九蓮宝燈"),
    ("kokushi", "国士無双"),
    ("kokushi_13", "国士無双１３面"),
    ("daisuushii", "大四喜"),
    ("shousuushii", "小四喜"),
    ("suukantsu", "四槓子"),
    ("dora", "ドラ"),
    ("ura_dora", "裏ドラ"),
    ("aka_dora", "赤ドラ"),
)
"""Index = Tenhou's yaku number: (project key, Tenhou's name)."""

YAKUMAN_HAN = 13

_ENGLISH = {
    "riichi": "riichi",
    "ippatsu": "ippatsu",
    "fully concealed hand": "menzen_tsumo",
    "menzen tsumo": "menzen_tsumo",
    "self-draw": "menzen_tsumo",
    "pinfu": "pinfu",
    "all simples": "tanyao",
    "tanyao": "tanyao",
    "pure double sequence": "iipeikou",
    "iipeikou": "iipeikou",
    "robbing a kan": "chankan",
    "chankan": "chankan",
    "after a kan": "rinshan",
    "rinshan kaihou": "rinshan",
    "under the sea": "haitei",
    "haitei raoyue": "haitei",
    "under the river": "houtei",
    "houtei raoyui": "houtei",
    "double riichi": "double_riichi",
    "seven pairs": "chiitoitsu",
    "chiitoitsu": "chiitoitsu",
    "dora": "dora",
    "ura dora": "ura_dora",
    "red five": "aka_dora",
    "red dora": "aka_dora",
    "aka dora": "aka_dora",
}
"""English names that converters write (lower case); Tenhou's own words are the Japanese of ``TENHOU_YAKU``."""

_BY_NAME = {name: key for key, name in TENHOU_YAKU} | {"搶槓": "chankan", "ダブル立直": "double_riichi"}
_TEXT = re.compile(r"(.+?)\s*\(([0-9]{1,2})\s*飜\)|(.+?)\s*\(役満\)")


def tenhou_yaku(number: int, han: int) -> Yaku:
    """The yaku of an mjlog number; ``ValueError`` for a number Tenhou does not have."""
    if not 0 <= number < len(TENHOU_YAKU):
        raise ValueError(f"yaku number {number} is not one of Tenhou's 0-{len(TENHOU_YAKU) - 1}")
    key, name = TENHOU_YAKU[number]
    return Yaku(key, name, han)


def yaku_from_text(text: str) -> Yaku:
    """One tenhou.net/6 yaku, ``名前(N飜)`` or ``名前(役満)``; ``ValueError`` when it is neither."""
    match = _TEXT.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"yaku {text!r} is not written 'name(N飜)' or 'name(役満)'")
    name = match.group(1) or match.group(3)
    han = int(match.group(2)) if match.group(2) is not None else YAKUMAN_HAN
    key = _BY_NAME.get(name) or _ENGLISH.get(name.lower(), "")
    return Yaku(key, name, han)
