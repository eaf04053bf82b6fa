"""The service's camera reader when people play (issue 6): frames to sights. First on hand-made zone views (what it
decides), then on the frames of the simulated people's table read by the real recogniser: what the lookout reports
is what the table showed, in order."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from controller.people.camera import laid_row, open_renderer
from controller.people.lookout import Lookout, Unread
from controller.people.sights import Sight, SightKind
from controller.service.inputs import Press
from engine.referee import Phase
from tests.controller.test_peopletable import deal, make_world, told, with_sweeps
from vision.calibrate import Calibration
from vision.capture import Frame
from vision.classify import Prediction, load_model
from vision.geometry import DEFAULT_LAYOUT
from vision.recognize import Seen, ZoneView
from vision.render import Look, Placed, Scene, default_camera, render
from vision.simtable import laid_beside

DISCARD, TAKEN, ROW = SightKind.DISCARD, SightKind.TAKEN, SightKind.ROW


class Scripted:
    """Stands in for the recogniser: each ``read`` answers the next frame's zone views."""

    def __init__(self, frames: list[list[ZoneView]]) -> None:
        self.frames = iter(frames)

    def read(self, image: object) -> list[ZoneView]:
        return next(self.frames)


def view(seat: int, *tiles: tuple[int | None, float], covered: bool = False, zone: str = "discard") -> ZoneView:
    seen = tuple(Seen(seat, zone, Prediction(t, 0.99 if t is not None else 0.1, 0.9), u, 150.0, 0) for t, u in tiles)
    return ZoneView(seat, zone, seen, covered)


CAMERA = default_camera(DEFAULT_LAYOUT)
"""The simulated table's camera (controller.people.camera.open_renderer)."""


@pytest.fixture(scope="module")
def calibration():
    return Calibration(CAMERA.homography, CAMERA.width, CAMERA.height, DEFAULT_LAYOUT)


def lookout_on(calibration, frames: list[list[ZoneView]], **tracker) -> Lookout:
    lookout = Lookout(calibration, load_model(), **tracker)
    lookout.recognizer = Scripted(frames)  # type: ignore[assignment]
    return lookout


def run(lookout: Lookout, count: int) -> tuple[list[Sight], list[Unread]]:
    sights, unread = [], []
    for index in range(count):
        sights += lookout.look(Frame(None, index, index / 10))  # type: ignore[arg-type]
        unread += lookout.unread
    return sights, unread


def test_discards_takes_and_rows_are_sights_and_an_unreadable_tile_is_told_apart(calibration):
    frames = (
        [[view(1, (5, -100.0))]] * 2
        + [[view(1, covered=True)]]
        + [[view(1)]] * 2
        + [[view(2, (None, -30.0))]] * 4
        + [[view(3, (41, 0.0), zone="hand")]] * 2
    )
    lookout = lookout_on(calibration, frames, stable=2, gone=2, patience=3)
    sights, unread = run(lookout, len(frames))
    assert sights == [Sight(DISCARD, 1, (5,)), Sight(TAKEN, 1, (5,)), Sight(ROW, 3, (41,))]
    assert unread == [Unread(DISCARD, 2, 7, (None,))]
    assert lookout.unread_total == 1


def test_a_discard_read_unsure_is_told_in_its_turn_and_before_it_is_taken(calibration):
    """Seat 1's tile always reads as 5 below the threshold: told with a sure tile's debouncing, before seat 2's next
    discard and before a claimant takes it (told after ``patience`` frames, contest111 seed 0's came after the next
    two discards, which the witness refused, and seed 4's was taken first and never told at all)."""
    shaky, next_one = ranked_view(1, -100.0, (5, 0.13), (6, 0.08)), view(2, (7, -100.0))
    frames = [[shaky]] * 4 + [[shaky, next_one]] * 4 + [[view(1, covered=True), next_one]] + [[view(1), next_one]] * 4
    sights, unread = run(lookout_on(calibration, frames), len(frames))
    assert sights == [Sight(DISCARD, 1, (5,)), Sight(DISCARD, 2, (7,)), Sight(TAKEN, 1, (5,))]
    assert sights[0].choices == (((5, 0.13), (6, 0.08)),) and sights[0].unsure() == [0] and unread == []


