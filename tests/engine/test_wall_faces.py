"""The wall's faces at a table that sees only backs (``Referee.faces_up``, ``ActionKind.FACE``): the indicators the
table turns up and the tiles under them at a ready seat's win are read where they lie, checked, and a win that
needs them waits for them (phase ``faces``) and is settled as with full information once they are read."""

from __future__ import annotations

from engine.actions import Action, ActionKind
from engine.referee import Phase, Referee
from engine.tiles import parse_tile
from tests.engine.rulesets.riichi.at_table import riichi
from tests.engine.stacked import stacked

K = ActionKind
DEALER = "123m456m789m11p45s7z"
"""The dealer's fourteen: 7z is discarded declaring ready, the hand waits on 3s-6s."""
JUNK = "2468m1379p2468s6z"


def full_and_seen(**hands: str) -> tuple[Referee, Referee]:
    """A stacked hand (indicator 4s, under it 3s: dora 5s, ura 4s) and the same hand as a table sees it."""
    full = stacked(riichi(), {0: DEALER, 1: JUNK}, draws="6s" + hands.get("draws", ""), indicators="4s", under="3s")
    assert full.dice is not None
    return full, Referee.observe(full.ruleset, dealer=0, dice=full.dice)  # type: ignore[arg-type]


def both(full: Referee, seen: Referee, kind: ActionKind, seat: int, tile: str | None = None) -> tuple[str, ...]:
    """One move on both referees (a win shows the winner's hand to the observing one); the observer's events."""
    known = None if tile is None else parse_tile(tile)
    assert full.apply(Action(kind, seat, known)).ok
    revealed = tuple(full.seats[seat].concealed_tiles()) if kind is K.HU else None
    if kind is K.HU and known is not None:
        revealed = tuple(sorted((*revealed, known)))  # type: ignore[misc]
    verdict = seen.apply(Action(kind, seat, known, revealed))
    assert verdict.ok, verdict.reason
    return verdict.events


def face(referee: Referee, place: int, tile: str, seat: int | None = None) -> tuple[bool, str]:
    wall_of = referee.wall.state.positions[place].wall_of_seat
    verdict = referee.apply(Action(K.FACE, wall_of if seat is None else seat, parse_tile(tile), place=place))
    return verdict.ok, verdict.reason


def ron_after_ready(full: Referee, seen: Referee) -> None:
    """The dealer declares ready with the 7z; seat 1 draws the 6s and discards it; the dealer wins on it."""
    both(full, seen, K.READY, 0, "7z")
    for seat in (1, 2, 3):
        both(full, seen, K.PASS, seat)
    both(full, seen, K.DRAW, 1)
    both(full, seen, K.DISCARD, 1, "6s")
    both(full, seen, K.HU, 0)
    both(full, seen, K.PASS, 2)


def test_the_indicator_is_up_from_the_deal_and_its_face_is_checked_where_it_lies() -> None:
    full, seen = full_and_seen()
    state = seen.wall.state
    top, under = state.stack_from_tail(3)
    assert seen.faces_up() == [top] and seen.faces_wanted() == [top]
    assert full.faces_wanted() == [], "with full information every face is known"
    turned_up = f"wall place {under} is not turned up: the faces up are at places {[top]}"
    assert face(seen, under, "3s") == (False, turned_up)
    other = (state.positions[top].wall_of_seat + 1) % 4
    assert not face(seen, top, "4s", seat=other)[0], "the place is in another seat's wall"
    assert face(seen, top, "4s") == (True, "")
    assert seen.bonus_indicators() == [parse_tile("4s")] and seen.faces_wanted() == []
    assert face(seen, top, "4s")[0], "the same face read again"
    assert "shows the 4s, not the 5s" in face(seen, top, "5s")[1]


def test_a_face_is_never_a_copy_too_many() -> None:
    _, seen = full_and_seen()
    for _ in range(3):
        seen.seats[1].discards.append(parse_tile("9s"))
    seen.seats[2].discards.append(parse_tile("9s"))
    top = seen.faces_up()[0]
    ok, reason = face(seen, top, "9s")
    assert not ok and "5 copies of 9s seen, the set has 4" in reason


def test_a_ready_win_waits_for_the_indicator_and_the_tile_under_it_then_scores_as_with_full_information() -> None:
    full, seen = full_and_seen()
    ron_after_ready(full, seen)
    events = both(full, seen, K.PASS, 3)
    assert full.phase is Phase.OVER
    top, under = seen.wall.state.stack_from_tail(3)
    assert seen.phase is Phase.FACES and events == (f"waiting for the wall's faces at places {[top, under]}",)
    assert seen.faces_up() == [top, under]
    assert not seen.apply(Action(K.DRAW, 1)).ok, "nothing but the faces moves the hand on"
    assert face(seen, under, "3s")[0] and seen.phase is Phase.FACES
    assert face(seen, top, "4s")[0] and seen.phase is Phase.OVER
    assert seen.result == full.result
    (win,) = seen.wins
    assert win.score.total == full.wins[0].score.total


def test_a_win_without_a_ready_declaration_needs_only_the_indicator_read_before() -> None:
    full, seen = full_and_seen()
    assert face(seen, seen.faces_up()[0], "4s")[0]
    both(full, seen, K.DISCARD, 0, "7z")
    for seat in (1, 2, 3):
        both(full, seen, K.PASS, seat)
    both(full, seen, K.DRAW, 1)
    both(full, seen, K.DISCARD, 1, "6s")
    both(full, seen, K.HU, 0)  # 一気通貫, no riichi: no tile under the indicator is read
    both(full, seen, K.PASS, 2)
    assert both(full, seen, K.PASS, 3)[-1] == "seat 0 hu"
    assert seen.phase is Phase.OVER and seen.result == full.result


def test_a_journal_of_the_moves_and_faces_replays_to_the_same_state() -> None:
    full, seen = full_and_seen()
    ron_after_ready(full, seen)
    both(full, seen, K.PASS, 3)
    top, under = seen.wall.state.stack_from_tail(3)
    face(seen, top, "4s")
    face(seen, under, "3s")
    again = Referee.observe(full.ruleset, dealer=0, dice=full.dice)  # type: ignore[arg-type]
    for action in seen.history:
        assert again.apply(Action.from_dict(action.to_dict())).ok
    assert again.to_dict() == seen.to_dict() and again.result == full.result
