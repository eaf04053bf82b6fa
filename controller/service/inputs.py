"""The players' buttons as presses the service takes in order: each seat's button (a short press claims the tile on
offer, a press held ``hu_hold_s`` or longer declares hu), the dealer's lift switch on the Pi (held ``VOID_HOLD_S``
during play it voids the hand), and the dice keys wired to the MCU (read from its snapshots by
``controller.service.cycle``).

A seat has one button (``bridge.gpio.seat_buttons``), so the length of the press tells a claim from a hu (this
project's choice; ``service.hu_hold_s`` sets the length). Callbacks come on gpiozero's thread on a Pi and in the
caller's thread with MockFactory; either way they only queue a ``Press``, and the service's thread turns presses
into journaled events, so a press is never applied from two threads.

``SimHands`` are the simulated players' hands on the simulated table: they drive the MockFactory pins (and the
simulated MCU's dice keys) as fingers would, on a simulated clock, so that a hold lasts as long as it should in no
time and the debouncer sees presses as far apart as a person makes them.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from firmware_bridge.config import GpioConfig
from firmware_bridge.gpio import Panel


class Button(StrEnum):
    CLAIM = "claim"
    HU = "hu"
    LIFT = "lift"
    DICE = "dice"
    VOID = "void"
    """The lift switch held ``VOID_HOLD_S`` during play: the dealer gives up a hand the table cannot follow."""


VOID_HOLD_S = 3.0
"""How long the dealer holds the lift switch to void the hand in play: far longer than a lift press, so that no
press meant for the walls voids a hand."""
LIFT = -1
"""The lift switch's key among the held buttons (seats are 0-3)."""


@dataclass(frozen=True)
class Press:
    button: Button
    seat: int


class SeatInputs:
    """Queues the presses of the seat buttons and the lift switch of ``panel``; ``dealer()`` names the seat a lift
    press is credited to."""

    def __init__(self, panel: Panel, clock: Callable[[], float], hu_hold_s: float) -> None:
        self.presses: queue.Queue[Press] = queue.Queue()
        self.clock = clock
        self.hu_hold_s = hu_hold_s
        self.dealer = 0
        self._down: dict[int, float] = {}
        self._lock = threading.Lock()
        panel.on_seat_button(self._pressed)
        for seat, item in enumerate(panel.seat_buttons):
            item.button.when_released = lambda seat=seat: self._released(seat)
        panel.lift_switch.on_press(lambda: self._pressed(LIFT))
        panel.lift_switch.button.when_released = lambda: self._released(LIFT)

    def _pressed(self, seat: int) -> None:
        with self._lock:
            self._down[seat] = self.clock()

    def _released(self, seat: int) -> None:
        """The press ends: its length makes a seat's press a claim or a hu, the lift switch's a lift or (held
        ``VOID_HOLD_S``) the dealer's void. A release with no accepted press (contact bounce, or a press the
        debouncer dropped) is nothing."""
        with self._lock:
            down = self._down.pop(seat, None)
        if down is None:
            return
        held = self.clock() - down
        if seat == LIFT:
            self.presses.put(Press(Button.VOID if held >= VOID_HOLD_S else Button.LIFT, self.dealer))
        else:
            self.presses.put(Press(Button.HU if held >= self.hu_hold_s else Button.CLAIM, seat))

    def take(self) -> Press | None:
        """The next press, or None when there is none."""
        try:
            return self.presses.get_nowait()
        except queue.Empty:
            return None

    def wait(self, button: Button, stop: threading.Event, poll_s: float = 0.05) -> Press | None:
        """The next press of ``button`` (others pressed meanwhile are dropped: a claim before the deal claims
        nothing); None once ``stop`` is set."""
        while not stop.is_set():
            try:
                press = self.presses.get(timeout=poll_s)
            except queue.Empty:
                continue
            if press.button is button:
                return press
        return None


class SimClock:
    """The simulated players' time: it moves only when a hand presses or lets go."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


GAP_S = 0.5
"""Time between two presses of the simulated hands: well above any debounce time."""


class SimHands:
    """The fingers of the simulated table's players on the MockFactory pins and the simulated MCU's dice keys."""

    def __init__(
        self, factory: Any, gpio: GpioConfig, press_key: Callable[[int, bool], None], hu_hold_s: float
    ) -> None:
        self.factory = factory
        self.gpio = gpio
        self.press_key = press_key
        self.hu_hold_s = hu_hold_s
        self.clock = SimClock()

    def _tap(self, pin: Any, hold_s: float) -> None:
        self.clock.now += GAP_S
        mock = self.factory.pin(pin)
        mock.drive_low()
        self.clock.now += hold_s
        mock.drive_high()

    def seat(self, seat: int, hu: bool = False) -> None:
        """A seat's button: a short press (a claim), or held for a hu."""
        self._tap(self.gpio.seat_buttons[seat], self.hu_hold_s + 0.2 if hu else 0.2)

    def lift(self) -> None:
        self._tap(self.gpio.lift_switch, 0.2)

    def void(self) -> None:
        """The dealer holds the lift switch: the hand in play is given up."""
        self._tap(self.gpio.lift_switch, VOID_HOLD_S + 0.5)

    def dice_key(self, seat: int, held: bool) -> None:
        self.press_key(seat, held)