def test_a_primed_lookout_reports_only_what_lies_beyond_the_rivers(calibration):
    """After a restart: 5 and 7 lay in seat 0's zone and the journal's river is 5 9; 7 was discarded while the
    service was down (its face is not in the river), 9 comes later at a new place; 3 lay in seat 1's river."""
    first = [view(0, (5, -100.0), (7, -66.0)), view(1, (3, -100.0)), view(2, (8, 0.0), zone="hand")]
    later = [view(0, (5, -100.0), (7, -66.0), (9, -32.0)), view(1, (3, -100.0)), view(2, (8, 0.0), zone="hand")]
    lookout = lookout_on(calibration, [first] * 3 + [later] * 3, stable=2)
    lookout.prime([[5, 9], [3], [], []], rows=[[], [], [8], []])
    sights, _ = run(lookout, 6)
    assert sights == [Sight(DISCARD, 0, (7,)), Sight(DISCARD, 0, (9,))]


def test_a_primed_tile_read_unsure_after_the_restart_is_known_by_its_best_reading(calibration):
    """Seat 2's white dragon read below the threshold in the first frames after a restart (basic seed 7 with
    flowers, killed after 50 moves): the journal's river holds it, so it is not told again; a 6 unsure at a new
    place is told."""
    white, later = ranked_view(2, 70.0, (31, 0.48), (13, 0.01)), ranked_view(2, 0.0, (6, 0.3), (7, 0.1))
    frames = [[white]] * 4 + [[ZoneView(2, "discard", white.tiles + later.tiles, False)]] * 4
    lookout = lookout_on(calibration, frames, stable=2)
    lookout.prime([[], [], [31], []])
    sights, unread = run(lookout, len(frames))
    assert sights == [Sight(DISCARD, 2, (6,))] and unread == []


def test_a_primed_tile_taken_after_the_restart_is_reported_taken(calibration):
    frames = [[view(0, (5, -100.0))]] * 2 + [[view(0, covered=True)]] + [[view(0)]] * 2
    lookout = lookout_on(calibration, frames, stable=2, gone=2)
    lookout.prime([[5], [], [], []])
    assert run(lookout, len(frames))[0] == [Sight(TAKEN, 0, (5,))]


def test_the_discard_on_offer_at_the_restart_and_gone_from_the_first_view_is_reported_taken(calibration):
    """Killed while a discard was on offer (riichi seed 2: the hu presser's ron): a claimant took it while the
    service was down. Its face in the first uncovered view means it still lies there."""
    frames = [[view(0, covered=True)], [view(0, (7, -100.0))], [view(0, (7, -100.0))]]
    lookout = lookout_on(calibration, frames, stable=2)
    lookout.prime([[7, 5], [], [], []], offer=(0, 5))
    assert run(lookout, len(frames))[0] == [Sight(TAKEN, 0, (5,))]
    lying = lookout_on(calibration, [[view(0, (7, -100.0), (5, -66.0))]] * 3, stable=2)
    lying.prime([[7, 5], [], [], []], offer=(0, 5))
    assert run(lying, 3)[0] == []


@pytest.mark.parametrize(("runner_up", "taken"), [(0.0001, True), (0.3, False)])
def test_the_offer_is_told_taken_unless_a_tile_left_may_be_it(calibration, runner_up, taken):
    """A 4z left in the zone whose third reading is the offered 6m at 0.0001 (the riichi seed 2 restart with the
    reader of faces drawn from scratch) does not hide the take; an unsure 6p that may well be the 6m (0.3) does."""
    left = Seen(
        0, "discard", Prediction(30, 0.69, 0.9, ((30, 0.69), (9, 0.3 - runner_up), (5, runner_up))), -100.0, 150.0, 0
    )
    frames = [[ZoneView(0, "discard", (left,), False)]] * 3
    lookout = lookout_on(calibration, frames, stable=2)
    lookout.prime([[30, 5], [], [], []], offer=(0, 5))
    assert (Sight(TAKEN, 0, (5,)) in run(lookout, len(frames))[0]) is taken


