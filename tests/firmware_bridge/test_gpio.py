"""GPIO on gpiozero's MockFactory: dealer-lamp patterns on the pins, debounced buttons, the interlock."""

import statistics
import time

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.config import GpioConfig
from firmware_bridge.errors import ConfigError
from firmware_bridge.gpio import DealerLamps, Debouncer, Panel, host_pin_factory
from firmware_bridge.messages import LampPattern

CONFIG = GpioConfig()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory():
    made = MockFactory()
    yield made
    made.reset()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def panel(factory, clock):
    made = Panel(CONFIG, pin_factory=factory, clock=clock)
    yield made
    made.close()


def led_states(factory):
    return [factory.pin(pin).state for pin in (*CONFIG.dealer_leds, CONFIG.wind_led)]


def test_dealer_lamp_steady_on_the_dealer_seat_only(panel, factory):
    panel.lamps.show_dealer(2)
    assert led_states(factory) == [False, False, True, False, True]
    panel.lamps.show_dealer(0, wind=False)
    assert led_states(factory) == [True, False, False, False, False]


def test_blink_pattern_on_the_pin(panel, factory):
    pin = factory.pin(CONFIG.dealer_leds[1])
    pin.clear_states()
    panel.lamps.set(1, LampPattern.BLINK, period_s=0.2)
    time.sleep(0.75)
    panel.lamps.set(1, LampPattern.OFF)
    states = [change.state for change in pin.states]
    gaps = [change.timestamp for change in pin.states]  # MockPin times each state from the one before
    assert states[:6] == [False, True, False, True, False, True]  # starts dark, then on/off every half period
    assert len(states) >= 7
    assert statistics.median(gaps[2:]) == pytest.approx(0.1, abs=0.03)
    assert pin.state is False
    assert panel.lamps.patterns[1] is LampPattern.OFF


def test_test_number_in_binary(panel, factory):
    panel.lamps.show_number(6)
    assert led_states(factory)[:4] == [False, True, True, False]


def test_seat_buttons_are_debounced_with_the_injected_clock(panel, factory, clock):
    pressed = []
    panel.on_seat_button(pressed.append)
    pin = factory.pin(CONFIG.seat_buttons[1])
    pin.drive_low()
    pin.drive_high()
    clock.now += 0.005  # contact bounce: inside the 30 ms hold
    pin.drive_low()
    pin.drive_high()
    assert pressed == [1]
    clock.now += 0.05
    pin.drive_low()
    factory.pin(CONFIG.seat_buttons[3]).drive_low()
    assert pressed == [1, 1, 3]


def test_lift_switch_and_interlock(panel, factory):
    events = []
    panel.lift_switch.on_press(lambda: events.append("lift"))
    panel.on_interlock_open(lambda: events.append("stop"))
    interlock = factory.pin(CONFIG.interlock)
    interlock.drive_low()
    assert panel.lid_closed
    factory.pin(CONFIG.lift_switch).drive_low()
    interlock.drive_high()
    assert events == ["lift", "stop"]
    assert not panel.lid_closed


def test_off_the_pi_the_host_factory_is_mock():
    made = host_pin_factory()
    try:
        assert isinstance(made, MockFactory)
    finally:
        made.reset()


def test_debouncer_alone():
    clock = FakeClock()
    debounce = Debouncer(0.03, clock)
    assert debounce.accept()
    clock.now += 0.029
    assert not debounce.accept()
    clock.now += 0.002
    assert debounce.accept()


def test_a_bad_pin_names_the_key(factory):
    with pytest.raises(ConfigError, match=r"gpio\.dealer_leds\[3\]: cannot use pin 99"):
        DealerLamps(GpioConfig(dealer_leds=(5, 6, 13, 99)), pin_factory=factory)
    with pytest.raises(ConfigError, match=r"gpio\.interlock: cannot use pin 'NOPE'"):
        Panel(GpioConfig(interlock="NOPE"), pin_factory=factory)
