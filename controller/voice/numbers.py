"""Amounts said aloud: a win's points in Mandarin (characters and tone-numbered pinyin), Cantonese (characters) and
Japanese (kanji digits as written, kana as spoken).

espeak-ng reads digits in English under every voice but English itself, and Debian's Japanese dictionary has no
kanji (it says "Chinese letter" for each), so the amount is spelled out here. Japanese readings keep the sound
changes a table caller uses (三百 さんびゃく, 六百 ろっぴゃく, 八百 はっぴゃく, 三千 さんぜん, 八千 はっせん); Chinese
writes 两 before 百, 千 and 万 when it leads (两千), 零 once for a run of zeros inside (一千零五十), and 十 without 一
when the amount starts with it (十二).
"""

from __future__ import annotations

MAX_AMOUNT = 99_999_999
"""Below 1 亿 / 億: every amount a table pays."""

_ZH_DIGITS = "零一二三四五六七八九"
_ZH_PINYIN = ["ling2", "yi1", "er4", "san1", "si4", "wu3", "liu4", "qi1", "ba1", "jiu3"]
_ZH_UNITS = [("", ""), ("十", "shi2"), ("百", "bai3"), ("千", "qian1")]

_JA_DIGITS = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"]
_JA_HUNDREDS = {1: "ひゃく", 3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_JA_THOUSANDS = {1: "せん", 3: "さんぜん", 8: "はっせん"}


def _checked(amount: int) -> int:
    if not 0 <= amount <= MAX_AMOUNT:
        raise ValueError(f"an amount to say must be 0-{MAX_AMOUNT}, got {amount}")
    return amount


def _zh_group(group: int, leading: bool) -> tuple[list[str], list[str]]:
    """Characters and pinyin of 1-9999 (``leading``: the first group said, where 十二 drops its 一)."""
    text: list[str] = []
    spoken: list[str] = []
    zeros = False
    for power in (3, 2, 1, 0):
        digit = group // 10**power % 10
        if digit == 0:
            zeros = bool(text)
            continue
        if zeros:
            text.append("零")
            spoken.append("ling2")
            zeros = False
        unit, unit_said = _ZH_UNITS[power]
        first = not text
        if power == 1 and digit == 1 and first and leading:
            pass  # 十二, not 一十二
        elif digit == 2 and power >= 2 and first:
            text.append("两")
            spoken.append("liang3")
        else:
            text.append(_ZH_DIGITS[digit])
            spoken.append(_ZH_PINYIN[digit])
        if unit:
            text.append(unit)
            spoken.append(unit_said)
    return text, spoken


def chinese(amount: int) -> tuple[str, str]:
    """``1050`` → (一千零五十, "yi1 qian1 ling2 wu3 shi2"); ``20000`` → (两万, "liang3 wan4")."""
    amount = _checked(amount)
    if amount == 0:
        return "零", "ling2"
    high, low = divmod(amount, 10_000)
    text: list[str] = []
    spoken: list[str] = []
    if high:
        if high == 2:
            text, spoken = ["两"], ["liang3"]
        else:
            text, spoken = _zh_group(high, leading=True)
        text.append("万")
        spoken.append("wan4")
        if low and low < 1000:
            text.append("零")
            spoken.append("ling2")
    if low:
        more_text, more_spoken = _zh_group(low, leading=not high)
        text += more_text
        spoken += more_spoken
    return "".join(text), " ".join(spoken)


def _ja_group(group: int) -> str:
    """Kana of 1-9999."""
    thousands, rest = divmod(group, 1000)
    hundreds, rest = divmod(rest, 100)
    tens, ones = divmod(rest, 10)
    said = ""
    if thousands:
        said += _JA_THOUSANDS.get(thousands, _JA_DIGITS[thousands] + "せん")
    if hundreds:
        said += _JA_HUNDREDS.get(hundreds, _JA_DIGITS[hundreds] + "ひゃく")
    if tens:
        said += ("" if tens == 1 else _JA_DIGITS[tens]) + "じゅう"
    return said + _JA_DIGITS[ones]


def japanese(amount: int) -> str:
    """Kana of an amount: ``8000`` → はっせん, ``12000`` → いちまんにせん, ``2600`` → にせんろっぴゃく."""
    amount = _checked(amount)
    if amount == 0:
        return "ぜろ"
    high, low = divmod(amount, 10_000)
    return (_ja_group(high) + "まん" if high else "") + (_ja_group(low) if low else "")
