import numpy as np

from vision.calibrate import from_markers
from vision.geometry import apply
from vision.render import Hand, Placed, Scene, random_look, render


def scene() -> Scene:
    return Scene((Placed(0, 0, 180, 0), Placed(20, 40, 180, 5), Placed(33, 180, 0, -90)), (Hand(-100, -150, 30),))


def test_same_seed_same_frame_and_another_seed_another(camera):
    def frame(seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        return render(scene(), camera, random_look(rng), rng)

    first, again, other = frame(5), frame(5), frame(6)
    assert first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert np.array_equal(first, again)
    assert np.abs(first.astype(int) - other).mean() > 1.0


def test_tiles_are_drawn_where_the_camera_maps_them(camera):
    rng = np.random.default_rng(0)
    frame = render(scene(), camera, random_look(rng), rng)
    (tx, ty), (cx, cy) = np.round(apply(camera.homography, np.array([[0.0, 180.0], [0.0, 0.0]]))).astype(int)
    grey = frame.mean(axis=2)
    tile, console = grey[ty - 12 : ty + 12, tx - 9 : tx + 9], grey[cy - 5 : cy + 5, cx - 5 : cx + 5]
    assert np.median(tile) > np.median(console) + 60  # a light tile body, not the dark console


def test_markers_give_back_the_camera(camera):
    rng = np.random.default_rng(1)
    frame = render(scene(), camera, random_look(rng), rng)
    found = from_markers(frame)
    points = np.array([[-200.0, -200.0], [250.0, 100.0], [0.0, 300.0]])
    assert np.abs(apply(found.homography, points) - apply(camera.homography, points)).max() < 1.5
