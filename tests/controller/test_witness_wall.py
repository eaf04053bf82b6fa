"""The wall's faces at a camera table, per ruleset (issue 26): the wildcard indicator is shown to the dealer to
confirm or correct until the first discard, play waits for it to be read, and a win its face contradicts is refused
then; a bird or a horse read unsure is corrected by its seat. Bot hands shown by the table model, fed to the witness
with the faces misread or read late, end as the bots' did once the seats have said what the faces are."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from controller.people.sights import Sight, SightKind
from controller.people.witness import Ruling, Witness
from controller.service.inputs import Button, Press
from engine.actions import ActionKind
from engine.referee import Phase, Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import NUM_TILE_IDS, Tile, tile_code
from tests.controller.test_witness import QUIET, agree, bot_hand, played_both_ways, witnessed

INDICATED = [("hubei-laizi", 1), ("wuhan", 1), ("tuidaohu", 1)]
"""A seed each whose hand is won self-drawn with wildcards in the winning hand."""


def _shown(ruleset, seed: int) -> tuple[Referee, list]:
    full, steps = bot_hand(ruleset, seed)
    return full, [happening for _, shown in steps for happening in shown]


def _indicator(happenings: list) -> int:
    return next(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.WALL)


def _first_discard(happenings: list, after: int) -> int:
    return next(
        i for i, h in enumerate(happenings) if i > after and isinstance(h, Sight) and h.kind is SightKind.DISCARD
    )


def _other_face(full: Referee, true: Tile) -> Tile:
    """A face of the set other than ``true`` whose wildcards are none of the winner's tiles, as the camera might
    misread the indicator (the nearest such face)."""
    copies, rule = full.ruleset.tile_set.copies, full.ruleset.wildcards
    assert rule is not None
    win = full.wins[0].hand
    held = {*win.standing, win.win_tile}
    faces = sorted((face for face in range(len(copies)) if copies[face] and face != true), key=lambda f: abs(f - true))
    return next(face for face in faces if not rule.wildcards(face) & held)


def _finish(witness, happenings: list, rulings: list) -> list:
    for happening in happenings:
        rulings += witness.seen(happening) if isinstance(happening, Sight) else witness.pressed(happening)
    for _ in range(4):
        if witness.waiting is not None:
            rulings += witness.seen(QUIET)
    return rulings


@pytest.mark.parametrize(("rules", "seed"), INDICATED)
def test_a_misread_indicator_is_shown_to_the_dealer_and_his_correction_before_the_first_discard_mends_the_hand(
    rules, seed
):
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    at = _indicator(happenings)
    true = happenings[at].tiles[0]
    wrong = _other_face(full, true)
    misread = replace(happenings[at], tiles=(wrong,), choices=(((wrong, 0.97), (true, 0.02)),))
    first = _first_discard(happenings, at)
    witness, rulings = witnessed(ruleset, full, [*happenings[:at], misread, *happenings[at + 1 : first]])
    [shown] = [reading for reading in witness.unsure if reading["sight"] == "wall"]
    assert shown["seat"] == full.dealer and shown["tiles"] == [tile_code(wrong)], "sure, and still shown"
    assert witness.referee.wildcard_faces() != full.wildcard_faces()
    rulings += witness.seen(Sight(SightKind.CORRECT, full.dealer, (true,), about=shown["n"]))
    assert witness.referee.wildcard_faces() == full.wildcard_faces()
    agree(full, witness.referee, _finish(witness, happenings[first:], rulings))


@pytest.mark.parametrize(("rules", "seed"), INDICATED)
def test_a_right_indicator_is_confirmed_by_the_dealers_press_and_no_longer_shown_after_the_first_discard(rules, seed):
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    at = _indicator(happenings)
    first = _first_discard(happenings, at)
    witness, rulings = witnessed(ruleset, full, happenings[:first])
    assert [reading["seat"] for reading in witness.unsure if reading["sight"] == "wall"] == [full.dealer]
    rulings += witness.pressed(Press(Button.CLAIM, full.dealer))  # one short press: the reading shown is right
    assert not [reading for reading in witness.unsure if reading["sight"] == "wall"]
    agree(full, witness.referee, _finish(witness, happenings[first:], rulings))
    unconfirmed, _ = witnessed(ruleset, full, happenings[: first + 1])
    assert not [reading for reading in unconfirmed.unsure if reading["sight"] == "wall"], "shown until the discard"


@pytest.mark.parametrize(("rules", "seed"), INDICATED)
def test_play_seen_before_the_indicator_is_read_waits_for_it_and_a_win_its_face_contradicts_is_refused(rules, seed):
    """The camera reads the indicator only after the whole hand was played: every move waits (the display says
    for what) and is taken once it is read. Read as another face (sure: no other reading), the winner's
    wildcards are not wild and his win is refused then."""
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    at = _indicator(happenings)
    late = [*happenings[:at], *happenings[at + 1 :]]
    witness, rulings = witnessed(ruleset, full, late)
    assert "wildcard indicator" in (witness.waiting or "") and not witness.quiet_settles
    assert not any(ruling.action for ruling in rulings), "nothing is played before the indicator is read"
    agree(full, witness.referee, _finish(witness, [happenings[at]], rulings))

    wrong = _other_face(full, happenings[at].tiles[0])
    misread = replace(happenings[at], tiles=(wrong,), choices=())
    witness, rulings = witnessed(ruleset, full, late)
    rulings = _finish(witness, [misread], rulings)
    wins = [ruling for ruling in rulings if ruling.action is not None and ruling.action.kind is ActionKind.HU]
    assert wins and all(win.conflict for win in wins)
    assert not witness.referee.wins


BIRDS_AND_HORSES = [("changsha", 2), ("tuidaohu", 0)]
"""A seed each whose win is paid on its birds (扎鸟) or horses (买马)."""


@pytest.mark.parametrize(("rules", "seed"), BIRDS_AND_HORSES)
def test_a_bird_or_horse_misread_as_a_face_all_in_sight_is_read_as_its_next_choice(rules, seed):
    """No claim depends on a bird's or a horse's face (they only say who pays more); a misread one heals as a
    discard does: read as a fifth copy, it is read as the camera's next reading."""
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    walls = [i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.WALL]
    at = walls[-1]  # the last face read at the win: a bird, or the last seat's horse
    true, copies = happenings[at].tiles[0], ruleset.tile_set.copies
    wrong = next(face for face in range(len(copies)) if copies[face] and full._visible_count(face) >= copies[face])
    happenings[at] = replace(happenings[at], tiles=(wrong,), choices=(((wrong, 0.6), (true, 0.3)),))
    witness, rulings = _win_paid(*witnessed(ruleset, full, happenings))
    told = f"wall {tile_code(wrong)} taken as {tile_code(true)}"
    assert any(told in event for ruling in rulings for event in ruling.verdict.events)
    agree(full, witness.referee, rulings + witness.seen(QUIET))


