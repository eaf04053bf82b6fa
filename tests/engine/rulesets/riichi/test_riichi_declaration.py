"""立直 on the shared referee (``ReadyRule``): the declaration, its refusals, the stick, the locked hand, ippatsu,
double riichi and ura dora."""

from __future__ import annotations

from engine.rulesets.registry import get_ruleset
from tests.engine.rulesets.riichi.at_table import K, act, next_turn, passes, refused, riichi, tsumogiri, yaku
from tests.engine.stacked import stacked

READY = "123m456p789s11z23s9m"
"""The dealer's 14: a riichi with the 9m waits on 1s-4s."""
OTHERS = {1: "479m258p369s1234z", 2: "258m369p147s5566z", 3: "369m147p258s2777z"}


def table(draws: str = "", **facts: object):
    return stacked(riichi(), {0: READY, **OTHERS}, draws=draws, **facts)


def test_a_double_riichi_self_drawn_at_once_is_ippatsu_and_pays_its_stick_back() -> None:
    referee = table(draws="5z7z5z1s")
    assert act(referee, K.READY, 0, "9m") == ("declared ready", "discarded")
    assert referee.declaring is not None and referee.deposits == 0, "the stick waits until the discard stands"
    tsumogiri(referee, 3)
    assert 0 in referee.ready and referee.deposits == 1000 and referee.on_table == 1000
    next_turn(referee)
    act(referee, K.HU, 0)
    found = yaku(referee, 0)
    assert found["double_riichi"] == 2 and found["ippatsu"] == 1 and "riichi" not in found
    score = referee.wins[0].score
    hand = sum(amount for amount in score.extra["breakdown"]["hand"].values() if amount > 0)
    result = referee.result
    assert result is not None and result.pot_change == 0
    assert result.payments[0] == hand, "the winner takes his stick back from the table"


def test_riichi_after_the_first_turn_and_ippatsu_ends_with_a_call() -> None:
    referee = table(draws="5z7z5z9m6z6z")
    act(referee, K.DISCARD, 0, "9m")
    tsumogiri(referee, 3)
    next_turn(referee)  # the dealer draws the 9m back
    act(referee, K.READY, 0, "9m")
    act(referee, K.DRAW, 1)
    act(referee, K.DISCARD, 1, "6z")
    act(referee, K.PASS, 3)
    act(referee, K.PUNG, 2)  # seat 2 holds 66z: the call ends every ippatsu
    act(referee, K.PASS, 0)
    assert referee.ready[0].first_turn is False and not referee.unbroken_since_ready(0)


def test_the_stick_is_not_paid_when_the_declaring_discard_is_won_on() -> None:
    referee = stacked(riichi(), {0: READY, 1: "12345678m999p22z"}, draws="")
    act(referee, K.READY, 0, "9m")
    act(referee, K.HU, 1)
    passes(referee)
    result = referee.result
    assert result is not None and result.winners == (1,)
    assert referee.deposits == 0 and result.pot_change == 0 and 0 not in referee.ready
    assert sum(result.payments.values()) == 0


def test_refusals() -> None:
    referee = table()
    assert "not ready once the 1m is gone" in refused(referee, K.READY, 0, "1m")
    assert "has 500 points" in refused(table(scores=(500, 25000, 25000, 25000)), K.READY, 0, "9m")
    assert "no ready declaration" in refused(stacked(get_ruleset("mcr"), {0: READY}), K.READY, 0, "9m")
    act(referee, K.READY, 0, "9m")
    tsumogiri(referee, 3)
    next_turn(referee)
    assert "declared ready already" in refused(referee, K.READY, 0, referee.ruleset.tile_code(referee.last_drawn))


def test_only_a_closed_hand_with_a_draw_to_come_declares() -> None:
    pung = stacked(riichi(), {0: "123m456p789s1z23s9m5z", 1: "11z479m258p369s34z"})
    act(pung, K.DISCARD, 0, "1z")
    act(pung, K.PUNG, 1)
    passes(pung)
    assert "only a closed hand declares ready" in refused(pung, K.READY, 1, "3z")
    late = table()
    act(late, K.DISCARD, 0, "9m")
    while late.wall.live_remaining > 3:
        tsumogiri(late, 1)
    seat = next_turn(late)
    assert "a ready declaration needs 4" in refused(late, K.READY, seat, late.ruleset.tile_code(late.last_drawn))


def test_the_locked_hand_discards_its_draw_and_claims_nothing() -> None:
    referee = table(draws="5z7z5z6z")
    act(referee, K.READY, 0, "9m")
    tsumogiri(referee, 3)
    next_turn(referee)
    assert "discards the 6z it drew" in refused(referee, K.DISCARD, 0, "1m")
    act(referee, K.DISCARD, 0, "6z")
    act(referee, K.DRAW, 1)
    act(referee, K.DISCARD, 1, "1z")
    assert "claims nothing but a win" in refused(referee, K.PUNG, 0)


def test_a_kan_in_riichi_only_when_the_waits_stay() -> None:
    """1112m waits on 2m and 3m; a kan of the fourth 1m leaves only the 2m: refused. 111m with 34s waiting on 2s-5s:
    the kan of the fourth 1m keeps the waits: allowed, and its replacement comes from the dead wall."""
    changes = stacked(riichi(), {0: "1112m456p789s111z9m", **OTHERS}, draws="5z7z5z1m")
    act(changes, K.READY, 0, "9m")
    tsumogiri(changes, 3)
    next_turn(changes)
    assert "would change its waits" in refused(changes, K.CONCEALED_KONG, 0, "1m")
    keeps = stacked(riichi(), {0: "111m456p789s22z34s9m", **OTHERS}, draws="5z7z5z1m", replacements="6z")
    act(keeps, K.READY, 0, "9m")
    tsumogiri(keeps, 3)
    next_turn(keeps)
    act(keeps, K.CONCEALED_KONG, 0, "1m")
    assert keeps.last_drawn == keeps.ruleset.read_tiles("6z", "t")[0]


def test_ura_dora_count_for_a_riichi_winner_only() -> None:
    """The first indicator 4z makes 1z dora; the tile under it, 1s, makes 2s ura dora (both in the hand)."""
    referee = table(draws="5z7z5z1s", indicators="4z", under="1s")
    act(referee, K.READY, 0, "9m")
    tsumogiri(referee, 3)
    next_turn(referee)
    act(referee, K.HU, 0)
    found = yaku(referee, 0)
    assert found["dora"] == 2 and found["ura_dora"] == 1
