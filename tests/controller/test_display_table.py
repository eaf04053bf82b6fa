"""The table-shaped display in headless Chromium (Debian's chromium, driven by Playwright) at a phone in portrait,
a tablet in landscape and a 1080p screen, on the last state of ``mjtable run --hands 2 --seed 1 --speed 1000``
(a win): each seat's zone on its own side of the table and on screen, no two zones overlapping, the winner's hand
and what each seat paid, one language throughout; the flat mode turns the labels to their seats; ``/history``
plots each seat's score; ``/overlay`` is transparent and shows no tile the players keep hidden; a fault covers
the table with the hint. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import re
import urllib.request
from collections import Counter

import pytest
from playwright.sync_api import Page

from controller.display.view import TableView
from controller.display.web import DisplayServer
from controller.service.events import Event
from tests.controller.display_harness import chromium, free_port, played_run
from tests.controller.test_display_browser import SCREENSHOTS, _require_chromium

SIZES = [(390, 844), (1280, 800), (1920, 1080)]
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\uffef]")
TILE_CODE = re.compile(r"\b[1-9][mpsfz]\b")
LATIN_ALLOWED = {"mjtable"}
"""Latin words a Chinese page may show: the product's name."""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    _require_chromium()
    SCREENSHOTS.mkdir(exist_ok=True)
    with played_run(tmp_path_factory.mktemp("table")) as played:
        yield played


@pytest.fixture(scope="module")
def browser(run):
    with chromium() as launched:
        yield launched


def _state(url: str) -> dict:
    with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
        return json.load(answer)


def _open(browser, url: str, size: tuple[int, int]) -> Page:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(url)
    page.wait_for_function("document.querySelectorAll('.zone img').length > 0")
    page.wait_for_function("[...document.images].every(i => i.complete)")
    return page


def _words_of_one_language(text: str, lang: str) -> None:
    if lang == "en":
        assert not CJK.findall(text), f"CJK on the English page: {sorted(set(CJK.findall(text)))}"
    else:
        latin = set(re.findall(r"[A-Za-z]+", TILE_CODE.sub("", text))) - LATIN_ALLOWED
        assert not latin, f"English words on the Chinese page: {sorted(latin)}"


def _check_zones(page: Page, size: tuple[int, int]) -> None:
    box = page.locator("#table").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    zones = [page.locator(f".zone.s{seat}").bounding_box() for seat in range(4)]
    for seat, zone in enumerate(zones):
        assert zone["x"] >= 0 and zone["y"] >= 0, f"seat {seat}'s zone starts off screen: {zone}"
        assert zone["x"] + zone["width"] <= size[0] + 0.5 and zone["y"] + zone["height"] <= size[1] + 0.5
        dx = zone["x"] + zone["width"] / 2 - middle[0]
        dy = zone["y"] + zone["height"] / 2 - middle[1]
        side = {0: dy > abs(dx), 1: dx > abs(dy), 2: -dy > abs(dx), 3: -dx > abs(dy)}[seat]
        assert side, f"seat {seat}'s zone is not on its side of the table: {dx:.0f}, {dy:.0f}"
    for a in range(4):
        for b in range(a + 1, 4):
            one, two = zones[a], zones[b]
            width = min(one["x"] + one["width"], two["x"] + two["width"]) - max(one["x"], two["x"])
            height = min(one["y"] + one["height"], two["y"] + two["height"]) - max(one["y"], two["y"])
            assert width <= 0.5 or height <= 0.5, f"the zones of seats {a} and {b} overlap"


def _check_win(page: Page, state: dict) -> None:
    (win,) = state["win"]["wins"]
    tiles = sum(len(meld["tiles"]) for meld in win["melds"]) + len(win["tiles"]) + 1
    assert page.locator(".win .hand img, .win .hand .back").count() == tiles
    assert page.get_attribute(".win .wt img", "alt") == win["win_tile"]
    assert page.locator(".win .fans li").count() == len(win["score"]["fans"])
    paid = page.locator(".pay tr").nth(1).locator("td").all_inner_texts()
    assert paid == [("+" if amount > 0 else "") + str(amount) for amount in state["win"]["payments"]]
    totals = page.locator(".pay tr").nth(2).locator("td").all_inner_texts()
    assert totals == [str(score) for score in state["scores"]]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_table_at_each_size_in_each_language(run, browser, size):
    state = _state(run.url)
    assert state["win"] and not state["win"]["drawn"], "seed 1's second hand ends with a win"
    for lang in ("zh", "en"):
        page = _open(browser, f"{run.url}/?lang={lang}", size)
        _check_zones(page, size)
        _check_win(page, state)
        _words_of_one_language(page.inner_text("body"), lang)
        page.screenshot(path=str(SCREENSHOTS / f"table-{size[0]}x{size[1]}-{lang}.png"))
        page.close()


