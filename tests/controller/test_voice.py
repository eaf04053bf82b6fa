"""The table's voice (issue 19): what it says for a hand, in Mandarin, Cantonese and English, rendered by espeak-ng
and measured with sox (long enough, not silent); a speaker that hangs never slows the service's event path; a
missing audio device or espeak-ng is named once in the log and the table plays on."""

from __future__ import annotations

import logging
import os
import re
import shutil
import statistics
import subprocess
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

import controller.service.service as service_module
from controller.config import Config, VoiceSection
from controller.errors import ConfigError
from controller.service.events import EventKind
from controller.voice.calls import Call, Caller
from controller.voice.phrases import CALLS, VOICES, call_phrase, points_phrase, tile_phrase
from controller.voice.speaker import EspeakSpeaker, SpeakerError
from controller.voice.voice import DEPTH, Voice, open_voice, phrase_of
from engine.actions import Verdict
from engine.notation import MeldKind
from tests.paths import REPO

ARTIFACTS = REPO / "tests" / "artifacts" / "voice"
TILES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)] + [f"{rank}z" for rank in range(1, 8)]

# A scripted hand as the service reports it: two discards said by name, the claims as the referee grants them, a
# kong from the hand, a win on a discard, one drawn from the wall, and the result line of a drawn hand.
SCRIPT = [
    Call("discard", 1, "3m"),
    Call("pung", 2),
    Call("discard", 2, "7z"),
    Call("chi", 3),
    Call("kong", 0),
    Call("hu", 1),
    Call("points", 1, amount=8000),
    Call("self_drawn", 2),
    *Caller.of_line({"hand": 0, "drawn": True, "wins": [], "scores": [0, 0, 0, 0]}),
]


def _require(*programs: str) -> None:
    """CI installs espeak-ng and sox (``.ci/run``) and must run these tests; elsewhere they are skipped."""
    missing = [program for program in programs if shutil.which(program) is None]
    if not missing:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{', '.join(missing)} missing: .ci/run installs them")
    pytest.skip(f"{', '.join(missing)} missing: apt-get install espeak-ng sox")


def _stat(path: Path) -> dict[str, float]:
    """``sox FILE -n stat``: its figures (written on stderr) by name."""
    answer = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True)
    figures = {}
    for line in answer.stderr.splitlines():
        name, sep, value = line.partition(":")
        if sep and re.fullmatch(r"\s*-?[\d.]+(e-?\d+)?\s*", value):
            figures[re.sub(r"\s+", " ", name.strip())] = float(value)
    return figures


class Recorder:
    """A speaker that hears every phrase at once."""

    def __init__(self) -> None:
        self.heard: list[str] = []

    def say(self, phrase) -> None:
        self.heard.append(phrase.text)

    def close(self) -> None:
        pass


