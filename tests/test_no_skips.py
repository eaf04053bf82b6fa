"""CI allows no skip (``MJTABLE_NO_SKIPS``, ``tests/conftest.py``): a skipped test, or a module skipped when it is
collected, fails there with its reason; elsewhere it stays a skip, and an expected failure stays one everywhere."""

import os
import subprocess
import sys

import pytest

from tests.paths import REPO

PROBE = """
import pytest

def test_skipped():
    pytest.skip("no frobnicator here")

@pytest.mark.xfail(reason="known")
def test_expected_to_fail():
    assert False
"""


@pytest.mark.parametrize("no_skips", ["1", ""])
def test_a_skip_fails_only_where_no_skip_is_allowed(tmp_path, no_skips):
    (tmp_path / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "test_module_skipped.py").write_text('import pytest\npytest.importorskip("no_such_module")\n')
    env = {**os.environ, "PYTHONPATH": str(REPO), "MJTABLE_NO_SKIPS": no_skips}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-rA",
            "--continue-on-collection-errors",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    summary = run.stdout.splitlines()[-1]
    if no_skips:
        assert run.returncode == 1, run.stdout
        assert "1 failed" in summary and "1 xfailed" in summary and "1 error" in summary, summary
        assert "MJTABLE_NO_SKIPS=1 allows no skip: Skipped: no frobnicator here" in run.stdout
    else:
        assert run.returncode == 0, run.stdout
        assert "2 skipped" in summary and "1 xfailed" in summary, summary
