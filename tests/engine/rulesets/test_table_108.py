"""The referee playing the 108-tile rulesets: 定缺 (108.md SC-2), 血战到底 (SC-12) with several winners on one
discard (一炮多响), kong money paid at once and handed on (SC-10, SC-11), Guizhou's 热炮 (GZ-7), Changsha's opening
wins (CS-6) and birds (CS-7); then whole simulated hands and the legal-actions property under each ruleset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, ActionKind
from engine.bots import SimpleBot
from engine.match import DealState, next_deal
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.rulesets.sichuan import SichuanRuleset
from engine.settlement import combine
from engine.simulation import simulate
from engine.tiles import parse_tile, suit_of
from tests.engine.stacked import stacked

K = ActionKind
SICHUAN, GUIZHOU, CHANGSHA = (get_ruleset(name) for name in ("sichuan", "guizhou", "changsha"))


def act(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> tuple[str, ...]:
    verdict = referee.apply(Action(kind, seat, None if tile is None else parse_tile(tile)))
    assert verdict.ok, verdict.reason
    return verdict.events


def rejected(referee: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> str:
    before = referee.to_dict()
    verdict = referee.apply(Action(kind, seat, None if tile is None else parse_tile(tile)))
    assert not verdict.ok
    assert referee.to_dict() == before
    return verdict.reason


def declare(referee: Referee, voids: str) -> None:
    for seat, suit in enumerate(voids):
        act(referee, K.DECLARE_VOID, seat, f"1{suit}")


# --- Sichuan: 定缺 and 血战到底 ---------------------------------------------------------------------------------

BLOOD = {
    0: "111222333444m5m5p",
    1: "123456789m234p5p",  # waits on 5p, void s
    2: "123456789s234p5p",  # waits on 5p, void m
    3: "1122334455667s",  # 清七对 waiting on 7s, void m
}


def test_void_suits_are_declared_before_the_first_discard():
    """SC-2: every seat declares before the dealer's first discard, once, naming a suit by any of its tiles."""
    referee = stacked(SICHUAN, BLOOD)
    assert referee.phase is Phase.DECLARE
    assert "declarations" in rejected(referee, K.DISCARD, 0, "5p")
    act(referee, K.DECLARE_VOID, 2, "7m")
    assert "already declared" in rejected(referee, K.DECLARE_VOID, 2, "1p")
    for seat, suit in ((0, "s"), (1, "s"), (3, "m")):
        act(referee, K.DECLARE_VOID, seat, f"9{suit}")
    assert referee.phase is Phase.ACT and referee.void_suits == {0: "s", 1: "s", 2: "m", 3: "m"}


def test_blood_battle_two_win_on_one_discard_and_the_last_one_wins_later():
    """SC-12: seats 1 and 2 win on the dealer's 5p (平胡 ×1 each, the discarder pays both) and leave; the seat
    after the last winner (3) draws; only seats still in answer a discard; seat 3's 清七对 self-draw (4番 ×16 + 1,
    SC-7) is paid by seat 0 alone and ends the hand with three winners. SC-15: the discarder of the multiple
    first win deals next."""
    referee = stacked(SICHUAN, {0: "111222333444m5m5p", 1: BLOOD[1], 2: BLOOD[2], 3: "1122334455667s"}, draws="9m8m7s")
    declare(referee, "sssm".replace("sssm", "ssmm"))
    act(referee, K.DISCARD, 0, "5p")
    act(referee, K.HU, 1)
    act(referee, K.HU, 2)
    events = act(referee, K.PASS, 3)
    assert "play goes on" in events
    assert referee.players_out == [1, 2] and referee.phase is Phase.DRAW and referee.turn == 3
    act(referee, K.DRAW, 3)  # 9m, his void suit
    act(referee, K.DISCARD, 3, "9m")
    assert referee.answering_seats() == [0]
    assert "cannot answer" in rejected(referee, K.PASS, 1)
    act(referee, K.PASS, 0)
    act(referee, K.DRAW, 0)
    act(referee, K.DISCARD, 0, "8m")
    act(referee, K.PASS, 3)
    act(referee, K.DRAW, 3)
    act(referee, K.HU, 3)
    result = referee.result
    assert referee.phase is Phase.OVER and result is not None
    assert [(win.seats, win.discarder) for win in result.wins] == [((1, 2), 0), ((3,), None)]
    assert result.payments == {0: -19, 1: 1, 2: 1, 3: 17}
    assert result.winners == (1, 2, 3)
    assert next_deal(SICHUAN.rotation, DealState(0, 0), result).dealer == 0


