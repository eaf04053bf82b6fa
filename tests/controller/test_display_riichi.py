"""Issue 25, the display of a riichi match and of 十万's tiles.

Fast: the view's board (each seat's points less its 立直 stick, the hand's number in its round, learnt from the first
hand or a result line), ``/history``'s entries (the points a hand was dealt with, the round and 本場, the final
standings) and 十万's winning hand written in its own codes.

In headless Chromium (slow: a played run, then the browser), on the last state of a riichi 東風戦 (``--hands 5
--seed 1``, red fives, uma 10-20: its last hand ends the match, seat 0 won it in riichi, a red 5s lies in seat 2's
river): the table view at a 1080p screen, a phone and the overlay show each seat's points and last change, the round
with its 本場, the sticks, the dora indicators as tile images, the 立直 marks and the 立直 discard sideways, the red
five's own face, in one language; a player's phone (``?seat=N``) turns the table to its seat; a screenshot is taken
and the riichi elements are on it (their boxes inside the table, the 立直 mark's and the stick's red on screen);
``/history`` starts its plot at 25,000 and lists the final standings. A 十万 run's tens are drawn with their own
faces (``/tiles/10m.png``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page

from controller.display.tablestate import history_entry, result_view
from controller.display.view import TableView
from controller.display.web import DisplayServer
from controller.service.events import Event
from controller.service.hand import HandRecord, HandState
from tests.controller.display_harness import chromium, free_port, played_run
from tests.controller.test_display_browser import SCREENSHOTS, _require_chromium
from tests.controller.test_display_table import _open as _open_table
from tests.controller.test_display_table import _state, _words_of_one_language

RIICHI = {"length": "tonpuusen", "uma": "10-20", "red_fives": True}
MID_HAND: list[dict] = []
"""The riichi run's first state with a stick on the table during a hand (``riichi`` keeps it)."""
LINE = {
    "hand": 4,
    "match": 0,
    "dealer": 3,
    "round_wind": "E",
    "drawn": False,
    "wins": [],
    "payments": {"0": 5200, "3": -5200},
    "scores": [43700, 22500, 13200, 20600],
    "round": "東4局",
    "honba": 0,
    "final_standings": [{"player": 0, "score": 43700, "result": 38700}],
}


# -- fast -------------------------------------------------------------------------------------------------------


def test_a_history_entry_carries_the_dealt_points_the_round_and_the_final_standings():
    entry = history_entry(LINE, "riichi", [38500, 22500, 13200, 25800])
    assert entry["dealt"] == [38500, 22500, 13200, 25800]
    assert entry["payments"] == [5200, 0, 0, -5200]
    assert (entry["round"], entry["honba"], entry["final_standings"]) == ("東4局", 0, LINE["final_standings"])
    bare = history_entry({**LINE, "round": None} | {"final_standings": None}, "mcr")
    assert "dealt" not in bare  # a match that keeps no points starts its plot at 0
    assert "abortive" not in entry
    aborted = history_entry({**LINE, "drawn": True, "payments": {}, "abortive": "九種九牌"}, "riichi")
    assert aborted["abortive"] == "九種九牌" and aborted["drawn"]


def test_the_view_learns_the_round_from_a_result_line_and_keeps_the_last_change():
    view = TableView()
    view._match_id = 7
    view.on_line(LINE)
    assert view._first_dealers == {7: 0}  # 東4局 dealt by seat 3: seat 0 dealt 東1局
    state = view.snapshot()
    assert state["last_change"] == [5200, 0, 0, -5200] and state["scores"] == LINE["scores"]
    assert view.history()[-1]["final_standings"] == LINE["final_standings"]


