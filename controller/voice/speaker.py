"""espeak-ng and the audio output: each phrase rendered to a WAV file once, then played with ``aplay``.

Why a file and ``aplay`` rather than espeak-ng straight to the device: ``aplay`` talks to ALSA, which a system
service has through the ``audio`` group, while espeak-ng's own output (pcaudiolib) prefers PulseAudio or PipeWire,
sound servers of a login session that the service, running as its own user, does not have. A rendered phrase is
kept, so a repeated 碰 starts at once; rendering and playing fail apart, and ``aplay`` exits 1 with "audio open
error" when there is no audio device, where espeak-ng speaking to a missing device still exits 0 (it only prints
an error); and the file played is the file the tests measure. ``paplay`` (a desktop's
sound server) comes second; with neither player, espeak-ng speaks to the device itself.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from controller.voice.phrases import Phrase

PLAYERS = (("aplay", "-q"), ("paplay",))
"""Players tried in order (``-q``: no banner on stderr)."""

AMPLITUDE_PER_VOLUME = 0.85
"""espeak-ng's ``-a`` per point of ``[voice] volume``: volume 100 is amplitude 85, the loudest at which espeak-ng says
every phrase of every language without clipping (measured with sox: the loudest, Mandarin 二筒, peaks at 0.95 of
full scale; at espeak-ng's own default of 100 it reaches 1.0)."""

TIMEOUT_S = 10.0
"""A render or a play that takes longer is killed: a hung audio device stops one phrase, never the voice."""


class SpeakerError(Exception):
    """Why a phrase was not said; one line."""


class EspeakSpeaker:
    """Says phrases with espeak-ng at ``volume`` (0-100) on the first player found. ``SpeakerError`` when espeak-ng
    is not installed."""

    def __init__(
        self, volume: int, *, cache: Path | None = None, which: Callable[[str], str | None] | None = None
    ) -> None:
        which = which or shutil.which
        espeak = which("espeak-ng")
        if espeak is None:
            raise SpeakerError("espeak-ng is not installed (apt install espeak-ng): the table stays silent")
        self.espeak = espeak
        self.amplitude = round(volume * AMPLITUDE_PER_VOLUME)
        self.player: list[str] | None = next(
            ([path, *flags] for name, *flags in PLAYERS if (path := which(name)) is not None), None
        )
        self._owned = cache is None
        self.cache = Path(tempfile.mkdtemp(prefix="mjtable-voice-")) if cache is None else cache
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._closed = False

    @property
    def output(self) -> str:
        """Where the sound goes, for the log."""
        return Path(self.player[0]).name if self.player else "espeak-ng's own audio output"

    def _synth(self, phrase: Phrase) -> list[str]:
        return [self.espeak, "-v", phrase.voice, "-a", str(self.amplitude), "-b", "1"]

    def render(self, phrase: Phrase) -> Path:
        """The phrase as a WAV file (``espeak-ng -w``), rendered once and kept in the cache."""
        key = hashlib.sha1(f"{phrase.voice}/{self.amplitude}/{phrase.spoken}".encode()).hexdigest()[:16]
        path = self.cache / f"{key}.wav"
        if not path.exists():
            partial = path.with_suffix(".part")
            self._run([*self._synth(phrase), "-w", str(partial), "--", phrase.spoken], "espeak-ng")
            partial.replace(path)
        return path

    def say(self, phrase: Phrase) -> None:
        """Say the phrase; blocks until it is said. ``SpeakerError`` names what failed."""
        if self.player is None:
            self._run([*self._synth(phrase), "--", phrase.spoken], "espeak-ng", strict=True)
        else:
            self._run([*self.player, str(self.render(phrase))], Path(self.player[0]).name)

    def _run(self, command: list[str], name: str, *, strict: bool = False) -> None:
        with self._lock:
            if self._closed:
                raise SpeakerError("the voice is closed")
            try:
                process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE)  # fmt: skip
            except OSError as error:
                raise SpeakerError(f"{name}: {error.strerror}") from None
            self._process = process
        try:
            _, err = process.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise SpeakerError(f"{name} did not finish within {TIMEOUT_S:g} s: killed") from None
        finally:
            self._process = None
        lines = err.decode(errors="replace").strip().splitlines()
        if process.returncode != 0:
            raise SpeakerError(f"{name} failed (exit {process.returncode}): {lines[-1] if lines else 'no message'}")
        if strict and any(line.startswith("error:") for line in lines):  # espeak-ng's own output exits 0 regardless
            raise SpeakerError(f"{name} could not open the audio output: {lines[-1]}")

    def close(self) -> None:
        """Stop a phrase being said and remove the rendered files."""
        with self._lock:
            self._closed = True
            if self._process is not None and self._process.poll() is None:
                self._process.kill()
        if self._owned:
            shutil.rmtree(self.cache, ignore_errors=True)
