"""What the table says, in each language: the word of a claim or a verdict, and a discarded tile's name.

Each phrase has the text as written (the log, the tests) and the text given to espeak-ng. They differ for Mandarin:
Debian's espeak-ng ships the small Mandarin dictionary, which lacks most of these characters and reads the ones it
falls back on with their tone digits spelled in English (碰 comes out as "peng four"); pinyin with tone numbers, read
by the ``cmn-latn-pinyin`` voice, is said right, tone sandhi included. The Cantonese dictionary knows the
characters, so ``yue`` is given them, in the forms Hong Kong tables write (萬, 槓, 發) and with Cantonese table
words: 上 for a chow, 食糊 for a win.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import parse_tile, rank_of, suit_of

VOICES = {"zh": "cmn-latn-pinyin", "yue": "yue", "en": "en"}
"""The espeak-ng voice of each ``[voice] language``: Mandarin, Cantonese, English."""

CALLS = ("chi", "pung", "kong", "hu", "self_drawn", "drawn")
"""The moments always said (``controller.voice.calls``); a discard's tile name is said when ``discards`` is on."""


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
    },
    "yue": {
        "chi": ("上", "上"),
        "pung": ("碰", "碰"),
        "kong": ("槓", "槓"),
        "hu": ("食糊", "食糊"),
        "self_drawn": ("自摸", "自摸"),
        "drawn": ("流局", "流局"),
    },
    "en": {
        "chi": ("chow", "chow"),
        "pung": ("pung", "pung"),
        "kong": ("kong", "kong"),
        "hu": ("win", "win"),
        "self_drawn": ("self drawn", "self drawn"),
        "drawn": ("drawn game", "drawn game"),
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
_EN_NUMBERS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_EN_SUITS = {"m": ("character", "characters"), "p": ("dot", "dots"), "s": ("bamboo", "bamboo")}
_EN_HONORS = ["east wind", "south wind", "west wind", "north wind", "white dragon", "green dragon", "red dragon"]
_EN_FLOWERS = ["spring", "summer", "autumn", "winter", "plum", "orchid", "chrysanthemum", "bamboo flower"]


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
    if suit in _EN_SUITS:
        text = f"{_EN_NUMBERS[rank - 1]} {_EN_SUITS[suit][rank > 1]}"
    else:
        text = (_EN_HONORS if suit == "z" else _EN_FLOWERS)[rank - 1]
    return Phrase(text, text, voice)