def test_before_the_dice_the_board_shows_the_points_dealt_and_the_round_from_the_first_hand():
    view = TableView()
    record = HandRecord(6, 1, 2, 0, 1, "riichi", match_id=3, honba=0, pot=0, scores=(25000,) * 4)
    view.on_event(HandState.start(record), Event.table("hatch_open", 0.0), None)
    state = view.snapshot()
    assert state["board"] == {"points": [25000] * 4, "number": 1, "stake": 1000}  # seat 2 deals 東1局
    assert state["table"] == {"declared_ready": [], "on_table": 0, "honba": 0}
    later = HandRecord(7, 1, 3, 0, 1, "riichi", match_id=3, honba=1, pot=1000, scores=(24000, 25000, 26000, 24000))
    view.on_event(HandState.start(later), Event.table("hatch_open", 0.0), None)
    state = view.snapshot()
    assert state["board"]["number"] == 2 and state["table"] == {"declared_ready": [], "on_table": 1000, "honba": 1}
    restarted = TableView()  # a service restarted in the middle of the match: no number until a result line
    restarted.on_event(HandState.start(later), Event.table("hatch_open", 0.0), None)
    assert restarted.snapshot()["board"]["number"] is None


def test_a_shiwan_winning_hand_is_laid_out_in_its_own_codes():
    line = {"drawn": False, "wins": [{"seat": 1, "hand": "[333p,1][456p,3]67778m000s", "score": {}}], "payments": {}}
    (win,) = result_view(line, "shiwan")["wins"]
    assert win["tiles"] == ["6m", "7m", "7m", "7m", "8m", "0s", "0s"] and win["win_tile"] == "0s"
    assert result_view(line, "no such rules")["wins"][0].get("tiles") is None  # shown as written


# -- in Chromium ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def riichi(tmp_path_factory):
    _require_chromium()
    SCREENSHOTS.mkdir(exist_ok=True)

    def watch(state: dict) -> None:  # the first state with a 立直 stick on the table, in the middle of a hand
        if not MID_HAND and (state.get("table") or {}).get("on_table") and state.get("phase") != "over":
            MID_HAND.append(state)

    with played_run(
        tmp_path_factory.mktemp("riichi"), hands=5, seed=1, watch=watch, rules="riichi", options=RIICHI
    ) as played:
        yield played


@pytest.fixture(scope="module")
def browser(riichi):
    with chromium() as launched:
        yield launched


def _open(browser, url: str, size: tuple[int, int]) -> Page:
    page = _open_table(browser, url, size)
    page.wait_for_selector("#info .rd")
    return page


def _inside(box: dict | None, outer: dict) -> bool:
    return (
        box is not None
        and box["width"] > 2
        and box["height"] > 2
        and outer["x"] - 1 <= box["x"]
        and box["x"] + box["width"] <= outer["x"] + outer["width"] + 1
        and outer["y"] - 1 <= box["y"]
        and box["y"] + box["height"] <= outer["y"] + outer["height"] + 1
    )


def _red_share(shot: np.ndarray, box: dict, origin: dict) -> float:
    """The share of red pixels (red well above green and blue) in ``box`` of a screenshot of the element at
    ``origin``."""
    x, y = int(box["x"] - origin["x"]), int(box["y"] - origin["y"])
    patch = shot[y : y + int(box["height"]), x : x + int(box["width"])].astype(int)
    blue, green, red = patch[..., 0], patch[..., 1], patch[..., 2]
    return float((red - np.maximum(green, blue) > 50).mean())


def _check_board(page: Page, state: dict, lang: str) -> None:
    board, table = state["board"], state["table"]
    for seat in range(4):
        label = page.inner_text(f".lab.s{seat}")
        assert str(board["points"][seat]) in label, (seat, label)
        change = state["last_change"][seat]
        assert (f"{change:+d}" in label) == bool(change), (seat, label)  # a seat that paid nothing shows no change
        assert (page.locator(f".lab.s{seat} .rc").count() == 1) == (seat in table["declared_ready"])
    words = {"zh": "东4局", "en": "East 4"}[lang]
    assert page.inner_text("#info .rd") == words
    assert {"zh": "0本场", "en": "0 honba"}[lang] in page.inner_text("#info .sticks")
    assert page.inner_text("#info .sticks").endswith(f"×{table['on_table'] // board['stake']}")
    dora = page.eval_on_selector_all("#info .dora img", "imgs => imgs.map(i => [i.alt, i.naturalWidth > 0])")
    assert dora and dora == [[code, True] for code in _codes(table["bonus_indicators"])]


