"""What the wall shows, on the display and in the voice (issue 26): the wildcard indicator turned up and the
wildcards it makes (Hubei 赖子, 推倒胡 鬼牌), Harbin's 宝 lying face down (never its face: the display is on the LAN)
and the 宝 replaced before it, face up."""

from __future__ import annotations

from dataclasses import replace

import pytest

import controller.service.service as service_module
from controller.config import Config, VoiceSection
from controller.display.view import TableView
from controller.people.sights import Sight, SightKind
from controller.service.events import Event
from controller.service.hand import HandRecord, HandState
from controller.service.outcome import table_facts
from controller.voice.phrases import tile_phrase
from controller.voice.voice import Voice
from engine.referee import Referee
from engine.rulesets.registry import get_ruleset
from engine.tiles import parse_tiles, tile_code
from tests.controller.display_harness import chromium, played_run
from tests.controller.test_display_browser import _require_chromium
from tests.controller.test_display_table import _open as _open_table
from tests.controller.test_voice import Recorder
from tests.controller.test_witness import witnessed
from tests.controller.test_witness_wall import _shown


@pytest.mark.parametrize("rules", ["hubei-laizi", "wuhan", "tuidaohu"])
def test_the_indicator_turned_up_and_its_wildcards_are_table_facts(rules):
    referee = Referee.deal(get_ruleset(rules), 3, 0)
    facts = table_facts(referee)
    assert facts["wildcard_indicator"] == tile_code(referee.wall.indicators[-1])
    assert facts["wildcards"] == referee.ruleset.format_tiles(sorted(referee.wildcard_faces()))


def test_harbins_bao_is_face_down_and_only_the_replaced_ones_are_shown():
    ruleset = get_ruleset("harbin")
    for seed in range(200):  # a deal whose first 宝 is replaced at once, by the three copies in sight (换宝)
        referee = Referee.deal(ruleset, seed, 0)
        while len(referee.wall.indicators) < 2 and referee.phase.value != "over":
            referee.apply(referee.legal_actions()[0])
        if len(referee.wall.indicators) >= 2:
            break
    else:
        raise AssertionError("no harbin hand of 200 replaced its 宝")
    facts = table_facts(referee)
    replaced = referee.wall.indicators[:-1]
    assert facts == {"bao_hidden": True, "bao_replaced": ruleset.format_tiles(replaced)}  # not the 宝 face down


@pytest.mark.slow  # 8 s: a hand each of two rulesets played, and their pages
def test_the_page_shows_the_indicator_and_the_wildcards_and_the_bao_face_down(tmp_path):
    _require_chromium()
    with chromium() as browser:
        with played_run(tmp_path / "hubei", hands=1, seed=1, rules="hubei-laizi") as played:
            page = _open_table(browser, played.url, (1280, 800))
            page.wait_for_selector("#info .wild img")
            table = played.view.snapshot()["table"]
            shown = page.eval_on_selector_all("#info .wild img", "imgs => imgs.map(i => [i.alt, i.naturalWidth > 0])")
            assert shown == [[table["wildcard_indicator"], True], [table["wildcards"], True]]
            page.close()
        with played_run(tmp_path / "harbin", hands=1, seed=1, rules="harbin") as played:
            page = _open_table(browser, played.url, (1280, 800))
            page.wait_for_selector("#info .bao .back")
            assert "宝" in page.inner_text("#info .bao .back")
            replaced = played.view.snapshot()["table"]["bao_replaced"]
            assert page.locator("#info .bao img").count() == len(parse_tiles(replaced))
            page.close()


def test_the_voice_says_the_wildcards_once_the_indicator_makes_them(tmp_path, monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(service_module, "open_voice", lambda section: Voice(recorder, "zh", depth=10_000, stale_s=1e9))
    config = Config().with_service(
        http="off", rules="hubei-laizi", seed=2, hands=2, speed=1000.0, state_dir=str(tmp_path)
    )
    lines: list[dict] = []
    service_module.serve(replace(config, voice=VoiceSection(enabled=True, language="zh")), lines.append)
    said = [text for text in recorder.heard if text.startswith("赖子 ")]
    assert len(said) == 2  # one per hand, before its first call
    for hand, text in zip(lines, said, strict=False):
        assert text == f"赖子 {tile_phrase(hand['wildcards'], 'zh').text}"


def _waiting_on_page(page, view: TableView, hand: HandState, event: Event, said: str) -> None:
    view.on_event(hand, event, None)
    page.wait_for_function("said => document.getElementById('log').innerText.includes(said)", arg=said)


def _witnessed_hand(rules: str, seed: int, happenings: list) -> HandState:
    """A people's hand whose witness was shown ``happenings`` (a bot hand of ``seed`` as the table model shows it)."""
    full = Referee.deal(get_ruleset(rules), seed, seed % 4)
    witness, _ = witnessed(get_ruleset(rules), full, happenings)
    hand = HandState.start(HandRecord(0, seed, seed % 4, 0, 1, rules, players="people"))
    hand.dice, hand.referee, hand.witness = full.dice, witness.referee, witness  # type: ignore[assignment]
    return hand


@pytest.mark.slow  # 5 s: a Harbin hand played, then its page shown what three other hands wait for
def test_the_page_says_in_chinese_whose_dice_key_throws_again_and_what_a_held_win_waits_for(tmp_path):
    """What the table waits for (``waiting``), in Chinese: the seat whose dice key throws the second throw, a winner
    confirming his hand laid down (Hubei: a wildcard in it), the 宝 to be turned up for a self-drawn win."""
    _require_chromium()
    with chromium() as browser, played_run(tmp_path, hands=1, seed=1, rules="harbin") as played:
        page = _open_table(browser, played.url + "/?lang=zh", (1280, 800))
        throwing = HandState.start(HandRecord(1, 11, 2, 0, 1, "harbin"))
        thrown = Event.dice((3, 4), 1.0)  # 7 from seat 2: seat 0 throws again
        throwing.apply(thrown)
        _waiting_on_page(page, played.view, throwing, thrown, "等待座位 0按骰子键（第二次掷骰）")
        full, happenings = _shown(get_ruleset("hubei-laizi"), 1)
        held = _witnessed_hand("hubei-laizi", 1, happenings)
        assert "to confirm or correct" in (held.witness.waiting or "")  # type: ignore[union-attr]
        _waiting_on_page(page, played.view, held, thrown, f"等待座位 {full.wins[0].seat}确认所摊的牌")
        full, happenings = _shown(get_ruleset("harbin"), 1)
        bao = max(i for i, h in enumerate(happenings) if isinstance(h, Sight) and h.kind is SightKind.WALL)
        unread = _witnessed_hand("harbin", 1, [*happenings[:bao], *happenings[bao + 1 :]])
        _waiting_on_page(page, played.view, unread, thrown, "等待翻开宝牌")
        page.close()
