"""The PyPI ``mahjong`` 2.1.0 scorer as a test-time oracle for the riichi ruleset, and fresh random hands.

``random_case`` deals a winning hand from a physical 136-tile set (closed and open, chi/pon/kans, seven pairs,
thirteen orphans, nine gates, flushes and honour-heavy hands weighted up so that rare yaku appear), with a random
situation (seat and round wind, dealer, tsumo/ron, riichi, ippatsu, double riichi, rinshan, chankan, last tile,
first turn, dora and ura indicators, honba, sticks) and random options. ``ours`` and ``theirs`` score one case;
both answer ``(hu, han, fu, payments)``. Never imported by the product.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld as OracleMeld

from engine.notation import Hand, Meld, MeldKind
from engine.rulesets.base import WinContext
from engine.rulesets.riichi import RiichiRuleset
from engine.settle.melds import contract_meld

FIVES = (4, 13, 22)
Result = tuple[bool, int, int, dict[int, int] | None]


@dataclass(frozen=True)
class Case:
    hand: Hand
    situation: dict[str, Any]
    options: dict[str, Any]
    indicators: tuple[int, ...]
    ura: tuple[int, ...]
    red_in_hand: tuple[int, ...]
    """Kinds (4, 13, 22) whose red copy the hand holds."""
    red_win: bool
    """The winning tile is the red copy of its five."""


# --- the generator ---------------------------------------------------------------------------------------------


def _pool(rng: random.Random) -> list[int]:
    """The kinds a hand draws its sets from: everything, or one suit (+ honours), simples, honour-heavy."""
    style = rng.random()
    if style < 0.15:
        suit = rng.randrange(3)
        kinds = list(range(9 * suit, 9 * suit + 9))
        return kinds + list(range(27, 34)) if rng.random() < 0.5 else kinds
    if style < 0.25:
        return [t for t in range(27) if t % 9 not in (0, 8)]
    if style < 0.33:
        return [0, 8, 9, 17, 18, 26, *range(27, 34)]
    if style < 0.38:
        return [19, 20, 21, 23, 25, 32]
    return list(range(34))


def _sets(rng: random.Random, counts: list[int], pool: list[int]) -> list[tuple[str, int]] | None:
    sets: list[tuple[str, int]] = []
    for _ in range(200):
        if len(sets) == 4:
            return sets
        tile = rng.choice(pool)
        honor_heavy = tile >= 27 or rng.random() < 0.35
        if not honor_heavy and tile < 27 and tile % 9 <= 6 and all(t in pool for t in (tile + 1, tile + 2)):
            if all(counts[t] < 4 for t in (tile, tile + 1, tile + 2)):
                for t in (tile, tile + 1, tile + 2):
                    counts[t] += 1
                sets.append(("chi", tile))
        elif counts[tile] <= 1:
            counts[tile] += 3
            sets.append(("pon", tile))
    return None


def _standard(rng: random.Random) -> tuple[list[Meld], list[int], list[int]] | None:
    """(melds, concealed tiles incl. the winning tile, counts) of a random four-sets-and-a-pair hand."""
    pool = _pool(rng)
    counts = [0] * 34
    sets = _sets(rng, counts, pool)
    if sets is None:
        return None
    pair = rng.choice(pool)
    if counts[pair] > 2:
        return None
    counts[pair] += 2
    opened = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
    melds: list[Meld] = []
    concealed = [pair, pair]
    for index, (kind, tile) in enumerate(sets):
        if index >= opened:
            concealed += [tile, tile + 1, tile + 2] if kind == "chi" else [tile] * 3
            continue
        if kind == "chi":
            melds.append(Meld(MeldKind.CHOW, tile, 1))
        elif counts[tile] < 4 and rng.random() < 0.4:
            counts[tile] += 1
            melds.append(Meld(MeldKind.KONG, tile, rng.choice((None, None, 1, 2, 3, 5, 6, 7))))
        else:
            melds.append(Meld(MeldKind.PUNG, tile, rng.choice((1, 2, 3))))
    return melds, concealed, counts


def _seven_pairs(rng: random.Random) -> tuple[list[Meld], list[int], list[int]]:
    pool = _pool(rng)
    kinds = rng.sample(pool, 7) if len(pool) >= 7 else rng.sample(range(34), 7)
    counts = [0] * 34
    for kind in kinds:
        counts[kind] = 2
    return [], [kind for kind in kinds for _ in range(2)], counts


def _orphans(rng: random.Random) -> tuple[list[Meld], list[int], list[int]]:
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    tiles = [*orphans, rng.choice(orphans)]
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return [], tiles, counts


def _nine_gates(rng: random.Random) -> tuple[list[Meld], list[int], list[int]]:
    suit = 9 * rng.randrange(3)
    ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
    tiles = [suit + rank for rank in ranks]
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return [], tiles, counts


def random_case(rng: random.Random) -> Case:
    """A fresh winning hand with a random situation and random options."""
    while True:
        shape = rng.random()
        if shape < 0.005:
            built: tuple[list[Meld], list[int], list[int]] | None = _nine_gates(rng)
        elif shape < 0.02:
            built = _orphans(rng)
        else:
            built = _seven_pairs(rng) if shape < 0.12 else _standard(rng)
        if built is not None:
            break
    melds, concealed, counts = built
    win = rng.choice(concealed)
    standing = list(concealed)
    standing.remove(win)
    hand = Hand(tuple(melds), tuple(sorted(standing)), win)
    return _with_situation(rng, hand, counts)


def _free_tiles(rng: random.Random, counts: list[int], n: int) -> tuple[int, ...]:
    tiles = []
    while len(tiles) < n:
        tile = rng.randrange(34)
        if counts[tile] < 4:
            counts[tile] += 1
            tiles.append(tile)
    return tuple(tiles)


def _with_situation(rng: random.Random, hand: Hand, counts: list[int]) -> Case:
    closed = all(meld.is_concealed_kong for meld in hand.melds)
    kans = sum(meld.kind is MeldKind.KONG for meld in hand.melds)
    dealer, winner = rng.randrange(4), rng.randrange(4)
    tsumo = rng.random() < 0.45
    discarder = None if tsumo else rng.choice([seat for seat in range(4) if seat != winner])
    riichi = closed and rng.random() < 0.5
    double = riichi and rng.random() < 0.1
    rinshan = tsumo and kans > 0 and rng.random() < 0.3
    chankan = not tsumo and rng.random() < 0.04
    situation: dict[str, Any] = {
        "winner": winner,
        "dealer": dealer,
        "discarder": discarder,
        "round_wind": "ESWN"[rng.randrange(4)],
        "riichi": riichi and not double,
        "double_riichi": double,
        "ippatsu": riichi and rng.random() < 0.25,
        "after_kong": rinshan,
        "robbing_kong": chankan,
        "last_tile": not rinshan and not chankan and rng.random() < 0.06,
        "first_turn": closed and not hand.melds and rng.random() < 0.03,
        "honba": rng.choice((0, 0, 1, 2, 5)),
        "riichi_sticks": rng.choice((0, 0, 1, 3)),
    }
    indicators = _free_tiles(rng, counts, 1 + kans)
    ura = _free_tiles(rng, counts, 1 + kans) if riichi else ()
    options = {
        "open_tanyao": rng.random() < 0.8,
        "double_yakuman": rng.random() < 0.3,
        "counted_yakuman": rng.choice(("yakuman", "yakuman", "sanbaiman")),
        "kiriage": rng.random() < 0.3,
        "renhou": rng.choice(("none", "han5", "yakuman")),
        "red_fives": rng.random() < 0.3,
    }
    red_in_hand: tuple[int, ...] = ()
    red_win = False
    if options["red_fives"]:
        tiles = hand.all_tiles()
        # Holding all four copies of a five means holding its red one.
        red_in_hand = tuple(five for five in FIVES if tiles.count(five) == 4 or (five in tiles and rng.random() < 0.5))
        others = tiles.count(hand.win_tile) - 1
        red_win = hand.win_tile in red_in_hand and (others == 0 or rng.random() < 0.5)
    return Case(hand, situation, options, indicators, ura, red_in_hand, red_win)


# --- the two scorers -------------------------------------------------------------------------------------------


def situation_of(case: Case) -> dict[str, Any]:
    """The case's situation as our settle keys (indicators as tile strings, red fives counted)."""
    situation = dict(case.situation)
    situation["dora_indicators"] = "".join(_code(tile) for tile in case.indicators)
    situation["ura_dora_indicators"] = "".join(_code(tile) for tile in case.ura)
    situation["red_fives"] = len(case.red_in_hand)
    return situation