def test_the_language_switch_and_the_flat_mode_turn_the_labels_to_their_seats(run, browser):
    page = _open(browser, f"{run.url}/?lang=zh", (1280, 800))
    page.click("#lang")
    page.wait_for_function("document.documentElement.lang === 'en'")
    _words_of_one_language(page.inner_text("body"), "en")
    page.click("#flat")
    turned = [page.eval_on_selector(f".lab.s{seat}", "e => getComputedStyle(e).transform") for seat in range(4)]
    assert turned[0] == "none" and turned[2].startswith("matrix(-1, ")  # bottom upright, top upside down
    assert turned[1].startswith("matrix(0, -1") and turned[3].startswith("matrix(0, 1")  # right and left sideways
    page.screenshot(path=str(SCREENSHOTS / "table-1280x800-flat-en.png"))
    page.close()


def test_history_plots_each_seats_running_score(run, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{run.url}/history?lang=zh")
    page.wait_for_function("document.querySelectorAll('#plot path').length === 4")
    hands = [line for line in run.lines if "wins" in line]
    for seat in range(4):
        path = page.get_attribute(f"#plot path[data-seat='{seat}']", "d")
        assert len(re.findall(r"[ML]", path)) == len(hands) + 1, path  # from 0 through each hand's total
    assert page.locator("#hands tr").count() == len(hands) + 1
    _words_of_one_language(page.inner_text("body"), "zh")
    page.screenshot(path=str(SCREENSHOTS / "history-1280x800-zh.png"))
    page.close()


def test_the_overlay_is_transparent_and_shows_only_public_tiles(run, browser):
    state = _state(run.url)
    page = _open(browser, f"{run.url}/overlay?lang=en", (1920, 1080))
    for element in ("html", "body", "#table"):
        assert page.eval_on_selector(element, "e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert page.locator("#panel, .win").count() == 0
    public = Counter()
    for seat in state["seats"]:
        public.update(seat["discards"] + seat["flowers"])
        public.update(tile for meld in seat["melds"] if not meld.get("hidden") for tile in meld["tiles"])
    shown = Counter(page.eval_on_selector_all("#table img", "imgs => imgs.map(i => i.alt)"))
    assert shown == public, "the overlay shows a tile that is not on the table face up"
    page.screenshot(path=str(SCREENSHOTS / "overlay-1920x1080-en.png"), omit_background=True)
    page.close()


def test_a_fault_shows_the_hint_in_large_type_over_the_table(run, browser):
    view = TableView()
    view.on_event(run.hand, Event.fault("JAM/STACKER/side2", 0.0), None)
    server = DisplayServer(f"127.0.0.1:{free_port()}", view, "", {})
    try:
        page = _open(browser, f"{server.url}/?lang=zh", (390, 844))
        page.wait_for_selector("#fault:not([hidden])")
        assert view.snapshot()["fault"]["hint_zh"] in page.inner_text("#fault")
        cover, table = page.locator("#fault").bounding_box(), page.locator("#table").bounding_box()
        assert cover == table
        assert float(page.eval_on_selector("#fault", "e => parseFloat(getComputedStyle(e).fontSize)")) >= 20
        page.screenshot(path=str(SCREENSHOTS / "fault-390x844-zh.png"))
        page.close()
    finally:
        server.close()


def test_a_drawn_hand_and_an_unsure_reading_a_seat_corrects_by_a_tap(run, browser):
    """The page drawn from a state the browser is handed (people playing, Sichuan): the drawn hand says what it
    settled, and a tap on the camera's second choice sends the seat's correction with the control token."""
    state = _state(run.url)
    state["win"] = {"drawn": True, "wins": [], "payments": [6, -2, -2, -2], "settled": ["查叫 · 查花猪", "ready hands"]}
    state["unsure"] = [
        {"n": 7, "seat": 2, "sight": "discard", "tiles": ["5p"], "doubtful": False, "confirmed": False,
         "unsure": [{"at": 0, "choices": [["5p", 0.48], ["6p", 0.41], ["3p", 0.05]]}]},
    ]  # fmt: skip
    posted: list[dict] = []
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.route("**/api/state", lambda route: route.fulfill(json=state))
    page.route("**/events", lambda route: route.abort())

    def correct(route):
        posted.append({"body": json.loads(route.request.post_data), "token": route.request.headers["authorization"]})
        route.fulfill(status=202, json={"accepted": "/api/correct"})

    page.route("**/api/correct", correct)
    page.add_init_script("localStorage.setItem('mjtable-token', 'fix')")
    page.goto(f"{run.url}/?lang=zh")
    page.wait_for_selector(".unsure button")
    assert "荒庄 · 查叫 · 查花猪" in page.inner_text("#result")
    assert page.locator(".unsure button").all_inner_texts() == ["48%", "41%", "5%"]
    _words_of_one_language(page.inner_text("body"), "zh")
    with page.expect_response("**/api/correct"):
        page.locator(".unsure button").nth(1).click()
    assert posted == [{"body": {"seat": 2, "tiles": "6p", "sight": 7}, "token": "Bearer fix"}]
    page.screenshot(path=str(SCREENSHOTS / "table-390x844-unsure-zh.png"), full_page=True)
    page.close()
