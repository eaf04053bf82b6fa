"""Abortive draws on the shared referee, each per its option: 四風連打, 四家立直, 四開槓, 三家和
(``Ruleset.abortive_draw``) and 九種九牌 (``ActionKind.ABORT``)."""

from __future__ import annotations

from engine.referee import Phase
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, refused, riichi, tsumogiri
from tests.engine.stacked import stacked

JUNK = "2468m1379p2468s6z"


def four_winds(**options: object):
    referee = stacked(riichi(**options), {0: "1z" + JUNK, 1: "1z", 2: "1z", 3: "1z"})
    act(referee, K.DISCARD, 0, "1z")
    for seat in (1, 2, 3):
        next_turn(referee)
        act(referee, K.DISCARD, seat, "1z")
    return referee


def test_four_winds_end_the_hand_once_the_fourth_stands() -> None:
    referee = four_winds()
    assert act(referee, K.DRAW, 0) == ("all passed", "abortive draw (suufon_renda)")
    result = referee.result
    assert result is not None and result.abortive == "suufon_renda" and result.drawn
    assert set(result.payments.values()) == {0}
    played_on = four_winds(suufon_renda=False)
    act(played_on, K.DRAW, 0)
    assert played_on.phase is Phase.ACT


FOUR_READY = {
    0: "123m456p789s11z23s9m",  # waits on 1s-4s once the 9m is gone
    1: "123p456p789p22z45m",  # 3m-6m
    2: "555m111s123p456p7z",  # 7z
    3: "222m888p567s789s6z",  # 6z
}


def four_riichi(**options: object):
    referee = stacked(riichi(**options), FOUR_READY, draws="3z4z5z")
    act(referee, K.READY, 0, "9m")
    for seat, tile in ((1, "3z"), (2, "4z"), (3, "5z")):
        next_turn(referee)
        act(referee, K.READY, seat, tile)
    return referee


def test_four_riichi_end_the_hand_and_leave_the_sticks_on_the_table() -> None:
    referee = four_riichi()
    assert act(referee, K.DRAW, 0)[-1] == "abortive draw (suucha_riichi)"
    result = referee.result
    assert result is not None and result.abortive == "suucha_riichi"
    assert result.payments == dict.fromkeys(range(4), -1000) and result.pot_change == 4000
    played_on = four_riichi(suucha_riichi=False)
    act(played_on, K.DRAW, 0)
    assert played_on.phase is Phase.ACT and len(played_on.ready) == 4


def four_kans(**options: object):
    """The dealer's three concealed kans and seat 1's kan of the dealer's 7z: four kans by two players."""
    hands = {0: "1111m2222m3333m45p", 1: "777z258p369p478s4z"}
    referee = stacked(riichi(**options), hands, replacements="5z5z7z6z")
    for tile in ("1m", "2m", "3m"):
        act(referee, K.CONCEALED_KONG, 0, tile)
    act(referee, K.DISCARD, 0, "7z")
    act(referee, K.KONG, 1)
    passes(referee)
    act(referee, K.DISCARD, 1, "6z")
    return referee


def test_four_kans_by_two_players_end_the_hand_once_the_next_discard_stands() -> None:
    referee = four_kans()
    assert referee.phase is Phase.CLAIMS, "a win on that discard would still count"
    passes(referee)
    assert referee.result is not None and referee.result.abortive == "suukaikan"
    played_on = four_kans(suukaikan=False)
    passes(played_on)
    assert played_on.phase is Phase.DRAW


def test_nine_kinds_on_the_first_uninterrupted_draw() -> None:
    nine = "19m19p19s12345z234m"  # eleven kinds of terminals and honours
    referee = stacked(riichi(), {0: nine})
    assert act(referee, K.ABORT, 0) == ("abortive draw (kyuushu_kyuuhai)",)
    assert referee.result is not None and referee.result.abortive == "kyuushu_kyuuhai"
    assert "no abortive draw" in refused(stacked(riichi(), {0: "19m19p19s12z234567m"}), K.ABORT, 0)  # eight kinds
    assert "no abortive draw" in refused(stacked(riichi(kyuushu_kyuuhai=False), {0: nine}), K.ABORT, 0)
    late = stacked(riichi(), {0: nine})
    act(late, K.DISCARD, 0, "2m")
    tsumogiri(late, 3)
    next_turn(late)
    assert "no abortive draw" in refused(late, K.ABORT, 0), "the dealer's second draw"


def test_nine_kinds_not_after_a_call() -> None:
    hands = {0: "5z" + JUNK, 2: "55z" + "147m258p369s11s", 3: "19m19p19s1234z556m"}
    referee = stacked(riichi(), hands)
    act(referee, K.DISCARD, 0, "5z")
    act(referee, K.PUNG, 2)
    passes(referee)
    act(referee, K.DISCARD, 2, "1s")
    next_turn(referee)
    assert referee.turn == 3 and "no abortive draw" in refused(referee, K.ABORT, 3)


THREE_WAITING = {0: "5z" + JUNK, 1: "123m456m789m111p5z", 2: "123m456m789m222p5z", 3: "123m456m789m333p5z"}


def test_three_wins_on_one_discard_are_an_abortive_draw_under_double_ron() -> None:
    referee = stacked(riichi(multiple_ron="double"), THREE_WAITING)
    act(referee, K.DISCARD, 0, "5z")
    for seat in (1, 2, 3):
        act(referee, K.HU, seat)
    assert referee.result is not None and referee.result.abortive == "sanchahou" and not referee.wins


def test_two_wins_on_one_discard_under_double_ron_the_honba_and_sticks_to_the_first() -> None:
    """上家取り: seat 2, the first after the discarder, takes the honba and the sticks on the table; seat 3's own
    score says so too (its breakdown and its payments hold his hand alone), though he declared first."""
    referee = stacked(riichi(multiple_ron="double"), THREE_WAITING, honba=2, pot=1000)
    act(referee, K.DISCARD, 0, "5z")
    act(referee, K.HU, 3)
    act(referee, K.HU, 2)
    act(referee, K.PASS, 1)
    result = referee.result
    assert result is not None and result.winners == (2, 3)
    wins = {record.seat: record.score for record in referee.wins}
    hands = {seat: score.extra["breakdown"]["hand"][str(seat)] for seat, score in wins.items()}
    assert result.payments[2] == hands[2] + 600 + 1000 and result.payments[3] == hands[3]
    first, second = wins[2].extra["breakdown"], wins[3].extra["breakdown"]
    assert first["honba"]["2"] == 600 and first["riichi_sticks"]["2"] == 1000
    assert second["honba"]["3"] == second["riichi_sticks"]["3"] == 0
    assert wins[3].payments is not None and wins[3].payments[3] == hands[3]


def test_only_the_first_after_the_discarder_wins_under_head_bump() -> None:
    referee = stacked(riichi(), THREE_WAITING)
    act(referee, K.DISCARD, 0, "5z")
    for seat in (3, 2, 1):
        act(referee, K.HU, seat)
    assert referee.result is not None and referee.result.winners == (1,)