def test_priming_names_what_it_lacks(calibration):
    lookout = Lookout(calibration, load_model())
    with pytest.raises(ValueError, match=r"prime: expected 4 rivers \(and 0 or 4 rows\), got 2 and 0"):
        lookout.prime([[1], [2]])


# -- on the simulated people's table, read by the real recogniser ---------------------------------------------


def watch(world, lookout: Lookout, until) -> tuple[list[Sight], list[Unread], int]:
    """Frames of ``world`` to ``lookout`` until ``until(table)`` holds after a frame: sights, unread, frames."""
    sights: list[Sight] = []
    unread: list[Unread] = []
    for count, frame in enumerate(world.table.frames(), start=1):
        sights += lookout.look(frame)
        unread += lookout.unread
        if until(world.table):
            return sights, unread, count
    raise AssertionError("unreachable: frames are endless")


def shown_all(table) -> bool:
    return table.referee.phase is Phase.OVER and not table.pending


def camera_lookout(**tracker) -> Lookout:
    return Lookout(Calibration(CAMERA.homography, CAMERA.width, CAMERA.height, DEFAULT_LAYOUT), load_model(), **tracker)


QUICK = {"stable": 1, "gone": 1, "patience": 3}
"""Tracker settings for one frame per change (``still_frames=1``): the table's images repeat exactly."""


@pytest.fixture(scope="module")
def renderer():
    renderer = open_renderer()
    yield renderer
    renderer.close()


def test_the_lookout_reads_the_first_moves_of_a_hand_as_the_table_showed_them(renderer):
    world = make_world("basic", {}, renderer, still_frames=1)
    deal(world, 21)
    sights, unread, _ = watch(world, camera_lookout(**QUICK), lambda t: t.played >= 24 and not t.pending)
    assert sights == world.table.shown
    assert unread == []
    assert sum(s.kind is DISCARD for s in sights) >= 8


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "options", "hand_seed", "still_frames", "tracker"),
    [
        ("basic", {}, 1, 1, QUICK),
        ("basic", {"tile_set": 144}, 1, 1, QUICK),
        ("mcr", {}, 2, 1, QUICK),
        ("basic", {}, 2, 4, {}),  # the service's settings: the tracker's defaults, four frames a change
    ],
)
def test_a_whole_hand_is_read_as_the_table_model_told_it(renderer, rules, options, hand_seed, still_frames, tracker):
    world = make_world(rules, options, renderer, still_frames=still_frames)
    deal(world, hand_seed)
    sights, unread, _ = watch(world, camera_lookout(**tracker), shown_all)
    steps = told(rules, options, hand_seed)
    assert sights == with_sweeps([h for step in steps for h in step if isinstance(h, Sight)])
    assert unread == []
    pressed = []
    while (press := world.inputs.take()) is not None:
        pressed.append(press)
    assert pressed == [h for step in steps for h in step if isinstance(h, Press)]


NOISE = 2.0
"""Sensor noise (sigma, every channel) each frame gets afresh: the people's table repeats one rendered image while
its scene stays the same, a camera's frames differ by their noise."""


def noisy(frames: Iterator[Frame], seed: int) -> Iterator[Frame]:
    cv2.setRNGSeed(seed)
    for frame in frames:
        noise = np.empty(frame.image.shape, np.float32)
        cv2.randn(noise, (0.0,) * 3, (NOISE,) * 3)
        image = np.clip(frame.image + noise, 0, 255).astype(np.uint8)
        yield Frame(image, frame.index, frame.time)


def watch_twice(world, until, **tracker) -> tuple[list[Sight], list[Sight], Lookout]:
    """The noisy frames of ``world`` until ``until(table)``, each to a skipping lookout and to one that reads every
    zone of every frame: the sights of each (nothing unread), and the skipping lookout."""
    skipping, reference = camera_lookout(**tracker), camera_lookout(**tracker, skip_unchanged=False)
    sights: tuple[list[Sight], list[Sight]] = ([], [])
    for frame in noisy(world.table.frames(), 1):
        for lookout, seen in zip((skipping, reference), sights, strict=True):
            seen += lookout.look(frame)
            assert lookout.unread == []
        if until(world.table):
            return *sights, skipping
    raise AssertionError("unreachable: frames are endless")


