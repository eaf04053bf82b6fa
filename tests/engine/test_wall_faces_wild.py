"""The wall's faces of the wild.md and 108.md rulesets at a table that sees only backs (issue 26): the wildcard
indicator turned up after the deal (Hubei 赖子, Wuhan, 推倒胡 鬼牌) is read before play starts, the birds (Changsha
扎鸟) and the horses (推倒胡 买马) are read at a win, which waits for them; given those faces as the table turns them
up, an observing referee follows the bots' full-information hands to the same end."""

from __future__ import annotations

import pytest

from engine.actions import Action, ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.simulation import _next_actions, bots_for

K = ActionKind


def show_faces(full: Referee, seen: Referee) -> int:
    """The faces the observing referee waits for, turned up by the table and read where they lie: how many."""
    wanted = seen.faces_wanted()
    for place in wanted:
        state = full.wall.state
        action = Action(K.FACE, state.positions[place].wall_of_seat, state.faces[place], place=place)
        verdict = seen.apply(action)
        assert verdict.ok, verdict.reason
    return len(wanted)


def opening_winners(full: Referee) -> list[int]:
    """The seats whose dealt hand wins at the opening (起手胡, 独抬庄)."""
    hands = [seat.concealed_tiles() for seat in full.seats]
    return [seat for seat, tiles in enumerate(hands) if full.ruleset.opening_win(tiles, seat, full.dealer)]


def show_openings(full: Referee, seen: Referee) -> None:
    """Each seat whose dealt hand pays at the opening lays it down before play (and takes it back)."""
    for seat in opening_winners(full):
        hand = tuple(sorted(full.seats[seat].concealed_tiles()))
        verdict = seen.apply(Action(K.SHOW, seat, revealed=hand))
        assert verdict.ok, verdict.reason


def followed(rules: str, seed: int) -> tuple[Referee, Referee, int]:
    """A bots' hand and the observing referee fed its moves (a win shows the winner's hand), the faces each time
    it waits for them; and how many faces it read."""
    ruleset = get_ruleset(rules)
    full = Referee.deal(ruleset, seed, seed % 4)
    seen = Referee.observe(ruleset, full.dealer, full.dice, full.dice2)  # type: ignore[arg-type]
    read = show_faces(full, seen)
    show_openings(full, seen)
    bots = bots_for(ruleset, seed)
    while full.phase is not Phase.OVER:
        for action in _next_actions(full, bots):
            revealed = tuple(sorted(full.seats[action.seat].concealed_tiles())) if action.kind is K.HU else None
            self_drawn = action.kind is K.HU and full.phase is Phase.ACT  # names the tile the table did not see
            tile = full.last_drawn if self_drawn else action.tile
            assert full.apply(action).ok
            verdict = seen.apply(Action(action.kind, action.seat, tile, revealed, action.marked))
            assert verdict.ok, (action, verdict.reason)
            read += show_faces(full, seen)
    return full, seen, read


OPENINGS = {"hubei-laizi": 49, "wuhan": 49, "tuidaohu": 0, "changsha": 20}
"""A seed whose deal pays at the opening (独抬庄, 起手胡), found by search (tuidaohu has none)."""


@pytest.mark.parametrize("rules", sorted(OPENINGS))
def test_an_observing_referee_given_the_faces_turned_up_ends_each_hand_as_the_full_one(rules):
    faces = 0
    for seed in {*range(6), OPENINGS[rules]}:
        full, seen, read = followed(rules, seed)
        assert seen.result is not None and full.result is not None
        assert seen.result.to_dict() == full.result.to_dict()
        assert [win.score.to_dict() for win in seen.wins] == [win.score.to_dict() for win in full.wins]
        faces += read
    assert faces  # the indicator of every hand, birds or horses at the wins


def test_play_waits_for_the_wildcard_indicator_and_its_face_names_the_wildcard():
    ruleset = get_ruleset("hubei-laizi")
    full = Referee.deal(ruleset, 3, 0)
    seen = Referee.observe(ruleset, 0, full.dice)  # type: ignore[arg-type]
    (place,) = seen.faces_wanted()
    refused = seen.apply(Action(K.DISCARD, 0, full.seats[0].concealed_tiles()[0]))
    assert not refused.ok
    assert f"the wildcard indicator at wall place {place} is to be read before play" in refused.reason
    assert seen.wildcard_faces() == frozenset()
    show_faces(full, seen)
    assert seen.wildcard_faces() == full.wildcard_faces() and seen.faces_wanted() == []


def test_a_changsha_win_waits_for_its_birds_then_pays_with_them():
    for seed in range(40):
        full, seen, _ = followed("changsha", seed)
        if full.wins and full.wins[0].context.extra.get("birds"):
            assert seen.wins[0].context.extra["birds"] == full.wins[0].context.extra["birds"]
            return
    raise AssertionError("no changsha hand of 40 was won with birds")


def test_a_dealt_hand_shown_at_the_opening_is_paid_and_one_that_pays_nothing_is_refused():
    full = Referee.deal(get_ruleset("changsha"), OPENINGS["changsha"], OPENINGS["changsha"] % 4)
    winners = opening_winners(full)
    assert winners and len(winners) < 4
    seen = Referee.observe(full.ruleset, full.dealer, full.dice)  # type: ignore[arg-type]
    loser = next(seat for seat in range(4) if seat not in winners)
    refused = seen.apply(Action(K.SHOW, loser, revealed=tuple(sorted(full.seats[loser].concealed_tiles()))))
    assert not refused.ok and "wins nothing at the opening" in refused.reason
    show_openings(full, seen)
    paid = [sum(payments[seat] for payments in seen.settlements) for seat in range(4)]
    assert paid == [sum(payments[seat] for payments in full.settlements) for seat in range(4)] and any(paid)
    again = seen.apply(Action(K.SHOW, winners[0], revealed=tuple(sorted(full.seats[winners[0]].concealed_tiles()))))
    assert not again.ok and "shown his dealt hand already" in again.reason