def ours(case: Case) -> Result:
    score = RiichiRuleset(case.options).evaluate(case.hand, WinContext.from_dict(situation_of(case)))
    if not score.hu:
        return False, 0, 0, None
    payments = dict(score.payments or {})
    payments[case.situation["winner"]] += 1000 * case.situation["riichi_sticks"]
    return True, score.extra["han"], score.extra["fu"], payments


def _code(tile: int) -> str:
    return f"{tile % 9 + 1}{'mpsz'[tile // 9]}"


class _Ids:
    """136-format ids: copy 0 of a five is the red one (the oracle's aka dora), given only where the case says
    so; without the option the red copy is just a fourth five."""

    def __init__(self) -> None:
        self.next = [1 if kind in FIVES else 0 for kind in range(34)]

    def take(self, kind: int, red: bool = False) -> int:
        copy = self.next[kind]
        if red or copy == 4:
            return 4 * kind
        self.next[kind] += 1
        return 4 * kind + copy


def oracle_arguments(case: Case) -> dict[str, Any]:
    """The keyword arguments of ``HandCalculator.estimate_hand_value`` for the case (136-format tiles)."""
    hand = case.hand
    red = tuple(case.red_in_hand)
    ids = _Ids()
    win_id = ids.take(hand.win_tile, case.red_win) if hand.win_tile is not None else 0
    red_left = [five for five in red if not (case.red_win and five == hand.win_tile)]

    def take(tile: int) -> int:
        give_red = tile in red_left
        if give_red:
            red_left.remove(tile)
        return ids.take(tile, give_red)

    standing = [take(tile) for tile in hand.standing]
    melds, meld_ids = [], []
    for meld in hand.melds:
        taken = [take(tile) for tile in meld.tiles]
        meld_ids += taken
        melds.append(_oracle_meld(meld, taken))
    return {
        "tiles": [*standing, win_id, *meld_ids],
        "win_tile": win_id,
        "melds": melds,
        "dora_indicators": [4 * tile + 3 for tile in case.indicators],
        "ura_dora_indicators": [4 * tile + 3 for tile in case.ura],
        "config": _config(case.situation, case.options),
    }


