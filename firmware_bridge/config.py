"""Configuration of the bridge: the serial link, what the MCU is told at handshake, and the GPIO pin map.

Frozen dataclasses read from the ``[bridge]`` part of the TOML file (``from_dict``); every key has a default that
runs the simulated table, and every bad value is a ConfigError naming its key.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Self

from engine.errors import MjtableError
from engine.procedure import WallLayout
from engine.tilesets import tile_set
from firmware_bridge.errors import ConfigError
from firmware_bridge.messages import SEATS, Configure

Pin = int | str


def _check_number(where: str, value: Any, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ConfigError(f"{where}: expected a number from {low} to {high}, got {value!r}")


class _Section:
    """``from_dict``/``to_dict`` shared by the sections: unknown keys and wrong types are named."""

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "") -> Self:
        if not isinstance(data, dict):
            raise ConfigError(f"{where.rstrip('.') or cls.__name__}: expected a table of keys, got {data!r}")
        known = {item.name for item in fields(cls)}  # type: ignore[arg-type]
        for key in data:
            if key not in known:
                raise ConfigError(f"{where}{key}: unknown key; known: {', '.join(sorted(known))}")
        values = {key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
        try:
            made = cls(**values)
        except ConfigError as exc:
            raise ConfigError(f"{where}{exc}") from None
        return made

    def to_dict(self) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}  # type: ignore[call-overload]


@dataclass(frozen=True)
class LinkConfig(_Section):
    """The serial port and the retransmission policy (PROTOCOL.md §3)."""

    port: str = ""  # empty: the simulator on a pty
    baud: int = 115200
    min_rto_s: float = 0.01
    max_rto_s: float = 0.25
    max_tries: int = 30
    silence_s: float = 1.5  # nothing heard from the MCU for this long: the link is down
    heartbeat_s: float = 0.2473  # odd period, so it does not beat with the MCU's snapshot timer

    def __post_init__(self) -> None:
        if not isinstance(self.port, str):
            raise ConfigError(f"port: expected a device path, got {self.port!r}")
        _check_number("baud", self.baud, 1200, 4_000_000)
        _check_number("min_rto_s", self.min_rto_s, 0.001, 10)
        _check_number("max_rto_s", self.max_rto_s, self.min_rto_s, 60)
        _check_number("max_tries", self.max_tries, 1, 1000)
        _check_number("silence_s", self.silence_s, 0.05, 600)
        _check_number("heartbeat_s", self.heartbeat_s, 0.01, 60)


@dataclass(frozen=True)
class McuConfig(_Section):
    """What the host sends in CONFIGURE: the tile set (walls per side) and the MCU's own timers."""

    tile_set: str = "136"
    jam_factor: float = 3.0  # a sensor not seen within jam_factor × its learned interval is a jam
    host_timeout_s: float = 1.0
    snapshot_s: float = 0.2

    def __post_init__(self) -> None:
        try:
            tile_set(self.tile_set)
        except MjtableError as exc:
            raise ConfigError(f"tile_set: {exc}") from None
        _check_number("jam_factor", self.jam_factor, 1.5, 25)
        _check_number("host_timeout_s", self.host_timeout_s, 0.05, 60)
        _check_number("snapshot_s", self.snapshot_s, 0.01, 60)

    @property
    def wall_tiles(self) -> tuple[int, ...]:
        return WallLayout.for_size(tile_set(self.tile_set).size).wall_tiles

    def message(self) -> Configure:
        """The CONFIGURE message with its checksum."""
        return Configure.build(
            self.wall_tiles,
            round(self.jam_factor * 10),
            round(self.host_timeout_s * 1000),
            round(self.snapshot_s * 1000),
        )


def _check_pin(where: str, pin: Any) -> None:
    if isinstance(pin, bool) or not isinstance(pin, int | str) or pin == "" or (isinstance(pin, int) and pin < 0):
        raise ConfigError(f"{where}: expected a pin number or name (17, 'GPIO17', 'BOARD11'), got {pin!r}")


@dataclass(frozen=True)
class GpioConfig(_Section):
    """The pins of the dealer indicator, the lift switch, the seat buttons and the lid interlock (BCM numbers)."""

    dealer_leds: tuple[Pin, ...] = (5, 6, 13, 19)
    wind_led: Pin = 26
    lift_switch: Pin = 21
    seat_buttons: tuple[Pin, ...] = (12, 16, 20, 24)
    interlock: Pin = 25
    debounce_s: float = 0.03
    blink_period_s: float = 1.0

    def __post_init__(self) -> None:
        seen: dict[Pin, str] = {}
        for name, pins in (
            ("dealer_leds", self.dealer_leds),
            ("wind_led", (self.wind_led,)),
            ("lift_switch", (self.lift_switch,)),
            ("seat_buttons", self.seat_buttons),
            ("interlock", (self.interlock,)),
        ):
            if name in ("dealer_leds", "seat_buttons") and (not isinstance(pins, tuple) or len(pins) != SEATS):
                raise ConfigError(f"{name}: expected {SEATS} pins, one per seat, got {pins!r}")
            for index, pin in enumerate(pins):
                where = f"{name}[{index}]" if len(pins) > 1 else name
                _check_pin(where, pin)
                if pin in seen:
                    raise ConfigError(f"{where}: pin {pin!r} is already used by {seen[pin]}")
                seen[pin] = where
        _check_number("debounce_s", self.debounce_s, 0, 1)
        _check_number("blink_period_s", self.blink_period_s, 0.05, 10)


@dataclass(frozen=True)
class BridgeConfig:
    """The ``[bridge]`` table: ``[bridge.link]``, ``[bridge.mcu]``, ``[bridge.gpio]``."""

    link: LinkConfig = LinkConfig()
    mcu: McuConfig = McuConfig()
    gpio: GpioConfig = GpioConfig()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BridgeConfig:
        if not isinstance(data, dict):
            raise ConfigError(f"bridge: expected a table of keys, got {data!r}")
        sections = {"link": LinkConfig, "mcu": McuConfig, "gpio": GpioConfig}
        for key in data:
            if key not in sections:
                raise ConfigError(f"bridge.{key}: unknown section; known: {', '.join(sections)}")
        return cls(**{key: kind.from_dict(data.get(key, {}), f"bridge.{key}.") for key, kind in sections.items()})

    def to_dict(self) -> dict[str, Any]:
        return {"link": self.link.to_dict(), "mcu": self.mcu.to_dict(), "gpio": self.gpio.to_dict()}
