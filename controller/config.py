"""The service configuration: one TOML file (``mjtable run --config FILE``), every key optional.

The defaults run the embedded simulated table, so ``mjtable run`` with no file plays. ``examples/mjtable.toml``
shows every key with its meaning; a wrong key or value is a ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Self

from controller.errors import ConfigError
from controller.service.journal import SYNCHRONOUS
from controller.voice.phrases import VOICES
from engine.errors import MjtableError
from engine.rulesets.registry import get_ruleset
from firmware_bridge.config import BridgeConfig
from hw_tests.firmware import LAUNCHERS


def parse_listen(text: str) -> tuple[str, int]:
    """``"127.0.0.1:8080"`` → host and port; a ``ConfigError`` names the value."""
    host, _, port = text.rpartition(":")
    if not host or not (port.isascii() and port.isdigit() and len(port) <= 5) or not 0 <= int(port) <= 65535:
        raise ConfigError(f"http.listen: expected HOST:PORT such as 127.0.0.1:8080, or off; got {text!r}")
    return host, int(port)


def parse_mqtt_url(text: str) -> tuple[str, int, bool]:
    """``"mqtt://host:1883"`` / ``"mqtts://host:8883"`` → host, port, TLS; a ``ConfigError`` names the value."""
    scheme, sep, rest = text.partition("://")
    host, _, port = rest.rpartition(":")
    if not sep or scheme not in ("mqtt", "mqtts") or not host or "@" in host or not (port.isascii() and port.isdigit()):
        raise ConfigError(f"mqtt.url: expected mqtt://HOST:PORT or mqtts://HOST:PORT, got {text!r}")
    if len(port) > 5 or not 0 < int(port) <= 65535:
        raise ConfigError(f"mqtt.url: port {port[:12]} out of range 1-65535")
    return host.strip("[]"), int(port), scheme == "mqtts"


# The range of every number of [service]; the command line's flags check theirs against the same table.
SERVICE_RANGES: dict[str, tuple[float, float]] = {
    "seed": (-1, 2**63 - 1),  # -1: a fresh seed per run
    "hands": (0, 1_000_000),  # 0: until stopped
    "speed": (0.01, 10_000),
    "think_s": (0, 60),
    "claim_window_s": (1, 60),
    "hu_hold_s": (0.1, 10),
}


def check_range(where: str, value: float, low: float, high: float) -> None:
    """A ``ConfigError`` naming ``where`` when ``value`` lies outside ``low``-``high`` (NaN never lies inside)."""
    if not low <= value <= high:
        unit = " seconds" if where.endswith("_s") else ""
        raise ConfigError(f"{where}: expected {span(low, high)}{unit}, got {value!r}")


def span(low: float, high: float) -> str:
    """``0.01-10000``, or ``-1 to 9223372036854775807`` where a minus sign would blur the dash."""
    low_text, high_text = (str(int(v)) if float(v).is_integer() else str(v) for v in (low, high))
    return f"{low_text} to {high_text}" if low < 0 else f"{low_text}-{high_text}"


def check_state_dir(where: str, text: str) -> None:
    """The journal's directory may be missing (it is made) but may not be a file or lie under one."""
    if "\0" in text:
        raise ConfigError(f"{where}: a path may not hold a NUL character")
    path = Path(text)
    for place in (path, *path.parents):
        try:
            is_file = place.exists() and not place.is_dir()
        except OSError as error:
            raise ConfigError(f"{where}: {error.strerror}: {text[:80]!r}") from None
        if is_file:
            raise ConfigError(f"{where}: {place} is a file; expected a directory for the journal")