def test_skipping_unchanged_zones_the_lookout_reports_what_reading_every_zone_does(renderer):
    """The service's settings (the tracker's defaults, four frames a change), noise on every frame."""
    world = make_world("basic", {}, renderer, still_frames=4)
    deal(world, 3)
    sights, reference, lookout = watch_twice(world, lambda t: t.played >= 12 and not t.pending)
    assert sights == reference == world.table.shown
    assert sum(s.kind is DISCARD for s in sights) >= 4
    assert lookout.recognizer.zones_skipped > 2 * lookout.recognizer.zones_read  # type: ignore[union-attr]


@pytest.mark.slow
def test_a_whole_hand_read_skipping_unchanged_zones_is_read_as_reading_every_zone(renderer):
    """The service's settings, flowers and all; the whole hands the tests above read are read skipping too."""
    world = make_world("basic", {"tile_set": 144}, renderer)
    deal(world, 4)
    sights, reference, _ = watch_twice(world, shown_all)
    steps = told("basic", {"tile_set": 144}, 4)
    assert sights == reference == with_sweeps([h for step in steps for h in step if isinstance(h, Sight)])


def rivers(sights: list[Sight]) -> list[list[int]]:
    """The rivers a journal holds after ``sights``: each seat's discards but the ones claimed (a take of the table's
    latest discard; a sweep's takes are of older tiles, and the witness ignores them)."""
    river: list[list[int]] = [[] for _ in range(4)]
    latest: Sight | None = None
    for sight in sights:
        if sight.kind is DISCARD:
            river[sight.seat].append(sight.tiles[0])
            latest = sight
        elif sight.kind is TAKEN and latest is not None and (sight.seat, sight.tiles) == (latest.seat, latest.tiles):
            river[sight.seat].pop()
            latest = None
    return river


def rows(sights: list[Sight]) -> list[list[int]]:
    last = [[] for _ in range(4)]
    for sight in sights:
        if sight.kind is ROW:
            last[sight.seat] = list(sight.tiles)
    return last


@pytest.mark.slow
def test_a_world_and_lookout_killed_mid_hand_resume_reporting_only_what_came_after(renderer, tmp_path):
    state = tmp_path / "people-table.json"
    world = make_world("basic", {"tile_set": 144}, renderer, state, still_frames=1)
    deal(world, 7)
    before, _, _ = watch(world, camera_lookout(**QUICK), lambda t: t.played >= 50 and not t.pending)
    whole = world.table.shown
    del world  # the service and the table stop together

    world = make_world("basic", {"tile_set": 144}, renderer, state, still_frames=1)
    deal(world, 7)
    lookout = camera_lookout(**QUICK)
    lookout.prime(rivers(before), rows(before))
    after, unread, _ = watch(world, lookout, shown_all)
    assert before == whole
    assert sweeps_in_any_order(before + after) == sweeps_in_any_order(world.table.shown)
    assert unread == []


def sweeps_in_any_order(sights: list[Sight]) -> list[Sight]:
    """``sights`` with each sweep's takes (a run of takes from one seat's zone: a claim takes one tile) sorted: the
    tiles of a sweep are gone in one frame, and a restarted tracker knows them in the order it first saw them."""
    out: list[Sight] = []
    run: list[Sight] = []
    for sight in [*sights, Sight(SightKind.QUIET)]:
        if run and (sight.kind is not TAKEN or sight.seat != run[0].seat):
            out += sorted(run, key=lambda taken: taken.tiles)
            run = []
        (run if sight.kind is TAKEN else out).append(sight)
    return out[:-1]


QUANJIAO_10 = (
    Placed(4, 147.4646, 101.3721, -85.4440),
    Placed(32, 147.4090, 68.3756, -86.1684),
    Placed(22, 147.2998, 34.0508, 90.4995),
    Placed(24, 148.1943, -0.9883, -90.4095),
    Placed(8, 145.6163, -35.4367, -95.9466),
    Placed(31, 146.1500, -67.9777, -91.6155),
    Placed(17, 187.9677, 103.0082, 87.8177),
    Placed(16, 189.6114, 33.3531, -92.3434),
    Placed(17, 188.3022, -1.3402, -88.6413),
)
"""Where ``vision.simtable.spot`` put seat 1's discards in quanjiao seed 10 (``mjtable run --rules quanjiao --seed 10
--players people``), its first two rows pushed away: 5m 6z 5s 7s 9m 5z, then 9p, (3m, claimed), 8p, 9p. Laid as drawn,
the last 9p lay 0.35 mm over the 7s before it (the first 9p 0.2 mm over the 5m): the upper tile hid their seam, the
four tiles of 7s 9m 5z / 9p read as one blob that is no tile, the zone as covered by a hand, and the 9p was never
seen (the witness took everyone's pass on the next discard as seat 1 skipping his turn, and his win on seat 2's 3s
as self-drawn)."""