class Hung:
    """A speaker that never finishes a phrase until released (a stuck audio device)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()

    def say(self, phrase) -> None:
        self.started.set()
        self.release.wait()

    def close(self) -> None:
        self.release.set()


# -- what is said -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(VOICES))
def test_every_call_and_tile_has_words_and_mandarin_is_spoken_in_pinyin(language):
    for phrase in [call_phrase(what, language) for what in CALLS] + [tile_phrase(code, language) for code in TILES]:
        assert phrase.text and phrase.spoken and phrase.voice == VOICES[language]
        if language == "zh":  # Debian's small Mandarin dictionary misreads characters: it is given tone-numbered pinyin
            assert re.fullmatch(r"([a-z]+[1-5] ?)+", phrase.spoken), phrase
    names = {code: tile_phrase(code, language).text for code in ("3m", "1p", "9s", "1z", "7z")}
    assert (
        names
        == {
            "zh": {"3m": "三万", "1p": "一筒", "9s": "九条", "1z": "东风", "7z": "红中"},
            "yue": {"3m": "三萬", "1p": "一筒", "9s": "九索", "1z": "東風", "7z": "紅中"},
            "en": {
                "3m": "three characters",
                "1p": "one dot",
                "9s": "nine bamboo",
                "1z": "east wind",
                "7z": "red dragon",
            },
            "ja": {"3m": "三萬", "1p": "一筒", "9s": "九索", "1z": "東", "7z": "中"},
        }[language]
    )
    if language == "ja":  # Debian's Japanese dictionary has no kanji: it is given kana
        assert all(re.fullmatch(r"[\u3040-\u30ff]+", call_phrase(what, "ja").spoken) for what in CALLS)
        assert [tile_phrase(code, "ja").spoken for code in ("3m", "2p", "3z", "5z")] == [
            "さんまん",
            "りゃんぴん",
            "しゃー",
            "はく",
        ]


@pytest.mark.parametrize(
    ("amount", "zh", "pinyin", "yue", "ja"),
    [
        (8000, "八千分", "ba1 qian1 fen1", "八千分", "はっせんてん"),
        (12000, "一万两千分", "yi1 wan4 liang3 qian1 fen1", "一萬兩千分", "いちまんにせんてん"),
        (2600, "两千六百分", "liang3 qian1 liu4 bai3 fen1", "兩千六百分", "にせんろっぴゃくてん"),
        (3900, "三千九百分", "san1 qian1 jiu3 bai3 fen1", "三千九百分", "さんぜんきゅうひゃくてん"),
        (10050, "一万零五十分", "yi1 wan4 ling2 wu3 shi2 fen1", "一萬零五十分", "いちまんごじゅうてん"),
        (1300, "一千三百分", "yi1 qian1 san1 bai3 fen1", "一千三百分", "せんさんびゃくてん"),
        (16, "十六分", "shi2 liu4 fen1", "十六分", "じゅうろくてん"),
        (110, "一百一十分", "yi1 bai3 yi1 shi2 fen1", "一百一十分", "ひゃくじゅうてん"),
    ],
)
def test_a_wins_points_are_spelled_out_for_every_voice(amount, zh, pinyin, yue, ja):
    """espeak-ng reads digits in English under the other voices and has no kanji in Japanese: the amount is spelled."""
    assert (points_phrase(amount, "zh").text, points_phrase(amount, "zh").spoken) == (zh, pinyin)
    assert points_phrase(amount, "yue").spoken == yue
    assert (points_phrase(amount, "ja").text, points_phrase(amount, "ja").spoken) == (f"{amount}点", ja)
    assert points_phrase(amount, "en").text == f"{amount} points"
    with pytest.raises(ValueError, match="0-99999999"):
        points_phrase(10**8, "ja")


def test_the_voice_says_each_granted_claim_each_win_and_a_drawn_hand_of_a_real_run(tmp_path, monkeypatch, caplog):
    """Two hands on the simulated table (seed 5: the first drawn, the second won on a discard): each claim the
    referee granted (its verdict says "seat N pung") is said once, with the discards' names and 流局 / 胡, and the
    win's points after it."""
    recorder = Recorder()
    voices: list[Voice] = []

    def recording_voice(section):
        voices.append(Voice(recorder, section.language, discards=section.discards, depth=10_000, stale_s=1e9))
        return voices[-1]

    monkeypatch.setattr(service_module, "open_voice", recording_voice)
    config = Config().with_service(http="off", speed=5000.0, hands=2, seed=5, state_dir=str(tmp_path / "state"))
    config = replace(config, voice=VoiceSection(enabled=True, language="zh", discards=True))
    lines: list[dict] = []
    with caplog.at_level(logging.INFO, logger="controller.service.service"):
        service_module.serve(config, lines.append)
    assert [line.get("drawn") for line in lines[:2]] == [True, False]
    granted = re.findall(r"[(;] ?seat \d (chi|pung|kong)\b", "\n".join(r.getMessage() for r in caplog.records))
    words = {"chi": "吃", "pung": "碰", "kong": "杠"}
    claims = [word for word in recorder.heard if word in words.values()]
    hand_kongs = sum(r.getMessage().count("_kong ") for r in caplog.records if ": ok" in r.getMessage())
    assert sorted(claims) == sorted([words[kind] for kind in granted] + ["杠"] * hand_kongs)
    assert recorder.heard.count("流局") == 1 and recorder.heard.count("胡") == 1
    assert recorder.heard.index("流局") < recorder.heard.index("胡")  # hand 0 drawn, then hand 1 won
    gain = max(lines[1]["scores"])  # hand 0 paid nothing: the scores after hand 1 are its payments
    assert gain > 0 and recorder.heard[recorder.heard.index("胡") + 1] == points_phrase(gain, "zh").text
    discards = sum(" discard " in r.getMessage() and ": ok" in r.getMessage() for r in caplog.records)
    assert len(recorder.heard) == len(claims) + 3 + discards
    assert voices[0]._closed  # closed with the table


def test_on_a_resumed_hand_a_claim_granted_before_the_restart_is_not_said_again():
    caller = Caller()
    seats = [SimpleNamespace(melds=[SimpleNamespace(kind=MeldKind.PUNG)]) for _ in range(4)]
    referee = SimpleNamespace(claims_made=3, wins=[], turn=2, seats=seats, wildcard_faces=frozenset)
    hand = SimpleNamespace(referee=referee, record=SimpleNamespace(number=7))
    event = SimpleNamespace(kind=None, data={})
    assert caller.of_event(hand, event, None) == []  # the replayed hand's three claims are history
    referee.claims_made = 4
    assert caller.of_event(hand, event, None) == [Call("pung", 2)]
    assert caller.of_line({"hand": 7, "drawn": True, "voided": True, "wins": []}) == []  # a void is no 流局