@pytest.mark.parametrize(("rules", "seed"), BIRDS_AND_HORSES)
def test_the_faces_a_win_waits_for_are_shown_to_their_seats_and_a_misread_one_is_corrected_before_it_is_paid(
    rules, seed
):
    """A bird or horse misread, sure, as a face that conflicts with nothing: the win is not paid on it at once but
    at the quiet window, its faces shown to their seats meanwhile; the seat's correction pays it right."""
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    walls = [i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.WALL]
    at = walls[-1]
    true, seat = happenings[at].tiles[0], happenings[at].seat
    wrong = next(face for face in _faces_near(ruleset, true) if full._visible_count(face) < 3)
    happenings[at] = replace(happenings[at], tiles=(wrong,), choices=(((wrong, 0.95), (true, 0.03)),))
    witness, rulings = _win_paid(*witnessed(ruleset, full, happenings))
    assert witness.referee.result is None and witness.quiet_settles
    shown = [reading for reading in witness.unsure if reading["sight"] == "wall" and reading["seat"] == seat]
    assert shown and shown[-1]["tiles"] == [tile_code(wrong)]
    rulings += witness.seen(Sight(SightKind.CORRECT, seat, (true,), about=shown[-1]["n"]))
    agree(full, witness.referee, rulings + witness.seen(QUIET))


