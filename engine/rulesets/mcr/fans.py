"""The MCR fan table: the official number (1-81, 82 = 明暗杠), Chinese and English names, points.

Numbers follow the official order (summerinsects / PyMahjongGB, `../shared/anchor-data/mcr-fan-names.csv`);
English names are PyMahjongGB's so that verdicts read like the calculators players already use.
"""

from __future__ import annotations

from typing import NamedTuple


class FanInfo(NamedTuple):
    id: int
    name_zh: str
    name_en: str
    points: int


BIG_FOUR_WINDS = 1
BIG_THREE_DRAGONS = 2
ALL_GREEN = 3
NINE_GATES = 4
FOUR_KONGS = 5
SEVEN_SHIFTED_PAIRS = 6
THIRTEEN_ORPHANS = 7
ALL_TERMINALS = 8
LITTLE_FOUR_WINDS = 9
LITTLE_THREE_DRAGONS = 10
ALL_HONORS = 11
FOUR_CONCEALED_PUNGS = 12
PURE_TERMINAL_CHOWS = 13
QUADRUPLE_CHOW = 14
FOUR_PURE_SHIFTED_PUNGS = 15
FOUR_PURE_SHIFTED_CHOWS = 16
THREE_KONGS = 17
ALL_TERMINALS_AND_HONORS = 18
SEVEN_PAIRS = 19
GREATER_HONORS_AND_KNITTED_TILES = 20
ALL_EVEN_PUNGS = 21
FULL_FLUSH = 22
PURE_TRIPLE_CHOW = 23
PURE_SHIFTED_PUNGS = 24
UPPER_TILES = 25
MIDDLE_TILES = 26
LOWER_TILES = 27
PURE_STRAIGHT = 28
THREE_SUITED_TERMINAL_CHOWS = 29
PURE_SHIFTED_CHOWS = 30
ALL_FIVE = 31
TRIPLE_PUNG = 32
THREE_CONCEALED_PUNGS = 33
LESSER_HONORS_AND_KNITTED_TILES = 34
KNITTED_STRAIGHT = 35
UPPER_FOUR = 36
LOWER_FOUR = 37
BIG_THREE_WINDS = 38
MIXED_STRAIGHT = 39
REVERSIBLE_TILES = 40
MIXED_TRIPLE_CHOW = 41
MIXED_SHIFTED_PUNGS = 42
CHICKEN_HAND = 43
LAST_TILE_DRAW = 44
LAST_TILE_CLAIM = 45
OUT_WITH_REPLACEMENT_TILE = 46
ROBBING_THE_KONG = 47
ALL_PUNGS = 48
HALF_FLUSH = 49
MIXED_SHIFTED_CHOWS = 50
ALL_TYPES = 51
MELDED_HAND = 52
TWO_CONCEALED_KONGS = 53
TWO_DRAGONS_PUNGS = 54
OUTSIDE_HAND = 55
FULLY_CONCEALED_HAND = 56
TWO_MELDED_KONGS = 57
LAST_TILE = 58
DRAGON_PUNG = 59
PREVALENT_WIND = 60
SEAT_WIND = 61
CONCEALED_HAND = 62
ALL_CHOWS = 63
TILE_HOG = 64
DOUBLE_PUNG = 65
TWO_CONCEALED_PUNGS = 66
CONCEALED_KONG = 67
ALL_SIMPLES = 68
PURE_DOUBLE_CHOW = 69
MIXED_DOUBLE_CHOW = 70
SHORT_STRAIGHT = 71
TWO_TERMINAL_CHOWS = 72
PUNG_OF_TERMINALS_OR_HONORS = 73
MELDED_KONG = 74
ONE_VOIDED_SUIT = 75
NO_HONORS = 76
EDGE_WAIT = 77
CLOSED_WAIT = 78
SINGLE_WAIT = 79
SELF_DRAWN = 80
FLOWER_TILES = 81
CONCEALED_KONG_AND_MELDED_KONG = 82
HEAVENLY_HAND = 83
EARTHLY_HAND = 84
HUMANLY_HAND = 85