def test_each_discard_laid_against_the_row_before_it_is_seen():
    """The zone of QUANJIAO_10 laid tile by tile as the people's table lays it (``vision.simtable.laid_beside``),
    read by the service's lookout at the people's table's pace (four frames a change)."""
    lookout, rng = camera_lookout(), np.random.default_rng(10)
    zone: list[Placed] = []
    sights: list[Sight] = []
    for turn, placed in enumerate(QUANJIAO_10):
        zone.append(laid_beside(placed, zone))
        image = render(Scene(tuple(zone), (), DEFAULT_LAYOUT, True), CAMERA, Look(), rng)
        for index in range(4 * turn, 4 * turn + 4):
            sights += lookout.look(Frame(image, index, index / 10))
    assert sights == [Sight(DISCARD, 1, (placed.tile,)) for placed in QUANJIAO_10]


@pytest.mark.parametrize(("length", "read"), [(16, True), (17, True), (18, False)])
def test_a_row_is_read_up_to_17_tiles_and_a_longer_one_is_told_unread_not_misread(length, read):
    """controller.people.camera.laid_row: 16 tiles still keep a gap in the hand zone, 17 touch (vision.detect cuts them
    on their seams), 18 reach past the zone's ends: the lookout says it could not read the row."""
    rng = np.random.default_rng(length)
    tiles = tuple(int(tile) for tile in rng.integers(0, 34, length))
    image = render(Scene(laid_row(1, tiles, rng), (), DEFAULT_LAYOUT, True), CAMERA, Look(), rng)
    lookout = camera_lookout(**QUICK)
    sights, unread = [], []
    for index in range(QUICK["patience"]):
        sights += lookout.look(Frame(image, index, index / 10))
        unread += lookout.unread
    assert sights == ([Sight(ROW, 1, tiles)] if read else [])
    assert [(u.kind, u.seat) for u in unread] == ([] if read else [(ROW, 1)])


def ranked_view(seat: int, u: float, *choices: tuple[int, float], zone: str = "discard") -> ZoneView:
    """One tile whose reading has ranked ``choices``: an answer when the first is sure, else unknown."""
    best, p = choices[0]
    prediction = Prediction(best if p >= 0.5 else None, p, 0.9, tuple(choices))
    return ZoneView(seat, zone, (Seen(seat, zone, prediction, u, 150.0, 0),), False)


def test_sights_carry_the_ranked_readings_and_a_tile_read_below_the_threshold_is_an_unsure_sight(calibration):
    frames = (
        [[ranked_view(1, -100.0, (5, 0.9), (6, 0.08))]] * 2
        + [[view(1, covered=True)]]
        + [[view(1)]] * 2
        + [[ranked_view(2, -30.0, (7, 0.3), (8, 0.25), (3, 0.1))]] * 3
        + [[ranked_view(3, -30.0, (9, 0.01), (8, 0.01))]] * 3
    )
    lookout = lookout_on(calibration, frames, stable=2, gone=2, patience=3)
    sights, unread = run(lookout, len(frames))
    assert sights == [Sight(DISCARD, 1, (5,)), Sight(TAKEN, 1, (5,)), Sight(DISCARD, 2, (7,))]
    assert sights[0].choices == (((5, 0.9), (6, 0.08)),) and sights[1].choices == sights[0].choices  # its take too
    assert sights[2].choices == (((7, 0.3), (8, 0.25), (3, 0.1)),) and sights[2].unsure() == [0]
    assert [(u.kind, u.seat) for u in unread] == [(DISCARD, 3)]  # "none of these" by far: not read at all