# -- audio files, measured ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(VOICES))
def test_the_scripted_hand_becomes_audio_that_is_long_enough_and_not_silent(language, tmp_path):
    _require("espeak-ng", "sox")
    speaker = EspeakSpeaker(80, cache=tmp_path)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report = []
    for number, call in enumerate(SCRIPT):
        phrase = phrase_of(call, language)
        wav = speaker.render(phrase)
        figures = _stat(wav)
        length, rms = figures["Length (seconds)"], figures["RMS amplitude"]
        report.append(f"{phrase.text}: {length:.2f} s, RMS {rms:.3f}, peak {figures['Maximum amplitude']:.3f}")
        assert length > 0.2, report[-1]
        assert rms > 0.02, report[-1]  # silence is ~0
        assert figures["Maximum amplitude"] < 1.0, report[-1]  # volume 80 does not clip
        shutil.copy(wav, ARTIFACTS / f"{language}-{number}-{call.what}.wav")
    assert speaker.render(phrase_of(SCRIPT[0], language)) == speaker.render(phrase_of(SCRIPT[0], language))  # cached
    (ARTIFACTS / f"{language}.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    speaker.close()
    assert tmp_path.exists()  # a cache the caller gave is the caller's


def test_a_louder_volume_is_louder_volume_0_is_silent_and_100_does_not_clip(tmp_path):
    _require("espeak-ng", "sox")
    phrase = call_phrase("pung", "en")
    rms = [_stat(EspeakSpeaker(volume, cache=tmp_path).render(phrase))["RMS amplitude"] for volume in (0, 40, 100)]
    assert rms[0] < 0.001 < rms[1] < rms[2]
    loudest = tile_phrase("2p", "zh")  # the phrase with the highest peak of all, in every language
    assert _stat(EspeakSpeaker(100, cache=tmp_path).render(loudest))["Maximum amplitude"] < 0.99


# -- never in the way of the table ------------------------------------------------------------------------------


def test_a_hung_speaker_does_not_slow_the_event_path_and_the_queue_stays_bounded():
    hung = Hung()
    voice = Voice(hung, "zh", discards=True)
    seats = [SimpleNamespace(melds=[SimpleNamespace(kind=MeldKind.PUNG)]) for _ in range(4)]
    referee = SimpleNamespace(claims_made=0, wins=[], turn=1, seats=seats, wildcard_faces=frozenset)
    hand = SimpleNamespace(referee=referee, record=SimpleNamespace(number=0))
    event = SimpleNamespace(kind=None, data={})
    voice.on_event(hand, event, None)  # the hand is seen: its counts are known
    voice.on_line({"hand": 0, "drawn": True, "wins": []})
    assert hung.started.wait(5), "the speaker was never asked to speak"
    took = []
    for _ in range(2000):
        referee.claims_made += 1  # a claim granted on every event: every call queues a phrase
        begin = time.perf_counter()
        voice.on_event(hand, event, None)
        voice.on_line({"hand": 0, "drawn": True, "wins": []})
        took.append(time.perf_counter() - begin)
    # Bounded, where waiting for the speaker would be forever; generous for a loaded CI machine.
    median, slowest = statistics.median(took), max(took)
    assert median < 0.001 and slowest < 0.5, f"median {median * 1e6:.0f} µs, slowest {slowest * 1000:.1f} ms"
    assert len(voice._waiting) == DEPTH and voice.dropped == 4000 - DEPTH
    voice.close(drain_s=0)  # cuts the hung phrase off
    assert not voice._thread.is_alive()


def test_stale_phrases_are_dropped_not_said_late():
    now = [0.0]
    hung = Hung()
    voice = Voice(hung, "en", stale_s=3.0, clock=lambda: now[0])
    voice.on_line({"hand": 0, "drawn": True, "wins": []})  # being said (hung)
    assert hung.started.wait(5)
    voice.on_line({"hand": 1, "drawn": True, "wins": []})  # waits...
    now[0] = 10.0  # ...too long
    hung.release.set()
    _idle(voice)
    voice.close()
    assert [phrase.text for phrase in voice.said] == ["drawn game"] and voice.dropped == 1


def _idle(voice: Voice) -> None:
    deadline = time.monotonic() + 5
    while (voice._waiting or voice._speaking) and time.monotonic() < deadline:
        time.sleep(0.01)


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_a_missing_audio_device_is_named_once_and_speaking_again_once(tmp_path, caplog):
    """A fake espeak-ng (writes the file) and a fake aplay that fails as ALSA's does without a card, until the
    device is plugged in (a flag file)."""
    espeak = _script(tmp_path / "espeak-ng", 'while [ "$1" != -w ]; do shift; done; echo RIFF > "$2"\n')
    plugged = tmp_path / "plugged"
    aplay = _script(
        tmp_path / "aplay",
        f"[ -e {plugged} ] && exit 0\n"
        'echo "aplay: main:831: audio open error: No such file or directory" >&2\nexit 1\n',
    )
    programs = {"espeak-ng": espeak, "aplay": aplay}
    speaker = EspeakSpeaker(80, cache=tmp_path, which=programs.get)
    assert speaker.output == "aplay"
    voice = Voice(speaker, "yue")
    with caplog.at_level(logging.INFO, logger="controller.voice.voice"):
        for _ in range(3):  # three failures in a row, one at a time
            voice.on_line({"wins": [], "drawn": True})
            _idle(voice)
        plugged.touch()
        voice.on_line({"wins": [], "drawn": True})
        voice.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "voice: aplay failed (exit 1): aplay: main:831: audio open error: No such file or directory; "
        "the table plays on silent"
    ]
    assert "voice: speaking again" in caplog.text
    assert [phrase.text for phrase in voice.said] == ["流局"]