class _ShortWall(SichuanRuleset):
    """Sichuan with all but 3 live-wall tiles held back, to reach the last four tiles at once."""

    @property
    def reserved_tiles(self) -> int:
        return 108 - 53 - 3


def test_on_the_last_four_tiles_a_possible_win_must_be_taken():
    """SC-13 (S6 最后四张能胡必须胡): with 3 live tiles left, seats 1 and 2 can win on the dealer's 5p and may
    neither pass nor let the next seat draw; seat 3, who cannot win, may pass."""
    referee = stacked(_ShortWall(), BLOOD)
    assert referee.wall.live_remaining == 3
    declare(referee, "ssmm")
    act(referee, K.DISCARD, 0, "5p")
    assert "must" in rejected(referee, K.PASS, 1)
    assert "must" in rejected(referee, K.DRAW, 1)
    act(referee, K.PASS, 3)
    act(referee, K.HU, 1)
    assert "must" in rejected(referee, K.PASS, 2)
    act(referee, K.HU, 2)
    assert referee.players_out == [1, 2]


def test_void_suit_tiles_cannot_be_claimed():
    """SC-2: seat 1 declared m void and may not pung the 5m he holds two of."""
    referee = stacked(SICHUAN, {**BLOOD, 1: "55m123456789s12p"})
    declare(referee, "smmm")
    act(referee, K.DISCARD, 0, "5m")
    assert "void" in rejected(referee, K.PUNG, 1)


def test_kong_money_is_paid_at_once_and_handed_on_by_a_kong_discard():
    """SC-10: the dealer's 暗杠 of 1m takes 2 from each other player at once; SC-11: seat 1 wins on the 5p he
    discards after the replacement (平胡 + 杠上炮 = 1番, ×2) and also receives the 6 the kong collected."""
    referee = stacked(SICHUAN, {0: "1111m222333444m5p", 1: "234567m789p234p5p"}, replacements="9m")
    declare(referee, "ssss")
    act(referee, K.CONCEALED_KONG, 0, "1m")
    assert combine(*referee.settlements) == {0: 6, 1: -2, 2: -2, 3: -2}
    assert referee.kongs == [{"seat": 0, "type": "concealed", "tile": "1m", "paid_by": {"1": 2, "2": 2, "3": 2}}]
    act(referee, K.DISCARD, 0, "5p")
    act(referee, K.HU, 1)
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    assert combine(*referee.settlements) == {0: -2, 1: 6, 2: -2, 3: -2}
    assert referee.wins[0].score.extra["breakdown"]["call_transfer"] == {"0": -6, "1": 6, "2": 0, "3": 0}


# --- Guizhou, Changsha ----------------------------------------------------------------------------------------


def test_guizhou_hot_shot_voids_the_dou_and_its_maker_pays_on_top():
    """GZ-7 热炮: the dealer's 闷豆 is void and he pays 60 on top of the 平胡's 10; GZ-4: a 平胡 without a 豆 of
    its own wins on a 热炮."""
    referee = stacked(GUIZHOU, {0: "1111m222333444m5p", 1: "234567m789p234p5p"}, replacements="9m")
    act(referee, K.CONCEALED_KONG, 0, "1m")
    act(referee, K.DISCARD, 0, "5p")
    act(referee, K.HU, 1)
    act(referee, K.PASS, 2)
    act(referee, K.PASS, 3)
    assert referee.result is not None and referee.result.payments == {0: -70, 1: 70, 2: 0, 3: 0}


