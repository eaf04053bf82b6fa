"""The Pi's own pins: the dealer indicator LEDs, the lift switch, the seat buttons and the lid interlock.

Every device takes the pin factory it runs on (``gpiozero.pins.mock.MockFactory()`` off the Pi, ``None`` for
gpiozero's default on a Pi) and the pin numbers from ``GpioConfig``; nothing touches ``Device.pin_factory``.
Callbacks run on gpiozero's callback thread on a Pi and synchronously in the caller's thread with MockFactory;
an asyncio caller marshals them with ``loop.call_soon_threadsafe``. Debouncing is ours, with an injected clock,
because MockPin does not simulate contact bounce and gpiozero's ``bounce_time`` cannot be tested off the Pi.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button

from firmware_bridge.config import GpioConfig
from firmware_bridge.errors import ConfigError
from firmware_bridge.link import Clock
from firmware_bridge.messages import SEATS, WIND_LAMP, LampPattern

log = logging.getLogger(__name__)


def host_pin_factory() -> Any:
    """Real pins through lgpio on a Raspberry Pi (the only factory that works on a Pi 5), mock pins elsewhere."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as exc:  # no lgpio module, no /dev/gpiochip, not a Pi: gpiozero raises several kinds
        from gpiozero.pins.mock import MockFactory

        log.info("no GPIO here (%s): using mock pins", exc)
        return MockFactory()


def _device(kind: type, pin: Any, where: str, **kwargs: Any) -> Any:
    try:
        return kind(pin, **kwargs)
    except Exception as exc:  # gpiozero raises many types (PinInvalidPin, BadPinFactory, GPIOPinInUse, ...)
        raise ConfigError(f"gpio.{where}: cannot use pin {pin!r}: {exc}") from None


class DealerLamps:
    """Four seat lamps and the round-wind lamp, each off, steady or blinking."""

    def __init__(self, config: GpioConfig, pin_factory: Any = None) -> None:
        self._period = config.blink_period_s
        pins = (*config.dealer_leds, config.wind_led)
        names = [f"dealer_leds[{seat}]" for seat in range(SEATS)] + ["wind_led"]
        self._leds: list[LED] = []
        try:
            for pin, name in zip(pins, names, strict=True):
                self._leds.append(_device(LED, pin, name, pin_factory=pin_factory))
        except ConfigError:
            self.close()
            raise
        self.patterns = [LampPattern.OFF] * (WIND_LAMP + 1)

    def set(self, lamp: int, pattern: LampPattern, period_s: float | None = None) -> None:
        """One lamp (0-3 seats, 4 round wind): OFF, STEADY, or BLINK with half the period on."""
        led = self._leds[lamp]
        if pattern is LampPattern.BLINK:
            half = (period_s or self._period) / 2
            led.blink(on_time=half, off_time=half, background=True)
        elif pattern is LampPattern.STEADY:
            led.on()
        else:
            led.off()
        if self.patterns[lamp] is not pattern:
            log.info("lamp %s %s", "wind" if lamp == WIND_LAMP else f"seat{lamp}", pattern.name)
        self.patterns[lamp] = pattern

    def show_dealer(self, seat: int, pattern: LampPattern = LampPattern.STEADY, wind: bool = True) -> None:
        """The dealer's lamp in ``pattern`` (BLINK while a dealer repeats, say), the other seats dark."""
        for lamp in range(SEATS):
            self.set(lamp, pattern if lamp == seat else LampPattern.OFF)
        self.set(WIND_LAMP, LampPattern.STEADY if wind else LampPattern.OFF)

    def show_number(self, number: int) -> None:
        """A 4-bit number in binary on the seat lamps, seat 0 most significant (the tables' test mode display)."""
        for lamp in range(SEATS):
            self.set(lamp, LampPattern.STEADY if number >> (SEATS - 1 - lamp) & 1 else LampPattern.OFF)

    def close(self) -> None:
        for led in self._leds:
            led.close()
        self._leds = []


class Debouncer:
    """Accepts an edge only when ``hold_s`` has passed since the last accepted one (contact bounce is faster)."""

    def __init__(self, hold_s: float, clock: Clock = time.monotonic) -> None:
        self._hold = hold_s
        self._clock = clock
        self._last = -float("inf")

    def accept(self) -> bool:
        now = self._clock()
        if now - self._last < self._hold:
            return False
        self._last = now
        return True


class _Input:
    """A pulled-up input wired to ground by a switch: ``when_pressed`` → a debounced callback."""

    def __init__(self, pin: Any, where: str, hold_s: float, clock: Clock, pin_factory: Any) -> None:
        self.button = _device(Button, pin, where, pull_up=True, pin_factory=pin_factory)
        self._debounce = Debouncer(hold_s, clock)
        self._callback: Callable[[], None] | None = None
        self.button.when_pressed = self._edge

    def _edge(self) -> None:
        if self._debounce.accept() and self._callback is not None:
            self._callback()

    def on_press(self, callback: Callable[[], None] | None) -> None:
        self._callback = callback

    @property
    def pressed(self) -> bool:
        return bool(self.button.is_pressed)

    def close(self) -> None:
        self.button.close()


class Panel:
    """Every pin of the table from ``GpioConfig``: ``lamps``, ``seat_buttons``, ``lift_switch``, ``interlock``."""

    def __init__(self, config: GpioConfig, pin_factory: Any = None, clock: Clock = time.monotonic) -> None:
        self._inputs: list[_Input] = []
        self.lamps = DealerLamps(config, pin_factory)
        try:
            hold = config.debounce_s
            self.seat_buttons = [
                self._input(pin, f"seat_buttons[{seat}]", hold, clock, pin_factory)
                for seat, pin in enumerate(config.seat_buttons)
            ]
            self.lift_switch = self._input(config.lift_switch, "lift_switch", hold, clock, pin_factory)
            self.interlock = self._input(config.interlock, "interlock", hold, clock, pin_factory)
        except ConfigError:
            self.close()
            raise

    def _input(self, pin: Any, where: str, hold: float, clock: Clock, pin_factory: Any) -> _Input:
        item = _Input(pin, where, hold, clock, pin_factory)
        self._inputs.append(item)
        return item

    def on_seat_button(self, callback: Callable[[int], None]) -> None:
        """``callback(seat)`` once per debounced press of a seat's button."""
        for seat, button in enumerate(self.seat_buttons):
            button.on_press(lambda seat=seat: callback(seat))

    def on_interlock_open(self, callback: Callable[[], None]) -> None:
        """The lid or safety interlock opened: wire this to ``Table.emergency_stop``.

        The interlock switch is closed (pressed) while the lid is shut, so opening it is the *release* edge; it
        is not debounced, because a stop must never be delayed.
        """
        self.interlock.button.when_released = callback

    @property
    def lid_closed(self) -> bool:
        return self.interlock.pressed

    def close(self) -> None:
        for item in self._inputs:
            item.close()
        self._inputs = []
        self.lamps.close()
