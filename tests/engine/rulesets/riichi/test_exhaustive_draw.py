"""An exhaustive draw (流局) on the shared referee: tenpai payments from the seats the referee finds ready
(``Ruleset.counts_ready_at_draw``), 流し満貫 (``draw_facts``), and what the result tells the match."""

from __future__ import annotations

from engine.tiles import ORPHANS, format_tiles, is_orphan
from tests.engine.rulesets.riichi.at_table import K, act, riichi, to_the_end
from tests.engine.stacked import stacked

JUNK = "2468m1379p2468s6z"
READY_DEALER = "123m456p789s11z23s9m"
"""Ready on 1s-4s once the 9m is gone."""
READY_SOUTH_WEST = "555m999s123p456p7z"


def test_the_ready_seats_share_3000_and_the_ready_dealer_keeps_the_deal() -> None:
    ruleset = riichi(nagashi_mangan=False)
    referee = stacked(ruleset, {0: READY_DEALER, 1: JUNK, 2: READY_SOUTH_WEST, 3: JUNK}, honba=1)
    act(referee, K.DISCARD, 0, "9m")
    to_the_end(referee)
    result = referee.result
    assert result is not None and result.drawn and result.ready == (0, 2)
    assert result.payments == {0: 1500, 1: -1500, 2: 1500, 3: -1500}
    match = ruleset.start_match(0)
    after = match.record_hand(result)
    assert after.deal.dealer == 0 and after.deal.honba == 1


def test_a_dealer_not_ready_passes_the_deal_and_the_honba_grows() -> None:
    ruleset = riichi(nagashi_mangan=False)
    referee = stacked(ruleset, {0: "9m" + JUNK, 1: JUNK, 2: READY_SOUTH_WEST, 3: "135m"})
    act(referee, K.DISCARD, 0, "9m")
    to_the_end(referee)
    result = referee.result
    assert result is not None and 0 not in (result.ready or ())
    after = ruleset.start_match(0).record_hand(result)
    assert after.deal.dealer == 1 and after.deal.honba == 1


def test_a_river_of_terminals_and_honours_none_claimed_is_paid_a_mangan() -> None:
    """Seat 1 draws only terminals and honours and lets each go: 流し満貫, paid as a mangan self-draw."""
    draws = []
    simples = [tile for tile in range(27) if not is_orphan(tile)]
    for index in range(136 - 53 - 14):
        draws.append(ORPHANS[index // 4 % 13] if index % 4 == 0 else simples[index % 21])
    referee = stacked(riichi(), {}, draws=format_tiles(draws))
    first = next(tile for tile in referee.seats[0].concealed_tiles() if not is_orphan(tile))
    act(referee, K.DISCARD, 0, referee.ruleset.tile_code(first))
    to_the_end(referee)
    assert all(map(is_orphan, referee.seats[1].played)) and len(referee.seats[1].played) == 18
    result = referee.result
    assert result is not None and result.payments == {0: -4000, 1: 8000, 2: -2000, 3: -2000}
    off = stacked(riichi(nagashi_mangan=False), {}, draws=format_tiles(draws))
    act(off, K.DISCARD, 0, off.ruleset.tile_code(first))
    to_the_end(off)
    assert off.result is not None and off.result.payments[1] <= 3000, "tenpai payments at most"