def _win_paid(witness: Witness, rulings: list[Ruling]) -> tuple[Witness, list[Ruling]]:
    """Where wins are confirmed (推倒胡's 鬼牌: a misread tile of the hand still wins), the quiet window after the
    hand laid down pays the win; its faces are then awaited (birds and horses are turned up after the win)."""
    if witness.confirms_wins:
        assert witness.referee.phase is not Phase.FACES and "to confirm or correct the hand" in (witness.waiting or "")
        rulings = rulings + witness.seen(QUIET)
    assert witness.referee.phase is Phase.FACES
    return witness, rulings


def _faces_near(ruleset, true: Tile) -> list[Tile]:
    copies = ruleset.tile_set.copies
    return sorted((face for face in range(len(copies)) if copies[face] and face != true), key=lambda f: abs(f - true))


HARBIN = get_ruleset("harbin")
"""Harbin's 宝 lies face down (the last wall tile): turned up when three copies are in sight (换宝: the next tail tile
becomes the 宝) and by a self-drawn winner; the table follows it so."""


@pytest.mark.parametrize(
    ("seed", "changes"),
    # a 摸宝 win after one 换宝; a 自摸 with none; a drawn hand after one; a 自摸 after two
    [(1, 1), (3, 0), (4, 1), (11, 2)],
)
def test_harbins_bao_turned_up_at_each_change_and_at_a_self_drawn_win_keeps_the_table_in_step(seed, changes):
    full, seen, rulings = played_both_ways(HARBIN, seed, seed % 2 == 1)
    agree(full, seen, rulings)
    assert len(seen.wall.indicators) == len(full.wall.indicators) == 1 + changes
    assert seen.wall.live_remaining == full.wall.live_remaining
    assert all(win.context.discarder is None for win in full.wins), "self-drawn: no 包付 to see"


def test_a_mobao_win_waits_for_the_bao_turned_up_and_is_refused_when_its_face_contradicts_it():
    """Seed 1: seat 1 draws the 宝 and wins on it (摸宝). The win waits for the 宝 turned up; read, sure, as another
    face, the tile he drew is no 宝 and his hand no win: the win is refused, as a wrong claim is."""
    full, happenings = _shown(HARBIN, 1)
    at = max(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.WALL)
    bao, laid = happenings[at], happenings[-1]
    assert laid.kind is SightKind.ROW and laid.tiles[laid.tiles.index(bao.tiles[0])] == full.wins[0].hand.win_tile
    witness, rulings = witnessed(HARBIN, full, [*happenings[:at], laid])
    assert not witness.referee.wins and "the 宝 at wall place" in (witness.waiting or "")
    agree(full, witness.referee, _finish(witness, [bao], rulings))
    wrong = next(face for face in _faces_near(HARBIN, bao.tiles[0]) if full._visible_count(face) < 3)
    witness, rulings = witnessed(HARBIN, full, [*happenings[:at], laid])
    rulings = _finish(witness, [replace(bao, tiles=(wrong,), choices=())], rulings)
    wins = [ruling for ruling in rulings if ruling.action is not None and ruling.action.kind is ActionKind.HU]
    assert wins and all(win.conflict for win in wins)
    assert not witness.referee.wins


def test_harbins_discarder_lays_his_hand_down_and_is_paid_for_as_he_was_ready_or_not():
    """Seed 0: seat 2, not ready, deals in (出冲) and pays for all (包付): the win waits for his hand, laid down
    after the winner's, and is paid on it as the bots' was."""
    full, steps = bot_hand(HARBIN, 0)
    happenings = [happening for _, shown in steps for happening in shown]
    *before, last = happenings
    assert isinstance(last, Sight) and last.kind is SightKind.ROW and last.seat == 2, "the discarder's hand last"
    witness, rulings = witnessed(HARBIN, full, before)
    assert witness.referee.hands_wanted() == [2] and "seat 2's hand" in (witness.waiting or "")
    assert not witness.quiet_settles, "only his hand settles it"
    rulings += witness.seen(last)
    assert witness.referee.result is None and witness.quiet_settles, "his hand is shown to him, paid at the quiet"
    agree(full, witness.referee, rulings + witness.seen(QUIET))
    assert full.wins[0].context.extra["ready"]["2"] is False
    assert witness.referee.wins[0].context.extra["ready"]["2"] is False