CALM = {  # all three suits, a 2, 5 or 8, no triplets: no opening win anywhere
    0: "123456789m234p55s",
    1: "13579m13579p146s",
    2: "24689m24689p379s",
    3: "13m456p12345789s",
}


def test_changsha_birds_double_the_payments_of_the_seats_they_point_at():
    """CS-5 天胡 (1 大胡 = 6 from each), CS-7: birds 1m → the dealer (the winner) and 2m → his 下家 (seat 1):
    seat 1 pays 6 × 2^2, seats 2 and 3 pay 6 × 2."""
    referee = stacked(CHANGSHA, CALM, draws="1m2m")
    assert combine(*referee.settlements) == {0: 0, 1: 0, 2: 0, 3: 0}  # no opening win
    act(referee, K.HU, 0, "5s")
    assert referee.wins[0].context.extra["birds"] == ["1m", "2m"]
    assert referee.result is not None and referee.result.payments == {0: 48, 1: -24, 2: -12, 3: -12}


def test_changsha_opening_wins_are_paid_at_the_deal():
    """CS-6: seat 1 holds four 1m (四喜) and no 索 (缺一色): 2 kinds × 2 from each other player."""
    hands = {**CALM, 1: "1111m3579m13579p"}
    referee = stacked(CHANGSHA, {**hands, 0: "23456789m234p55s1s", 3: "3m456p123456789s"})
    assert combine(*referee.settlements) == {0: -4, 1: 12, 2: -4, 3: -4}


# --- whole hands ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [SICHUAN, GUIZHOU, CHANGSHA], ids=lambda r: r.id)
def test_simulated_hands_balance_and_respect_the_rules(ruleset):
    """Four bots play whole hands: every action accepted, tiles balanced after each (``simulate`` checks), the
    payments sum to zero, nobody wins twice, and in Sichuan no winner holds his declared void suit."""
    hands = list(simulate(ruleset, 12, seed=5))
    for hand in hands:
        result = hand.referee.result
        assert result is not None and sum(result.payments.values()) == 0
        assert len(set(result.winners)) == len(result.winners) <= 3
        for record in hand.referee.wins:
            void = hand.referee.void_suits.get(record.seat)
            assert void is None or void not in {suit_of(tile) for tile in record.hand.all_tiles()}
    if ruleset is SICHUAN:
        assert any(len(hand.referee.result.winners) > 1 for hand in hands)  # type: ignore[union-attr]


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["sichuan", "guizhou", "changsha"]))
def test_exactly_the_legal_actions_are_accepted_through_whole_hands(seed, name):
    """Bots play a hand; at every step random candidates are accepted exactly when ``legal_actions`` lists them
    (declarations, answers of the seats still in, draws after a win included) and the bot's move is legal."""
    rng = random.Random(seed)
    referee = Referee.deal(get_ruleset(name), seed, dealer=seed % 4)
    bots = [SimpleBot(seat, random.Random(seed + seat)) for seat in range(4)]
    while referee.phase is not Phase.OVER:
        legal = referee.legal_actions()
        for _ in range(3):
            candidate = Action(rng.choice(list(ActionKind)), rng.randrange(4), rng.choice([None, rng.randrange(27)]))
            snapshot = referee.to_dict()
            verdict = referee.apply(candidate)
            assert verdict.ok == (candidate in legal), (candidate, verdict)
            if verdict.ok:
                break
            assert referee.to_dict() == snapshot
        else:
            move = _bot_move(referee, bots)
            assert move in legal, move
            assert referee.apply(move).ok
        referee.check_balance()


def _bot_move(referee: Referee, bots: list[SimpleBot]) -> Action:
    if referee.phase is Phase.DECLARE:
        return bots[referee.undeclared_seats()[0]].declare(referee)
    if referee.phase is Phase.DRAW:
        return Action(ActionKind.DRAW, referee.turn)
    if referee.phase is Phase.ACT:
        return bots[referee.turn].act(referee)
    pending = [seat for seat in referee.answering_seats() if seat not in referee.responses]
    return bots[pending[0]].answer(referee)
