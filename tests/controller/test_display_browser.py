"""The live display in headless Chromium (Debian's chromium, driven by Playwright) against a running
``mjtable run``: the page follows the table over server-sent events, agrees with ``GET /api/state``, switches
between Chinese and English, and a phone-sized screenshot is saved."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.paths import REPO

SCREENSHOTS = REPO / "tests" / "artifacts"

CHROMIUM = "/usr/bin/chromium"
# As root and with no network: no sandbox, and none of Chromium's own background connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_display(url: str, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, "mjtable run stopped before its display came up"
        try:
            with urllib.request.urlopen(url + "/api/state", timeout=2) as answer:
                if json.load(answer).get("hand") is not None:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"no hand on {url} within {seconds} s")


def _require_chromium() -> None:
    """CI installs Debian's chromium (``.ci/run``) and must run this test; a developer machine without it
    (the README's two commands need only Python and pip) is told how to get it."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")


@pytest.mark.slow  # 23 s: a whole run at speed 20 watched live (test_display_table checks the page's content fast)
def test_live_page_follows_the_table_in_both_languages(tmp_path):
    _require_chromium()
    SCREENSHOTS.mkdir(exist_ok=True)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "controller.cli", "run", "--hands", "3", "--seed", "1", "--speed", "20"]
    command += ["--state", str(tmp_path / "state"), "--http", f"127.0.0.1:{port}", "--json"]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_display(url, process)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(url)
            page.wait_for_function("document.getElementById('info').textContent.includes('局')")
            seen = {page.text_content("#log")}
            deadline = time.monotonic() + 30
            while len(seen) < 3 and time.monotonic() < deadline:  # the page changes without being reloaded
                page.wait_for_timeout(200)
                seen.add(page.text_content("#log"))
            assert len(seen) >= 3, f"the page did not follow the table: {seen}"

            with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
                state = json.load(answer)
            # The page shows the hand the API reports (it may be a moment behind, never ahead).
            page.wait_for_function(f"document.getElementById('info').textContent.includes('第 {state['hand'] + 1} 局')")

            page.wait_for_selector("#log li")  # the latest verdicts, listed from the state's log
            assert page.locator("#log li").count() <= 7  # six verdicts and what the table waits for
            page.wait_for_function("[...document.querySelectorAll('.zone img')].some(i => i.naturalWidth)")
            # An image still loading is not complete; one that failed is complete with no width.
            broken = page.eval_on_selector_all(
                ".zone img", "imgs => imgs.filter(i => i.complete && !i.naturalWidth).map(i => i.src)"
            )
            assert broken == [], f"tile images did not load: {broken}"
            page.screenshot(path=str(SCREENSHOTS / "display-zh.png"), full_page=True)  # Chinese: needs a CJK font
            page.click("#lang")
            assert page.text_content("#lang") == "Chinese"
            page.wait_for_function("document.getElementById('info').textContent.includes('hand')")
            assert "Dealer" in page.text_content("#centre")
            shot = SCREENSHOTS / "display.png"
            page.screenshot(path=str(shot), full_page=True)
            browser.close()
        assert shot.stat().st_size > 5_000
    finally:
        process.terminate()
        process.wait(timeout=30)