def default_state_dir() -> Path:
    """The per-user data directory (XDG): journal and history survive reinstalls of the code."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "mjtable"


class _Section:
    """``from_dict`` for a flat section: unknown keys and values of the wrong type are named."""

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Self:
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: expected a table of keys, got {data!r}")
        known = {item.name: item for item in fields(cls)}  # type: ignore[arg-type]
        for key, value in data.items():
            if key not in known:
                raise ConfigError(f"{where}.{key}: unknown key; known: {', '.join(sorted(known))}")
            expected = type(getattr(cls(), key))
            accepted = (int, float) if expected is float else (expected,)
            if isinstance(value, bool) is not (expected is bool) or not isinstance(value, accepted):
                raise ConfigError(f"{where}.{key}: expected {expected.__name__}, got {value!r}")
        return cls(**data)


@dataclass(frozen=True)
class ServiceSection(_Section):
    """``[service]``: what is played and how fast."""

    rules: str = "mcr"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = -1  # -1: a fresh random seed per run (printed and journaled)
    hands: int = 0  # 0: play until stopped
    speed: float = 20.0  # simulation time factor: the simulated mechanism and the bots' think time run this fast
    think_s: float = 0.5  # a bot's think time per move, in table seconds
    state_dir: str = ""  # "": the per-user data directory (~/.local/share/mjtable)
    on_fault: str = "stop"  # a table fault stops the run; "wait": wait for POST /api/resume after the repair
    camera: str = "off"  # "sim": the bots' discards are read by the simulated camera (controller.people.camera)
    players: str = "bots"  # "people": people play; the service sees only the camera and the seat buttons
    claim_window_s: float = 8.0  # people: seconds without a move after a discard before nobody claims it
    hu_hold_s: float = 1.0  # a seat button held this long declares hu; a shorter press claims (service.inputs)
    wait_for_dealer: bool = False  # wait for the dealer's lift switch and dice key (always pressed on the sim table)
    firmware: str = ""  # the simulated table's MCU: "" the Python simulator, or a firmware/ build ("host", "qemu")

    def __post_init__(self) -> None:
        try:
            get_ruleset(self.rules, self.options)  # the name and options checked here, by name
        except MjtableError as error:
            raise ConfigError(f"service.rules/options: {error}") from None
        for key, (low, high) in SERVICE_RANGES.items():
            check_range(f"service.{key}", getattr(self, key), low, high)
        if self.on_fault not in ("stop", "wait"):
            raise ConfigError(f"service.on_fault: expected stop or wait, got {self.on_fault!r}")
        if self.camera not in ("off", "sim"):
            raise ConfigError(f"service.camera: expected off or sim, got {self.camera!r}")
        if self.players not in ("bots", "people"):
            raise ConfigError(f"service.players: expected bots or people, got {self.players!r}")
        if self.players == "people" and self.camera != "off":
            raise ConfigError(
                'service.camera: the simulated camera reads the bots\' discards; with players = "people" the '
                "service always watches the table's camera ([camera], or the simulated table's)"
            )
        if self.firmware and self.firmware not in LAUNCHERS:
            boards = ", ".join(sorted(LAUNCHERS))
            raise ConfigError(
                f'service.firmware: expected "" (the Python simulator) or {boards}; got {self.firmware!r}'
            )
        check_state_dir("service.state_dir", self.state_dir)

    @property
    def state_path(self) -> Path:
        return Path(self.state_dir) if self.state_dir else default_state_dir()


@dataclass(frozen=True)
class JournalSection(_Section):
    """``[journal]``: SQLite durability (``full``: a commit survives a power cut, as a Pi's often is)."""

    synchronous: str = "full"

    def __post_init__(self) -> None:
        if self.synchronous not in SYNCHRONOUS:
            raise ConfigError(f"journal.synchronous: expected one of {', '.join(SYNCHRONOUS)}")


@dataclass(frozen=True)
class HttpSection(_Section):
    """``[http]``: the dealer-light display. Loopback only unless ``listen`` says otherwise; with ``token`` empty
    the control endpoints are off, so ``listen = "0.0.0.0:8080"`` without a token is a read-only LAN display."""

    listen: str = "127.0.0.1:8080"  # HOST:PORT, or "off" for no display
    token: str = ""  # the bearer token of POST /api/stop; "" = no control endpoints

    def __post_init__(self) -> None:
        if self.listen != "off":
            parse_listen(self.listen)


@dataclass(frozen=True)
class MqttSection(_Section):
    """``[mqtt]``: the parlor's fleet broker (``controller.fleet.mqtt_link``). Credentials live here, never in the URL,
    so ``--mqtt`` on the command line does not show a password in ``ps``."""

    url: str = ""  # mqtt://HOST:PORT or mqtts://HOST:PORT (TLS); "" = no fleet link
    table_id: str = ""  # the topic level of this table, mjtable/<table_id>/...; "" = the host name
    username: str = ""
    password: str = ""
    ca_certs: str = ""  # TLS: the CA file; "" = the system's CAs
    certfile: str = ""  # TLS client certificate (with keyfile), if the broker asks for one
    keyfile: str = ""
    command_token: str = ""  # commands on .../cmd must carry this token; "" = commands refused
    queue: int = 1000  # bounded outbox: events beyond it while the broker is slow or away are dropped (counted)
    keepalive_s: int = 10  # MQTT keepalive: the broker publishes the last will this long after a silent death

    def __post_init__(self) -> None:
        if self.url:
            parse_mqtt_url(self.url)
        if any(char in self.table_id for char in "/+#"):
            raise ConfigError(f"mqtt.table_id: {self.table_id!r} may not hold '/', '+' or '#'")
        check_range("mqtt.queue", self.queue, 1, 1_000_000)
        check_range("mqtt.keepalive_s", self.keepalive_s, 1, 3600)


@dataclass(frozen=True)
class SystemdSection(_Section):
    """``[systemd]``: the watchdog (``controller.ops.watchdog``); the period itself is ``WatchdogSec`` in the unit."""

    stall_s: float = 120.0  # the control loop not moving for this long (a fault waiting aside) stops the pings

    def __post_init__(self) -> None:
        check_range("systemd.stall_s", self.stall_s, 1, 3600)


@dataclass(frozen=True)
class CameraSection(_Section):
    """``[camera]``: a real table's overhead camera, spelled as ``mjtable vision`` spells it. ``mjtable doctor``
    checks it and ``mjtable vision watch|enroll --config`` take it as defaults; the service watches it when people
    play (``service.players = "people"``) on a real table (``service.camera`` is the bots' simulated camera)."""

    source: str = ""  # picamera, a device number such as "0", a stream URL, a video or image folder; "" = none
    calibration: str = ""  # TOML of 'mjtable vision calibrate'; "" = found from the markers in the first frame
    model: str = ""  # an enrolled tile-set directory; "" = the shipped default model

    def __post_init__(self) -> None:
        if not self.source and (self.calibration or self.model):
            raise ConfigError(
                "camera.source: empty, yet camera.calibration or camera.model is set; name the camera "
                '(picamera, a device number such as "0", ...)'
            )


@dataclass(frozen=True)
class VoiceSection(_Section):
    """``[voice]``: the table says claims and verdicts (碰, 吃, 杠, 胡, 自摸, 流局) on the Pi's audio output with
    espeak-ng (``controller.voice``); off by default, since a table in a quiet room may not want it."""

    enabled: bool = False
    language: str = "zh"  # zh: Mandarin, yue: Cantonese, en: English, ja: Japanese
    volume: int = 80  # 0-100 (espeak-ng's amplitude; the device's own level is alsamixer's)
    discards: bool = False  # also say each discard's name (三万, "three characters")

    def __post_init__(self) -> None:
        if self.language not in VOICES:
            raise ConfigError(
                "voice.language: expected zh (Mandarin), yue (Cantonese), en (English) or ja (Japanese), "
                f"got {self.language!r}"
            )
        check_range("voice.volume", self.volume, 0, 100)


@dataclass(frozen=True)
class Config:
    """The whole file. ``[bridge]`` is the firmware bridge's own section (port "" = the simulated table)."""

    service: ServiceSection = ServiceSection()
    journal: JournalSection = JournalSection()
    http: HttpSection = HttpSection()
    bridge: BridgeConfig = field(default_factory=BridgeConfig)
    mqtt: MqttSection = MqttSection()
    systemd: SystemdSection = SystemdSection()
    camera: CameraSection = CameraSection()
    voice: VoiceSection = VoiceSection()

    def __post_init__(self) -> None:
        if self.service.players == "people" and not self.simulated and not self.camera.source:
            raise ConfigError(
                'camera.source: people play (service.players = "people") on a real table, so the service watches '
                'its overhead camera: name it (picamera, a device number such as "0", ...)'
            )
        if self.service.firmware and not self.simulated:
            raise ConfigError(
                f"service.firmware: {self.service.firmware!r} runs a firmware build as the simulated table, but "
                f"[bridge.link] port names a real one ({self.bridge.link.port})"
            )

    @property
    def simulated(self) -> bool:
        return not self.bridge.link.port

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        sections = {"service", "journal", "http", "bridge", "mqtt", "systemd", "camera", "voice"}
        for key in data:
            if key not in sections:
                raise ConfigError(f"{key}: unknown section; known: {', '.join(sorted(sections))}")
        try:
            bridge = BridgeConfig.from_dict(data.get("bridge", {}))
        except MjtableError as error:
            raise ConfigError(str(error)) from None
        return cls(
            ServiceSection.from_dict(data.get("service", {}), "service"),
            JournalSection.from_dict(data.get("journal", {}), "journal"),
            HttpSection.from_dict(data.get("http", {}), "http"),
            bridge,
            MqttSection.from_dict(data.get("mqtt", {}), "mqtt"),
            SystemdSection.from_dict(data.get("systemd", {}), "systemd"),
            CameraSection.from_dict(data.get("camera", {}), "camera"),
            VoiceSection.from_dict(data.get("voice", {}), "voice"),
        )

    def with_service(self, http: str | None = None, mqtt: str | None = None, **changes: Any) -> Config:
        """The configuration with command-line values over the file's (``None`` = not given)."""
        given = {key: value for key, value in changes.items() if value is not None}
        return replace(
            self,
            service=ServiceSection(**{**self.service.__dict__, **given}),
            http=self.http if http is None else replace(self.http, listen=http),
            mqtt=self.mqtt if mqtt is None else replace(self.mqtt, url=mqtt),
        )


def load_config(path: Path | None) -> Config:
    """The file's configuration (``None``: the defaults); errors name the file."""
    if path is None:
        return Config()
    if "\0" in str(path):  # no file can be named by it (open() would raise a bare ValueError)
        raise ConfigError(f"{str(path)[:80]!r}: a path may not hold a NUL character")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:  # before any broader ValueError: it is one
        raise ConfigError(f"{path}: not TOML: {error}") from None
    try:
        return Config.from_dict(data)
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None