def theirs(case: Case) -> Result:
    response = HandCalculator.estimate_hand_value(**oracle_arguments(case))
    if response.error:
        return False, 0, 0, None
    return True, response.han, response.fu, _payments(response.cost, case.situation)


def _oracle_meld(meld: Meld, ids: list[int]) -> OracleMeld:
    if meld.kind is MeldKind.CHOW:
        return OracleMeld(OracleMeld.CHI, ids, opened=True)
    if meld.kind is MeldKind.PUNG:
        return OracleMeld(OracleMeld.PON, ids, opened=True)
    if meld.is_added_kong:
        return OracleMeld(OracleMeld.SHOUMINKAN, ids, opened=True)
    return OracleMeld(OracleMeld.KAN, ids, opened=not meld.is_concealed_kong)


def _config(situation: dict[str, Any], options: dict[str, Any]) -> HandConfig:
    tsumo = situation["discarder"] is None
    riichi = situation["riichi"] or situation["double_riichi"]
    first = situation["first_turn"]
    dealer = situation["winner"] == situation["dealer"]
    return HandConfig(
        is_tsumo=tsumo,
        is_riichi=riichi,
        is_daburu_riichi=situation["double_riichi"],
        is_ippatsu=situation["ippatsu"],
        is_rinshan=situation["after_kong"],
        is_chankan=situation["robbing_kong"],
        is_haitei=situation["last_tile"] and tsumo,
        is_houtei=situation["last_tile"] and not tsumo,
        is_tenhou=first and tsumo and dealer,
        is_chiihou=first and tsumo and not dealer,
        is_renhou=first and not tsumo and not dealer and options["renhou"] != "none",
        player_wind=27 + (situation["winner"] - situation["dealer"]) % 4,
        round_wind=27 + "ESWN".index(situation["round_wind"]),
        tsumi_number=situation["honba"],
        kyoutaku_number=situation["riichi_sticks"],
        options=OptionalRules(
            has_open_tanyao=options["open_tanyao"],
            has_aka_dora=options["red_fives"],
            has_double_yakuman=options["double_yakuman"],
            kazoe_limit=HandConstants.KAZOE_LIMITED
            if options["counted_yakuman"] == "yakuman"
            else HandConstants.KAZOE_SANBAIMAN,
            kiriage=options["kiriage"],
            renhou_as_yakuman=options["renhou"] == "yakuman",
        ),
    )