def _codes(text: str) -> list[str]:
    codes, digits = [], ""
    for char in text:
        if char.isdigit():
            digits += char
        else:
            codes += [digit + char for digit in digits]
            digits = ""
    return codes


@pytest.mark.slow  # 10 s: a riichi match of 5 hands played, then three pages and their screenshots
@pytest.mark.parametrize(("lang", "size"), [("zh", (1920, 1080)), ("en", (390, 844))], ids=["zh-1080p", "en-phone"])
def test_the_riichi_table_view_shows_the_board_and_its_screenshot_has_it(riichi, browser, lang, size):
    state = _state(riichi.url)
    assert state["board"]["final_standings"], "seed 1's fifth hand ends the 東風戦"
    assert state["table"]["declared_ready"] == [0] and state["seats"][0]["sideways"] == 12
    assert "0s" in state["seats"][2]["discards"], "seat 2 let its red 5s go"
    page = _open(browser, f"{riichi.url}/?lang={lang}", size)
    _check_board(page, state, lang)
    _words_of_one_language(page.inner_text("body"), lang)
    red = page.locator(".zone.s2 img[alt='0s']")
    assert red.count() == 1 and red.get_attribute("src") == "/tiles/0s.png"
    assert red.evaluate("i => i.naturalWidth") == 60
    assert page.locator(".zone.s0 .river img").nth(12).get_attribute("class").split() == ["t", "ri"]
    places = page.locator("#result .standings tr").all_inner_texts()[1:]  # the match is over: its standings
    assert [row.split("\t")[1] for row in places] == [
        f"{'seat' if lang == 'en' else '座位'} {p['player']}" for p in state["board"]["final_standings"]
    ]

    table = page.locator("#table")
    outer = table.bounding_box()
    shot_path = SCREENSHOTS / f"riichi-{lang}-{size[0]}x{size[1]}.png"
    table.screenshot(path=str(shot_path))
    shot = cv2.imread(str(shot_path))
    assert shot is not None and abs(shot.shape[1] - outer["width"]) <= 2, "no screenshot of the table"
    boxes = {
        name: page.locator(selector).first.bounding_box()
        for name, selector in {
            "round": "#info .rd",
            "sticks": "#info .stick",
            "dora": "#info .dora img",
            "riichi": ".lab.s0 .rc",
            "points": ".lab.s3 .pts",
            "change": ".lab.s3 .chg",
            "red five": ".zone.s2 img[alt='0s']",
            "sideways": ".zone.s0 .ri",
        }.items()
    }
    hidden = [name for name, box in boxes.items() if not _inside(box, outer)]
    assert not hidden, f"not on the table's screenshot: {hidden} ({boxes})"
    assert _red_share(shot, boxes["riichi"], outer) > 0.2, "the 立直 mark is not red on the screenshot"
    assert _red_share(shot, boxes["sticks"], outer) > 0.05, "the stick's red dot is not on the screenshot"
    red_five = _red_share(shot, boxes["red five"], outer)
    assert red_five > 0.1, "the red five is not red on the screenshot"
    plain = page.locator(".zone img[alt='5s'], .zone img[alt='5m'], .zone img[alt='5p']").first
    if plain.count():  # a plain five has some red (萬, the middle stick or dot), far less
        assert red_five > 2 * _red_share(shot, plain.bounding_box(), outer)
    page.close()


@pytest.mark.slow
def test_in_the_middle_of_a_hand_the_stick_is_on_the_table_and_off_the_seats_points(riichi, browser):
    (state,) = MID_HAND
    assert state["table"]["declared_ready"] == [0] and state["table"]["on_table"] == 1000
    assert state["board"]["points"] == [state["scores"][0] - 1000, *state["scores"][1:]]
    view = TableView()
    view._update(**{key: value for key, value in state.items() if key != "version"})
    server = DisplayServer(f"127.0.0.1:{free_port()}", view, "", {})
    try:
        page = _open(browser, f"{server.url}/?lang=zh", (1280, 800))
        assert page.inner_text("#info .sticks").endswith("×1")
        assert str(state["board"]["points"][0]) in page.inner_text(".lab.s0")
        assert page.locator(".lab.s0 .rc").count() == 1 and page.locator(".zone.s0 .ri").count() == 1
        table = page.locator("#table")
        table.screenshot(path=str(SCREENSHOTS / "riichi-mid-hand.png"))
        outer = table.bounding_box()
        assert _inside(page.locator("#info .stick").bounding_box(), outer)
        page.close()
    finally:
        server.close()