def test_without_a_player_espeak_ng_speaks_to_the_device_and_its_failure_is_seen(tmp_path):
    """espeak-ng straight to a missing device exits 0 and only prints an error: the speaker reads that."""
    _require("espeak-ng")
    speaker = EspeakSpeaker(80, cache=tmp_path, which=lambda name: shutil.which(name) if name == "espeak-ng" else None)
    assert speaker.output == "espeak-ng's own audio output"
    if Path("/dev/snd").exists() and any(Path("/dev/snd").iterdir()):
        pytest.skip("this machine has a sound card: espeak-ng would really speak")
    with pytest.raises(SpeakerError, match="espeak-ng could not open the audio output"):
        speaker.say(call_phrase("hu", "en"))
    speaker.close()


def test_a_missing_espeak_ng_is_one_warning_and_no_voice(caplog, monkeypatch):
    with pytest.raises(SpeakerError, match="espeak-ng is not installed"):
        EspeakSpeaker(80, which=lambda name: None)
    monkeypatch.setattr(shutil, "which", lambda name, *args, **kwargs: None)
    with caplog.at_level(logging.WARNING):
        assert open_voice(VoiceSection(enabled=True)) is None
    assert [r.getMessage() for r in caplog.records] == [
        "voice: espeak-ng is not installed (apt install espeak-ng): the table stays silent"
    ]
    assert open_voice(VoiceSection()) is None  # off by default


# -- configuration ----------------------------------------------------------------------------------------------


def test_the_voice_is_off_by_default_and_reads_its_section():
    assert Config().voice == VoiceSection(enabled=False, language="zh", volume=80, discards=False)
    data = {"voice": {"enabled": True, "language": "yue", "volume": 100, "discards": True}}
    assert Config.from_dict(data).voice == VoiceSection(True, "yue", 100, True)


@pytest.mark.parametrize(
    ("section", "error"),
    [
        (
            {"language": "fr"},
            "voice.language: expected zh (Mandarin), yue (Cantonese), en (English) or ja (Japanese), got 'fr'",
        ),
        ({"volume": 101}, "voice.volume: expected 0-100, got 101"),
        ({"volume": -5}, "voice.volume: expected 0-100, got -5"),
        ({"volume": 50.5}, "voice.volume: expected int, got 50.5"),
        ({"enabled": "yes"}, "voice.enabled: expected bool, got 'yes'"),
        ({"discards": 1}, "voice.discards: expected bool, got 1"),
        ({"loud": True}, "voice.loud: unknown key; known: discards, enabled, language, volume"),
    ],
)
def test_a_bad_voice_value_is_one_line_naming_the_key(section, error):
    with pytest.raises(ConfigError) as raised:
        Config.from_dict({"voice": section})
    assert str(raised.value) == error and "\n" not in error


def test_a_ready_declaration_is_said_riichi_then_its_discard():
    caller = Caller()
    referee = SimpleNamespace(claims_made=0, wins=[], turn=1, seats=[], wildcard_faces=frozenset)
    hand = SimpleNamespace(referee=referee, record=SimpleNamespace(number=0))
    ready = SimpleNamespace(kind=EventKind.ACTION, data={"action": {"kind": "ready", "seat": 1, "tile": "3m"}})
    assert caller.of_event(hand, ready, Verdict(True)) == [Call("riichi", 1), Call("discard", 1, "3m")]
    assert caller.of_event(hand, ready, Verdict(False, "furiten")) == []
    assert phrase_of(Call("riichi", 1), "ja").text == "リーチ"
