"""What the table says, in each language: the word of a claim or a verdict, and a discarded tile's name.

Each phrase has the text as written (the log, the tests) and the text given to espeak-ng. They differ for Mandarin:
Debian's espeak-ng ships the small Mandarin dictionary, which lacks most of these characters and reads the ones it
falls back on with their tone digits spelled in English (碰 comes out as "peng four"); pinyin with tone numbers, read
by the ``cmn-latn-pinyin`` voice, is said right, tone sandhi included. The Cantonese dictionary knows the
characters, so ``yue`` is given them, in the forms Hong Kong tables write (萬, 槓, 發) and with Cantonese table
words: 上 for a chow, 食糊 for a win. Japanese is written as a riichi table writes it (ロン, 流局, 五萬) and given to
espeak-ng in kana, since Debian's Japanese dictionary has no kanji; its tile names are the table's (いーまん,
りゃんぴん, しゃー), its win on a discard ロン and from the wall ツモ. A win's points follow its call
(``points_phrase``).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.voice.numbers import chinese, japanese
from engine.tiles import parse_tile, rank_of, suit_of

VOICES = {"zh": "cmn-latn-pinyin", "yue": "yue", "en": "en", "ja": "ja"}
"""The espeak-ng voice of each ``[voice] language``: Mandarin, Cantonese, English, Japanese."""

ABORTIVE = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sanchahou")
"""Riichi's abortive draws (途中流局), said by name instead of 流局: the result line's ``abortive``."""
CALLS = ("chi", "pung", "kong", "hu", "self_drawn", "drawn", "riichi", "wild", *ABORTIVE)
"""The moments always said (``controller.voice.calls``) besides a win's points; a discard's tile name is said when
``discards`` is on."""


@dataclass(frozen=True)
class Phrase:
    text: str
    """As written: 碰, 三万, "three characters"."""
    spoken: str
    """As espeak-ng is given it (pinyin for Mandarin)."""
    voice: str
    """The espeak-ng voice that says it."""


_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "zh": {
        "chi": ("吃", "chi1"),
        "pung": ("碰", "peng4"),
        "kong": ("杠", "gang4"),
        "hu": ("胡", "hu2"),
        "self_drawn": ("自摸", "zi4 mo1"),
        "drawn": ("流局", "liu2 ju2"),
        "riichi": ("立直", "li4 zhi2"),
        "wild": ("赖子", "lai4 zi5"),
        "kyuushu_kyuuhai": ("九种九牌", "jiu3 zhong3 jiu3 pai2"),
        "suufon_renda": ("四风连打", "si4 feng1 lian2 da3"),
        "suucha_riichi": ("四家立直", "si4 jia1 li4 zhi2"),
        "suukaikan": ("四杠散了", "si4 gang4 san4 le5"),
        "sanchahou": ("三家和", "san1 jia1 he2"),
    },
    "yue": {
        "chi": ("上", "上"),
        "pung": ("碰", "碰"),
        "kong": ("槓", "槓"),
        "hu": ("食糊", "食糊"),
        "self_drawn": ("自摸", "自摸"),
        "drawn": ("流局", "流局"),
        "riichi": ("立直", "立直"),
        "wild": ("賴子", "賴子"),
        "kyuushu_kyuuhai": ("九種九牌", "九種九牌"),
        "suufon_renda": ("四風連打", "四風連打"),
        "suucha_riichi": ("四家立直", "四家立直"),
        "suukaikan": ("四槓散了", "四槓散了"),
        "sanchahou": ("三家和", "三家和"),
    },
    "en": {
        "chi": ("chow", "chow"),
        "pung": ("pung", "pung"),
        "kong": ("kong", "kong"),
        "hu": ("win", "win"),
        "self_drawn": ("self drawn", "self drawn"),
        "drawn": ("drawn game", "drawn game"),
        "riichi": ("riichi", "ree chee"),
        "wild": ("wild", "wild"),
        "kyuushu_kyuuhai": ("nine terminals, drawn", "nine terminals, drawn"),
        "suufon_renda": ("four winds, drawn", "four winds, drawn"),
        "suucha_riichi": ("four riichi, drawn", "four ree chee, drawn"),
        "suukaikan": ("four kongs, drawn", "four kongs, drawn"),
        "sanchahou": ("triple win, drawn", "triple win, drawn"),
    },
    "ja": {
        "chi": ("チー", "チー"),
        "pung": ("ポン", "ポン"),
        "kong": ("カン", "カン"),
        "hu": ("ロン", "ロン"),
        "self_drawn": ("ツモ", "ツモ"),
        "drawn": ("流局", "りゅうきょく"),
        "riichi": ("リーチ", "リーチ"),
        "wild": ("ワイルド", "わいるど"),
        "kyuushu_kyuuhai": ("九種九牌", "きゅうしゅきゅうはい"),
        "suufon_renda": ("四風連打", "すーふーれんだ"),
        "suucha_riichi": ("四家立直", "すーちゃりーち"),
        "suukaikan": ("四槓散了", "すーかんさんら"),
        "sanchahou": ("三家和", "さんちゃほー"),
    },
}

_ZH_NUMBERS = [("一", "yi1"), ("二", "er4"), ("三", "san1"), ("四", "si4"), ("五", "wu3"), ("六", "liu4"),
               ("七", "qi1"), ("八", "ba1"), ("九", "jiu3")]  # fmt: skip
_ZH_SUITS = {"m": ("万", "wan4"), "p": ("筒", "tong3"), "s": ("条", "tiao2")}
_ZH_HONORS = [("东风", "dong1 feng1"), ("南风", "nan2 feng1"), ("西风", "xi1 feng1"), ("北风", "bei3 feng1"),
              ("白板", "bai2 ban3"), ("发财", "fa1 cai2"), ("红中", "hong2 zhong1")]  # fmt: skip
_ZH_FLOWERS = [("春", "chun1"), ("夏", "xia4"), ("秋", "qiu1"), ("冬", "dong1"), ("梅", "mei2"), ("兰", "lan2"),
               ("菊", "ju2"), ("竹", "zhu2")]  # fmt: skip
_YUE_SUITS = {"m": "萬", "p": "筒", "s": "索"}
_YUE_HONORS = ["東風", "南風", "西風", "北風", "白板", "發財", "紅中"]
_YUE_FLOWERS = "春夏秋冬梅蘭菊竹"
_YUE_FORMS = str.maketrans("万两", "萬兩")
"""The forms a Hong Kong table writes in an amount."""
_EN_NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_EN_SUITS = {"m": ("character", "characters"), "p": ("dot", "dots"), "s": ("bamboo", "bamboo")}
_EN_HONORS = ["east wind", "south wind", "west wind", "north wind", "white dragon", "green dragon", "red dragon"]
_EN_FLOWERS = ["spring", "summer", "autumn", "winter", "plum", "orchid", "chrysanthemum", "bamboo flower"]
_JA_NUMBERS = ["いー", "りゃん", "さん", "すー", "うー", "ろー", "ちー", "ぱー", "きゅー"]
_JA_SUITS = {"m": ("萬", "まん"), "p": ("筒", "ぴん"), "s": ("索", "そー")}
_JA_HONORS = [("東", "とん"), ("南", "なん"), ("西", "しゃー"), ("北", "ぺー"), ("白", "はく"), ("發", "はつ"),
              ("中", "ちゅん")]  # fmt: skip
_JA_FLOWERS = [("春", "はる"), ("夏", "なつ"), ("秋", "あき"), ("冬", "ふゆ"), ("梅", "うめ"), ("蘭", "らん"),
               ("菊", "きく"), ("竹", "たけ")]  # fmt: skip


def call_phrase(what: str, language: str) -> Phrase:
    """The word of a claim or verdict (one of ``CALLS``)."""
    text, spoken = _WORDS[language][what]
    return Phrase(text, spoken, VOICES[language])


def tile_phrase(code: str, language: str) -> Phrase:
    """A tile's spoken name: ``3m`` → 三万 (san1 wan4), 三萬, "three characters"; honors and flowers by name."""
    tile = parse_tile(code)
    suit, rank = suit_of(tile), rank_of(tile)
    voice = VOICES[language]
    if language == "zh":
        if suit in _ZH_SUITS:
            (number, said), (name, name_said) = _ZH_NUMBERS[rank - 1], _ZH_SUITS[suit]
            return Phrase(number + name, f"{said} {name_said}", voice)
        text, spoken = (_ZH_HONORS if suit == "z" else _ZH_FLOWERS)[rank - 1]
        return Phrase(text, spoken, voice)
    if language == "yue":
        if suit in _YUE_SUITS:
            text = _ZH_NUMBERS[rank - 1][0] + _YUE_SUITS[suit]
        else:
            text = (_YUE_HONORS if suit == "z" else _YUE_FLOWERS)[rank - 1]
        return Phrase(text, text, voice)
    if language == "ja":
        if suit in _JA_SUITS:
            name, name_said = _JA_SUITS[suit]
            return Phrase(_ZH_NUMBERS[rank - 1][0] + name, _JA_NUMBERS[rank - 1] + name_said, voice)
        text, spoken = (_JA_HONORS if suit == "z" else _JA_FLOWERS)[rank - 1]
        return Phrase(text, spoken, voice)
    if suit in _EN_SUITS:
        text = f"{_EN_NUMBERS[rank - 1]} {_EN_SUITS[suit][rank > 1]}"
    else:
        text = (_EN_HONORS if suit == "z" else _EN_FLOWERS)[rank - 1]
    return Phrase(text, text, voice)


def points_phrase(amount: int, language: str) -> Phrase:
    """What a win brings its winner, said after its call: 八千分 (ba1 qian1 fen1), 八千分, "8000 points", 8000点
    (はっせんてん). ``ValueError`` beyond ``numbers.MAX_AMOUNT``."""
    voice = VOICES[language]
    if language == "en":
        text = f"{amount} point{'s' * (amount != 1)}"
        return Phrase(text, text, voice)
    if language == "ja":
        return Phrase(f"{amount}点", japanese(amount) + "てん", voice)
    text, spoken = chinese(amount)
    if language == "zh":
        return Phrase(text + "分", f"{spoken} fen1", voice)
    text = text.translate(_YUE_FORMS) + "分"
    return Phrase(text, text, voice)
