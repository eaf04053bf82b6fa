"""The mutation run (firmware/tests/mutate.py): every mutant of the firmware's safety paths, each a small patch built
in a copy of firmware/ in a temporary directory, is caught by the unit tests, the static check of the stm32f405 image
or the hardware suite on its build. About two minutes on two cores, so in the slow run."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from hw_tests.firmware import FIRMWARE_DIR
from tests.paths import REPO


@pytest.mark.slow
def test_every_mutant_of_a_safety_path_is_caught():
    script = FIRMWARE_DIR / "tests" / "mutate.py"
    done = subprocess.run([sys.executable, str(script), "-j", "2"], cwd=REPO, capture_output=True, text=True,
                          timeout=1200)  # fmt: skip
    print(done.stdout)
    summary = re.search(r"(\d+) of (\d+) mutants caught \((\d+) of (\d+) of the review's\)", done.stdout)
    assert summary is not None, done.stdout + done.stderr
    caught, total, review_caught, review = map(int, summary.groups())
    assert total >= 27 and review == 10, summary[0]  # the list only grows
    assert done.returncode == 0 and caught == total and review_caught == review, done.stdout


def test_the_mutants_still_apply_to_the_sources():
    """Each mutant's text is in its file exactly once: an edit of the firmware that moved it is seen at once, not in
    the slow run."""
    sys.path.insert(0, str(FIRMWARE_DIR / "tests"))
    try:
        import mutate
    finally:
        sys.path.pop(0)
    for mutant in mutate.MUTANTS:
        text = (FIRMWARE_DIR / mutant.path).read_text()
        assert text.count(mutant.old) == 1, f"{mutant.name}: {mutant.path}"
    assert len({m.name for m in mutate.MUTANTS}) == len(mutate.MUTANTS)
