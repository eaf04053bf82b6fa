"""Weight and first paint of the display's table page against the page it replaced, in one run.

    python bench/bench_display_page.py [--loads N] [--size 1280x800]

Both pages show the same state: the last state of ``mjtable run --hands 2 --seed 1 --speed 1000`` (a win), served
by the display server (``tests/controller/display_harness.py``). The reference is the single-document page of
commit ``REFERENCE`` (``controller/display/page.py``, read with ``git show``), handed to the browser from memory
at ``/reference`` as the new page's HTML is at ``/``; scripts, styles, tiles and the state come from the server.
Weight: bytes of HTML + JS + CSS (and gzipped). Each load is a fresh browser context (a cold cache), the two
pages alternating; the figures are the medians over the loads of first paint, first contentful paint
(``performance.getEntriesByType('paint')``) and the time until the first tile of the state is drawn.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, sync_playwright

from controller.display.web import PAGES, STATIC, page
from tests.controller.display_harness import played_run
from tests.controller.test_display_browser import CHROMIUM, CHROMIUM_ARGS

REPO = Path(__file__).resolve().parents[1]
REFERENCE = "056e2653f03990aa93a5ade4ad56f7082747f0b2"
"""The last commit with the single-document page (``controller.display.page.PAGE``)."""
NEW_FILES = ("mj.js", "unsure.js", "table.js")
"""The new page's scripts, besides its HTML (its style sheet is written into it)."""
DRAWN = {"new": "document.querySelector('.zone img')", "reference": "document.querySelector('#seats img')"}
PAINTS = "() => Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]))"


def reference_page() -> str:
    source = subprocess.run(
        ["git", "show", f"{REFERENCE}:controller/display/page.py"], cwd=REPO, capture_output=True, text=True
    )
    if source.returncode:
        raise SystemExit(f"git show {REFERENCE}: {source.stderr.strip()}: the bench needs the repository's history")
    scope: dict[str, str] = {}
    exec(compile(source.stdout, "page.py@reference", "exec"), scope)
    return scope["PAGE"]


def load(browser: Browser, url: str, html: str, which: str, size: tuple[int, int]) -> dict[str, float]:
    """One cold load: the page's paint entries and when its first tile was drawn (ms from navigation start)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    path = "/" if which == "new" else "/reference"
    context.route(url + path, lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"))
    page = context.new_page()
    page.goto(url + path)
    page.wait_for_function(DRAWN[which], polling="raf")
    drawn = page.evaluate("performance.now()")
    paints = page.evaluate(PAINTS)
    context.close()
    return {"first-paint": paints["first-paint"], "first-contentful-paint": paints["first-contentful-paint"],
            "tiles drawn": drawn}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=15)
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    size = tuple(int(part) for part in args.size.split("x"))
    pages = {"new": page(PAGES["/"]).decode(), "reference": reference_page()}
    weight = {
        "new": pages["new"].encode() + b"".join((STATIC / name).read_bytes() for name in NEW_FILES),
        "reference": pages["reference"].encode(),
    }
    for which, body in weight.items():
        print(f"{which:9} HTML+JS+CSS {len(body):6} bytes, gzipped {len(gzip.compress(body, 9)):5}")
    ratio = len(weight["new"]) / len(weight["reference"])
    zipped = len(gzip.compress(weight["new"], 9)) / len(gzip.compress(weight["reference"], 9))
    print(f"weight ratio new/reference {ratio:.2f} (gzipped {zipped:.2f})")
    times: dict[str, list[dict[str, float]]] = {"new": [], "reference": []}
    with tempfile.TemporaryDirectory() as state, played_run(Path(state)) as run, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(args.loads):
            for which in ("reference", "new"):
                times[which].append(load(browser, run.url, pages[which], which, size))
        browser.close()
    print(f"{args.loads} cold loads each at {args.size}, medians (ms from navigation start):")
    for measure in ("first-paint", "first-contentful-paint", "tiles drawn"):
        new = statistics.median(t[measure] for t in times["new"])
        old = statistics.median(t[measure] for t in times["reference"])
        print(f"  {measure:23} new {new:6.1f}  reference {old:6.1f}  ratio {new / old:.2f}")


if __name__ == "__main__":
    main()