def test_harbins_discarders_hand_misread_as_ready_or_not_is_paid_as_he_corrects_it():
    """A tile of the discarder's hand misread, sure, so that he is taken as ready when he was not (or the other way),
    conflicts with nothing: his hand is shown to him and the win paid at the quiet window, as he corrected it."""
    full, steps = bot_hand(HARBIN, 0)
    happenings = [happening for _, shown in steps for happening in shown]
    at = len(happenings) - 1
    misread = _misread_unseen(HARBIN, full, happenings, at, won_last=False, paid_otherwise=True)
    uncorrected = _held_and_corrected(HARBIN, full, happenings, at, misread)
    assert uncorrected.referee.wins[0].context.extra["ready"]["2"] is True


def _misreads(ruleset, full: Referee, laid: Sight, won_last: bool, sure: float = 0.95) -> Iterator[Sight]:
    """``laid`` (a hand laid down, left of its seat's melds) with one of the hand's tiles misread, ``sure`` as the
    camera is of it, as a face that keeps the hand sorted (the winning tile laid last, when ``won_last``, as any),
    nearest faces first."""
    state = full.seats[laid.seat]
    size = len(laid.tiles) - sum(len(meld.tiles) for meld in state.melds) - len(state.flowers)
    ordered = size - 1 if won_last else size
    for position in reversed(range(size)):
        low = laid.tiles[position - 1] if 0 < position < ordered else 0
        high = laid.tiles[position + 1] if position < ordered - 1 else NUM_TILE_IDS
        for wrong in _faces_near(ruleset, laid.tiles[position]):
            if low <= wrong <= high:
                ranked = [((tile, 1.0),) for tile in laid.tiles]
                ranked[position] = ((wrong, sure), (laid.tiles[position], 0.03))
                tiles = (*laid.tiles[:position], wrong, *laid.tiles[position + 1 :])
                yield replace(laid, tiles=tiles, choices=tuple(ranked))


def _misread_unseen(ruleset, full: Referee, happenings: list, at: int, won_last: bool, paid_otherwise: bool) -> Sight:
    """The first misread of the hand laid down at ``at`` under which the hand is paid with no conflict: as a win
    at all (``paid_otherwise`` False) or otherwise than the bots' (True)."""
    for misread in _misreads(ruleset, full, happenings[at], won_last):
        witness, rulings = witnessed(ruleset, full, [*happenings[:at], misread, *happenings[at + 1 :]])
        paid = _finish(witness, [], rulings)  # the win's quiet window, then its faces' (推倒胡's horses)
        result = witness.referee.result
        if witness.referee.wins and not any(ruling.conflict for ruling in paid):
            assert full.result is not None and result is not None
            if not paid_otherwise or result.to_dict() != full.result.to_dict():
                return misread
    raise AssertionError("no misread of a tile of the hand laid down is paid so")


def _held_and_corrected(ruleset, full: Referee, happenings: list, at: int, misread: Sight) -> Witness:
    """The hand laid down at ``at`` read as ``misread``: the win is held, the hand shown to its seat, whose
    correction before the quiet window pays it as the bots' was; the witness left uncorrected is returned."""
    laid, seat = happenings[at], misread.seat
    seen = [*happenings[:at], misread, *happenings[at + 1 :]]
    witness, rulings = witnessed(ruleset, full, seen)
    assert witness.referee.result is None and witness.quiet_settles
    (shown,) = [reading for reading in witness.unsure if reading["seat"] == seat]
    codes = [tile_code(tile) for tile in misread.tiles]
    assert shown["sight"] == "row" and shown["tiles"] == codes != [tile_code(tile) for tile in laid.tiles]
    corrected = rulings + witness.seen(Sight(SightKind.CORRECT, seat, laid.tiles, about=shown["n"]))
    assert witness.referee.result is None, "a correction is no quiet window: the win waits for it"
    agree(full, witness.referee, _finish(witness, [], corrected))
    witness, rulings = witnessed(ruleset, full, seen)
    _finish(witness, [], rulings)
    return witness