@pytest.mark.slow
def test_a_players_phone_turns_the_table_to_its_seat(riichi, browser):
    state = _state(riichi.url)
    page = _open(browser, f"{riichi.url}/?seat=2&lang=en", (390, 844))
    for place in range(4):
        seat = (place + 2) % 4
        label = page.inner_text(f".lab.s{place}")
        assert f"seat {seat}" in label and str(state["board"]["points"][seat]) in label, (place, label)
    assert page.locator(".zone.s0 img[alt='0s']").count() == 1  # seat 2's red five, now in front of the bottom
    assert page.locator(".zone.s2 .ri").count() == 1  # seat 0's 立直 discard, now across the table
    page.locator("#table").screenshot(path=str(SCREENSHOTS / "riichi-seat2-phone.png"))
    page.close()
    for wrong in ("4", "-1", "x", "1.5"):  # anything but a seat 0-3 is the table as it stands
        page = _open(browser, f"{riichi.url}/?seat={wrong}&lang=en", (390, 844))
        assert "seat 0" in page.inner_text(".lab.s0")
        page.close()


@pytest.mark.slow
def test_the_overlay_shows_the_board_and_no_panel(riichi, browser):
    state = _state(riichi.url)
    page = _open(browser, f"{riichi.url}/overlay?lang=en", (1080, 1080))
    _check_board(page, state, "en")
    assert page.locator("#panel").count() == 0
    page.locator("#table").screenshot(path=str(SCREENSHOTS / "riichi-overlay.png"))
    page.close()


@pytest.mark.slow
def test_history_plots_from_the_starting_points_and_lists_the_final_standings(riichi, browser):
    hands = riichi.view.history()
    assert hands[0]["dealt"] == [25000] * 4
    standings = hands[-1]["final_standings"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{riichi.url}/history?lang=en")
    page.wait_for_selector("#standings tr td")
    starts = page.eval_on_selector_all("path.score", "ps => ps.map(p => p.getAttribute('d').split(' L')[0])")
    assert len(starts) == 4 and len(set(starts)) == 1, f"the seats start apart: {starts}"
    levels = page.eval_on_selector_all("#plot text", "ts => ts.map(t => t.textContent)")
    assert "25000" in levels and "0" not in levels, levels
    y25000 = page.eval_on_selector_all("#plot text", "ts => ts.find(t => t.textContent === '25000').getAttribute('y')")
    assert abs(float(starts[0].split()[1]) + 4 - float(y25000)) < 0.2  # the paths start at the 25000 level
    rows = page.locator("#standings tr").all_inner_texts()[1:]
    assert len(rows) == 4
    for row, place in zip(rows, standings, strict=True):
        cells = row.split("\t")
        assert cells[1:] == [f"seat {place['player']}", str(place["score"]), f"{place['result']:+d}"], cells
    first = page.locator("#hands tr").last.locator("td").first.inner_text()
    assert first == "East 1 · 0 honba", first
    page.screenshot(path=str(SCREENSHOTS / "riichi-history.png"), full_page=True)
    page.close()


@pytest.mark.slow
def test_shiwan_tens_are_drawn_with_their_own_faces(tmp_path, browser):
    with played_run(tmp_path / "shiwan", hands=1, seed=1, rules="shiwan") as played:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(played.url)
        page.wait_for_function("document.querySelectorAll('.zone img').length > 0")
        page.wait_for_function("[...document.images].every(i => i.complete)")
        tens = page.eval_on_selector_all(
            "img[alt^='0']", "imgs => imgs.map(i => [i.alt, i.getAttribute('src'), i.naturalWidth])"
        )
        assert tens and all(src == f"/tiles/1{alt}.png" and width == 60 for alt, src, width in tens), tens
        assert page.locator(".win .hand img[alt='0s']").count() == 3  # the winner's 000s, laid out
        page.close()