FANS: tuple[FanInfo, ...] = (
    FanInfo(1, "大四喜", "Big Four Winds", 88),
    FanInfo(2, "大三元", "Big Three Dragons", 88),
    FanInfo(3, "绿一色", "All Green", 88),
    FanInfo(4, "九莲宝灯", "Nine Gates", 88),
    FanInfo(5, "四杠", "Four Kongs", 88),
    FanInfo(6, "连七对", "Seven Shifted Pairs", 88),
    FanInfo(7, "十三幺", "Thirteen Orphans", 88),
    FanInfo(8, "清幺九", "All Terminals", 64),
    FanInfo(9, "小四喜", "Little Four Winds", 64),
    FanInfo(10, "小三元", "Little Three Dragons", 64),
    FanInfo(11, "字一色", "All Honors", 64),
    FanInfo(12, "四暗刻", "Four Concealed Pungs", 64),
    FanInfo(13, "一色双龙会", "Pure Terminal Chows", 64),
    FanInfo(14, "一色四同顺", "Quadruple Chow", 48),
    FanInfo(15, "一色四节高", "Four Pure Shifted Pungs", 48),
    FanInfo(16, "一色四步高", "Four Pure Shifted Chows", 32),
    FanInfo(17, "三杠", "Three Kongs", 32),
    FanInfo(18, "混幺九", "All Terminals and Honors", 32),
    FanInfo(19, "七对", "Seven Pairs", 24),
    FanInfo(20, "七星不靠", "Greater Honors and Knitted Tiles", 24),
    FanInfo(21, "全双刻", "All Even Pungs", 24),
    FanInfo(22, "清一色", "Full Flush", 24),
    FanInfo(23, "一色三同顺", "Pure Triple Chow", 24),
    FanInfo(24, "一色三节高", "Pure Shifted Pungs", 24),
    FanInfo(25, "全大", "Upper Tiles", 24),
    FanInfo(26, "全中", "Middle Tiles", 24),
    FanInfo(27, "全小", "Lower Tiles", 24),
    FanInfo(28, "清龙", "Pure Straight", 16),
    FanInfo(29, "三色双龙会", "Three-Suited Terminal Chows", 16),
    FanInfo(30, "一色三步高", "Pure Shifted Chows", 16),
    FanInfo(31, "全带五", "All Five", 16),
    FanInfo(32, "三同刻", "Triple Pung", 16),
    FanInfo(33, "三暗刻", "Three Concealed Pungs", 16),
    FanInfo(34, "全不靠", "Lesser Honors and Knitted Tiles", 12),
    FanInfo(35, "组合龙", "Knitted Straight", 12),
    FanInfo(36, "大于五", "Upper Four", 12),
    FanInfo(37, "小于五", "Lower Four", 12),
    FanInfo(38, "三风刻", "Big Three Winds", 12),
    FanInfo(39, "花龙", "Mixed Straight", 8),
    FanInfo(40, "推不倒", "Reversible Tiles", 8),
    FanInfo(41, "三色三同顺", "Mixed Triple Chow", 8),
    FanInfo(42, "三色三节高", "Mixed Shifted Pungs", 8),
    FanInfo(43, "无番和", "Chicken Hand", 8),
    FanInfo(44, "妙手回春", "Last Tile Draw", 8),
    FanInfo(45, "海底捞月", "Last Tile Claim", 8),
    FanInfo(46, "杠上开花", "Out with Replacement Tile", 8),
    FanInfo(47, "抢杠和", "Robbing The Kong", 8),
    FanInfo(48, "碰碰和", "All Pungs", 6),
    FanInfo(49, "混一色", "Half Flush", 6),
    FanInfo(50, "三色三步高", "Mixed Shifted Chows", 6),
    FanInfo(51, "五门齐", "All Types", 6),
    FanInfo(52, "全求人", "Melded Hand", 6),
    FanInfo(53, "双暗杠", "Two Concealed Kongs", 6),
    FanInfo(54, "双箭刻", "Two Dragons Pungs", 6),
    FanInfo(55, "全带幺", "Outside Hand", 4),
    FanInfo(56, "不求人", "Fully Concealed Hand", 4),
    FanInfo(57, "双明杠", "Two Melded Kongs", 4),
    FanInfo(58, "和绝张", "Last Tile", 4),
    FanInfo(59, "箭刻", "Dragon Pung", 2),
    FanInfo(60, "圈风刻", "Prevalent Wind", 2),
    FanInfo(61, "门风刻", "Seat Wind", 2),
    FanInfo(62, "门前清", "Concealed Hand", 2),
    FanInfo(63, "平和", "All Chows", 2),
    FanInfo(64, "四归一", "Tile Hog", 2),
    FanInfo(65, "双同刻", "Double Pung", 2),
    FanInfo(66, "双暗刻", "Two Concealed Pungs", 2),
    FanInfo(67, "暗杠", "Concealed Kong", 2),
    FanInfo(68, "断幺", "All Simples", 2),
    FanInfo(69, "一般高", "Pure Double Chow", 1),
    FanInfo(70, "喜相逢", "Mixed Double Chow", 1),
    FanInfo(71, "连六", "Short Straight", 1),
    FanInfo(72, "老少副", "Two Terminal Chows", 1),
    FanInfo(73, "幺九刻", "Pung of Terminals or Honors", 1),
    FanInfo(74, "明杠", "Melded Kong", 1),
    FanInfo(75, "缺一门", "One Voided Suit", 1),
    FanInfo(76, "无字", "No Honors", 1),
    FanInfo(77, "独听・边张", "Edge Wait", 1),
    FanInfo(78, "独听・嵌张", "Closed Wait", 1),
    FanInfo(79, "独听・单钓", "Single Wait", 1),
    FanInfo(80, "自摸", "Self-Drawn", 1),
    FanInfo(81, "花牌", "Flower Tiles", 1),
    FanInfo(82, "明暗杠", "Concealed Kong and Melded Kong", 5),
    FanInfo(83, "天和", "Heavenly Hand", 8),
    FanInfo(84, "地和", "Earthly Hand", 8),
    FanInfo(85, "人和", "Humanly Hand", 8),
)
"""Indexed by id - 1. 83-85 exist only with the ruleset option ``blessings`` (off in the 1998 rules and in
PyMahjongGB; summerinsects' optional ``SUPPORT_BLESSINGS`` values, 8 each)."""

POINTS: tuple[int, ...] = (0, *(fan.points for fan in FANS))
"""Points by fan id (index 0 unused)."""