@pytest.mark.parametrize(("rules", "seed"), INDICATED)
def test_a_win_a_misread_tile_still_makes_is_shown_to_its_winner_and_paid_as_he_corrects_it(rules, seed):
    """With wildcards in the hand, a tile of the winning hand misread, sure, as another face still makes a win: the
    win is held, the hand shown to its winner (the display's ``unsure``), and paid at the quiet window, as he
    corrected it; left uncorrected it is paid as read, on another hand than the one laid down."""
    ruleset = get_ruleset(rules)
    full, happenings = _shown(ruleset, seed)
    at = max(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.ROW)
    misread = _misread_unseen(ruleset, full, happenings, at, won_last=True, paid_otherwise=False)
    witness = Witness(Referee.observe(ruleset, full.dealer, full.dice, full.dice2))  # type: ignore[arg-type]
    assert witness.confirms_wins
    assert f"seat {misread.seat} to confirm" in (witnessed(ruleset, full, happenings[: at + 1])[0].waiting or "")
    uncorrected = _held_and_corrected(ruleset, full, happenings, at, misread)
    assert uncorrected.referee.wins and uncorrected.referee.wins[0].hand != full.wins[0].hand


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_a_win_on_a_hand_the_camera_was_unsure_of_is_held_for_its_winner_and_paid_as_he_corrects_it(seed):
    """Without wildcards too, a tile of the winning hand read unsure as another face that still makes a win conflicts
    with nothing (``bench/bench_healing.py``'s hand 54 at 3% misreads: two 6s read 6p at 0.09 each, 66p a pair as
    good as 66s): the win is held, the hand shown to its winner, and paid at the quiet window, as he corrected it.
    The same misread read sure is paid at once: the table does not ask about what the camera is sure of."""
    ruleset = get_ruleset("basic")
    full, happenings = _shown(ruleset, seed)
    at = max(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.ROW)
    misread = next(
        misread
        for misread in _misreads(ruleset, full, happenings[at], won_last=True, sure=0.4)
        if _paid_as_read(ruleset, full, [*happenings[:at], misread, *happenings[at + 1 :]])
    )
    seen = [*happenings[:at], misread, *happenings[at + 1 :]]
    witness, rulings = witnessed(ruleset, full, seen)
    assert witness.referee.result is None and "to confirm or correct the hand" in (witness.waiting or "")
    (shown,) = [reading for reading in witness.unsure if reading["seat"] == misread.seat]
    assert shown["tiles"] == [tile_code(tile) for tile in misread.tiles]
    rulings += witness.seen(Sight(SightKind.CORRECT, misread.seat, happenings[at].tiles, about=shown["n"]))
    agree(full, witness.referee, _finish(witness, [], rulings))
    uncorrected, rulings = witnessed(ruleset, full, seen)
    _finish(uncorrected, [], rulings)
    assert uncorrected.referee.wins[0].hand != full.wins[0].hand
    sure = replace(misread, choices=tuple(((tile, 0.95),) for tile in misread.tiles))
    witness, _ = witnessed(ruleset, full, [*happenings[:at], sure, *happenings[at + 1 :]])
    assert witness.referee.wins and witness.referee.wins[0].hand == uncorrected.referee.wins[0].hand


def _paid_as_read(ruleset, full: Referee, seen: list) -> bool:
    """Whether ``seen`` ends in a win on another hand than the bots', nothing read otherwise than the camera did."""
    witness, rulings = witnessed(ruleset, full, seen)
    rulings = _finish(witness, [], rulings)
    won = witness.referee.wins and witness.referee.wins[0].hand != full.wins[0].hand
    return bool(won) and not any(" taken as " in " ".join(ruling.verdict.events) for ruling in rulings)