def _payments(cost: Any, situation: dict[str, Any]) -> dict[int, int]:
    winner, dealer, discarder = situation["winner"], situation["dealer"], situation["discarder"]
    payments = {seat: 0 for seat in range(4)}
    if discarder is not None:
        payments[discarder] -= cost["main"] + cost["main_bonus"]
    else:
        for seat in range(4):
            if seat == winner:
                continue
            part = "main" if dealer in (seat, winner) else "additional"
            payments[seat] -= cost[part] + cost[part + "_bonus"]
    payments[winner] = cost["total"]
    return payments


def disagreements(seed: int, hands: int) -> tuple[list[str], int]:
    """The cases (as text) where ours and the oracle differ among ``hands`` fresh hands, and the oracle's wins."""
    rng = random.Random(seed)
    found: list[str] = []
    wins = 0
    for _ in range(hands):
        case = random_case(rng)
        mine, oracle = ours(case), theirs(case)
        wins += oracle[0]
        if mine != oracle:
            found.append(f"{case}: ours {mine}, oracle {oracle}")
    return found, wins


def _code(tile: int, red: bool = False) -> str:
    return f"{0 if red else tile % 9 + 1}{'mpsz'[tile // 9]}"


def settle_request(case: Case) -> dict[str, Any]:
    """The case as a ``mjtable settle`` request: red fives written as rank 0 where the case holds them (the winning
    tile, else a standing tile, else a meld's)."""
    hand, red = case.hand, set(case.red_in_hand)
    assert hand.win_tile is not None
    win_tile = _code(hand.win_tile, case.red_win)
    if case.red_win:
        red.discard(hand.win_tile)
    standing = []
    for tile in sorted(hand.standing):
        standing.append(_code(tile, tile in red))
        red.discard(tile)
    melds = []
    for meld in hand.melds:
        text = contract_meld(meld)
        reds = [tile for tile in meld.tiles if tile in red]
        if reds:
            red.discard(reds[0])
            kind, tiles, origin = text.split(":")
            text = f"{kind}:{tiles.replace('5', '0', 1)}:{origin}"
        melds.append(text)
    situation = situation_of(case)
    del situation["red_fives"]  # the settle contract counts the 0s of the tiles
    request = {"rules": "riichi", "options": case.options, "hand": "".join(standing), "melds": melds}
    return {**request, "win_tile": win_tile, "situation": situation}
