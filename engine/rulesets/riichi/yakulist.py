"""The riichi yaku table: names (Japanese, English), han closed and open, yakuman weight.

rules-A §13 gives no yaku ("not in the sources"); these are the common Japanese rules as played on Tenhou and
scored by the PyPI ``mahjong`` package that the tests use as an oracle. A yaku with ``han_open = 0`` counts only
for a closed hand (門前限定); a yakuman's ``han`` is 13 per yakuman (26 for the double forms when the option
``double_yakuman`` is on), the counting the oracle reports.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Yaku:
    key: str
    name_ja: str
    name_en: str
    han_closed: int
    han_open: int
    yakuman: bool = False

    def han(self, closed: bool) -> int:
        return self.han_closed if closed else self.han_open


def _y(key: str, ja: str, en: str, closed: int, opened: int = 0) -> Yaku:
    return Yaku(key, ja, en, closed, opened)


def _ym(key: str, ja: str, en: str, han: int = 13, closed_only: bool = False) -> Yaku:
    return Yaku(key, ja, en, han, 0 if closed_only else han, yakuman=True)


YAKU: dict[str, Yaku] = {
    yaku.key: yaku
    for yaku in (
        _y("riichi", "立直", "Riichi", 1),
        _y("double_riichi", "ダブル立直", "Double riichi", 2),
        _y("ippatsu", "一発", "Ippatsu", 1),
        _y("menzen_tsumo", "門前清自摸和", "Fully concealed self-draw", 1),
        _y("pinfu", "平和", "Pinfu", 1),
        _y("tanyao", "断幺九", "All simples", 1, 1),
        _y("iipeikou", "一盃口", "Pure double sequence", 1),
        _y("haku", "役牌 白", "Dragon: white", 1, 1),
        _y("hatsu", "役牌 發", "Dragon: green", 1, 1),
        _y("chun", "役牌 中", "Dragon: red", 1, 1),
        _y("seat_wind", "自風牌", "Seat wind", 1, 1),
        _y("round_wind", "場風牌", "Round wind", 1, 1),
        _y("haitei", "海底摸月", "Last tile self-drawn", 1, 1),
        _y("houtei", "河底撈魚", "Last discard", 1, 1),
        _y("rinshan", "嶺上開花", "After a kan", 1, 1),
        _y("chankan", "搶槓", "Robbing a kan", 1, 1),
        _y("chiitoitsu", "七対子", "Seven pairs", 2),
        _y("sanshoku_doujun", "三色同順", "Mixed triple sequence", 2, 1),
        _y("ittsu", "一気通貫", "Pure straight", 2, 1),
        _y("chanta", "混全帯幺九", "Half outside hand", 2, 1),
        _y("toitoi", "対々和", "All triplets", 2, 2),
        _y("sanankou", "三暗刻", "Three concealed triplets", 2, 2),
        _y("sanshoku_doukou", "三色同刻", "Triple triplets", 2, 2),
        _y("sankantsu", "三槓子", "Three kans", 2, 2),
        _y("honroutou", "混老頭", "All terminals and honours", 2, 2),
        _y("shousangen", "小三元", "Little three dragons", 2, 2),
        _y("junchan", "純全帯幺九", "Fully outside hand", 3, 2),
        _y("ryanpeikou", "二盃口", "Twice pure double sequence", 3),
        _y("honitsu", "混一色", "Half flush", 3, 2),
        _y("chinitsu", "清一色", "Full flush", 6, 5),
        _y("renhou", "人和", "Blessing of man", 5),
        _y("dora", "ドラ", "Dora", 1, 1),
        _y("ura_dora", "裏ドラ", "Ura dora", 1),
        _y("aka_dora", "赤ドラ", "Red five", 1, 1),
        _ym("kokushi", "国士無双", "Thirteen orphans", closed_only=True),
        _ym("kokushi_13", "国士無双十三面待ち", "Thirteen orphans, 13-sided wait", closed_only=True),
        _ym("suuankou", "四暗刻", "Four concealed triplets", closed_only=True),
        _ym("suuankou_tanki", "四暗刻単騎", "Four concealed triplets, pair wait", closed_only=True),
        _ym("daisangen", "大三元", "Big three dragons"),
        _ym("shousuushii", "小四喜", "Little four winds"),
        _ym("daisuushii", "大四喜", "Big four winds"),
        _ym("tsuuiisou", "字一色", "All honours"),
        _ym("chinroutou", "清老頭", "All terminals"),
        _ym("ryuuiisou", "緑一色", "All green"),
        _ym("chuuren", "九蓮宝燈", "Nine gates", closed_only=True),
        _ym("junsei_chuuren", "純正九蓮宝燈", "Pure nine gates", closed_only=True),
        _ym("suukantsu", "四槓子", "Four kans"),
        _ym("tenhou", "天和", "Blessing of heaven", closed_only=True),
        _ym("chiihou", "地和", "Blessing of earth", closed_only=True),
        _ym("renhou_yakuman", "人和", "Blessing of man (yakuman)", closed_only=True),
    )
}

DOUBLE_FORMS = frozenset({"kokushi_13", "suuankou_tanki", "junsei_chuuren", "daisuushii"})
"""Yakuman counted twice when the option ``double_yakuman`` is on (off by default: every yakuman is single)."""
