"""Photos seen off overhead (``vision.tilt``, issue 29: perspective up to 20 degrees): the photo and its labels
warped alike, and the detector on a tilted photo."""

import numpy as np

from tests.paths import PHOTOS, needs_photos
from vision import scenes, verify
from vision.detect import find_in_photo
from vision.scenes import Box
from vision.tilt import tilted


def test_a_label_is_warped_with_its_photo_and_the_far_side_is_smaller():
    photo = np.zeros((400, 600, 3), np.uint8)
    photo[50:110, 100:160] = 255  # near the top
    photo[290:350, 100:160] = 255  # near the bottom
    seen, (top, bottom) = tilted(photo, [Box(100, 50, 160, 110), Box(100, 290, 160, 350)], 20)
    for box in (top, bottom):
        ys, xs = np.nonzero(seen[int(box.y0) - 3 : int(box.y1) + 4, int(box.x0) - 3 : int(box.x1) + 4, 0] > 127)
        white = Box(
            xs.min() + int(box.x0) - 3,
            ys.min() + int(box.y0) - 3,
            xs.max() + int(box.x0) - 2,
            ys.max() + int(box.y0) - 2,
        )
        assert white.iou(box) > 0.9
    assert abs(top.width / bottom.width - 1) > 0.1  # one side further from the camera than the other
    assert tilted(photo, [Box(100, 50, 160, 110)], 0)[1][0].iou(Box(100, 50, 160, 110)) > 0.99


@needs_photos
def test_a_trays_photo_tilted_20_degrees_keeps_its_tiles():
    """A tray of 36 tiles, tilted 20 degrees off overhead, the tile size that of its warped labels (the median: the
    far tiles are smaller): 35 found, 6 false (36 and none overhead)."""
    path = next((PHOTOS / "scenes" / "images").glob("IMG_20231217_172349*.jpg"))
    image, labels = verify.read_photo(path.parent.parent, path.name, 20)
    width, height = scenes.tile_size(labels)
    quads = [tile.quad for tile in find_in_photo(image, width, height).tiles]
    found = scenes.match([verify.box_of(quad) for quad in quads], labels)
    assert found >= 34 and len(quads) - found <= 7
