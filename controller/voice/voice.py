"""The voice as a listener of the service: it never waits for the speaker.

The control loop hands each event and line over (``on_event``, ``on_line``: a lookup and an append under a lock
held only by other appends and by the speaking thread's pop), and one thread says the phrases in order. The queue
is bounded and drops what is stale: when more comes than can be said (a simulated table at speed 20, a long
phrase), the oldest phrase waiting gives way, and a phrase that waited longer than ``STALE_S`` is dropped, since a
claim said late is only noise. A speaker that fails (no audio device, espeak-ng gone) is named once in the log at
WARNING, and once more when it works again: the table plays on silent.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from controller.voice.calls import Call, Caller
from controller.voice.phrases import Phrase, call_phrase, points_phrase, tile_phrase
from controller.voice.speaker import EspeakSpeaker, SpeakerError

if TYPE_CHECKING:
    from controller.config import VoiceSection
    from controller.service.events import Event
    from controller.service.hand import HandState
    from engine.actions import Verdict

log = logging.getLogger(__name__)

DEPTH = 4
"""Phrases waiting at most; a fifth pushes out the oldest."""

STALE_S = 3.0
"""A phrase that waited longer than this is not said."""

DRAIN_S = 3.0
"""On closing, how long the phrases still waiting may take to be said."""


class Speaker(Protocol):
    def say(self, phrase: Phrase) -> None: ...

    def close(self) -> None: ...


def phrase_of(call: Call, language: str) -> Phrase:
    if call.what == "discard":
        return tile_phrase(call.tile, language)
    if call.what == "wild":  # the word, then the wild tile's name: 赖子 四条
        word, tile = call_phrase("wild", language), tile_phrase(call.tile, language)
        space = " " if language in ("zh", "en") else ""
        return Phrase(f"{word.text}{space}{tile.text}", f"{word.spoken} {tile.spoken}", word.voice)
    if call.what == "points":
        return points_phrase(call.amount, language)
    return call_phrase(call.what, language)


class Voice:
    """Says the calls of ``controller.voice.calls`` in ``language`` on ``speaker``; discards only if ``discards``."""

    def __init__(
        self,
        speaker: Speaker,
        language: str,
        *,
        discards: bool = False,
        depth: int = DEPTH,
        stale_s: float = STALE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.speaker = speaker
        self.language = language
        self.discards = discards
        self.stale_s = stale_s
        self.clock = clock
        self.said: list[Phrase] = []
        """Every phrase said, in order (tests, and the count in the log at the end)."""
        self.dropped = 0
        self._caller = Caller()
        self._waiting: deque[tuple[float, Phrase]] = deque()
        self._depth = depth
        self._changed = threading.Condition()
        self._closed = False
        self._speaking = False
        self._failing = False
        self._thread = threading.Thread(target=self._speak, name="mjtable-voice", daemon=True)
        self._thread.start()

    # -- fed by the service (its control loop: never blocks) ---------------------------------------------------

    def on_event(self, hand: HandState, event: Event, verdict: Verdict | None) -> None:
        self._take(lambda: self._caller.of_event(hand, event, verdict))

    def on_line(self, line: dict[str, Any]) -> None:
        self._take(lambda: self._caller.of_line(line))

    def _take(self, calls: Callable[[], list[Call]]) -> None:
        try:
            phrases = [phrase_of(call, self.language) for call in calls() if self.discards or call.what != "discard"]
        except Exception as error:  # a listener must not stop the table: what cannot be said is left unsaid
            log.warning("voice: nothing said for this event: %s: %s", type(error).__name__, error)
            return
        if not phrases:
            return
        now = self.clock()
        with self._changed:
            for phrase in phrases:
                if len(self._waiting) >= self._depth:
                    self._waiting.popleft()
                    self.dropped += 1
                self._waiting.append((now, phrase))
            self._changed.notify()

    # -- the speaking thread ---------------------------------------------------------------------------------

    def _next(self) -> Phrase | None:
        with self._changed:
            while True:
                self._changed.wait_for(lambda: self._closed or bool(self._waiting))
                if self._closed:
                    return None
                queued, phrase = self._waiting.popleft()
                if self.clock() - queued <= self.stale_s:
                    self._speaking = True
                    return phrase
                self.dropped += 1
                self._changed.notify_all()

    def _speak(self) -> None:
        while (phrase := self._next()) is not None:
            try:
                self.speaker.say(phrase)
            except SpeakerError as error:
                if self._closed:  # cut off by close()
                    return
                if not self._failing:
                    log.warning("voice: %s; the table plays on silent", error)
                self._failing = True
            else:
                if self._failing:
                    log.info("voice: speaking again")
                    self._failing = False
                self.said.append(phrase)
            finally:
                with self._changed:
                    self._speaking = False
                    self._changed.notify_all()

    def close(self, drain_s: float = DRAIN_S, timeout: float = 2.0) -> None:
        """Let what waits be said for up to ``drain_s`` (the last hand's 流局), then stop: a phrase still being said
        is cut off. The service closes the voice after the table, so this never delays the safe stop."""
        with self._changed:
            self._changed.wait_for(lambda: not self._waiting and not self._speaking, drain_s)
            self._closed = True
            self._changed.notify_all()
        self.speaker.close()
        self._thread.join(timeout)
        log.info("voice: %d phrases said, %d dropped", len(self.said), self.dropped)


def open_voice(section: VoiceSection) -> Voice | None:
    """The configured voice, or ``None`` when it is off or espeak-ng is missing (named once, at WARNING)."""
    if not section.enabled:
        return None
    try:
        speaker = EspeakSpeaker(section.volume)
    except SpeakerError as error:
        log.warning("voice: %s", error)
        return None
    log.info("voice: %s at volume %d through %s", section.language, section.volume, speaker.output)
    return Voice(speaker, section.language, discards=section.discards)
