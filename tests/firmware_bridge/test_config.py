"""Configuration: defaults run the simulated table; every bad value names its key."""

import pytest

from firmware_bridge.config import BridgeConfig, McuConfig
from firmware_bridge.errors import ConfigError


def test_defaults_round_trip_and_build_a_136_tile_table():
    config = BridgeConfig()
    assert BridgeConfig.from_dict(config.to_dict()) == config
    assert config.mcu.wall_tiles == (34, 34, 34, 34)
    assert McuConfig(tile_set="144").wall_tiles == (36, 36, 36, 36)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"mcu": {"tile_set": "99"}}, r"bridge\.mcu\.tile_set: unknown tile set '99'"),
        ({"mcu": {"colour": 1}}, r"bridge\.mcu\.colour: unknown key"),
        ({"gpio": {"seat_buttons": [1, 2, 3]}}, r"bridge\.gpio\.seat_buttons: expected 4 pins"),
        ({"gpio": {"wind_led": 5}}, r"bridge\.gpio\.wind_led: pin 5 is already used by dealer_leds\[0\]"),
        ({"gpio": {"interlock": True}}, r"bridge\.gpio\.interlock: expected a pin number"),
        ({"link": {"baud": "fast"}}, r"bridge\.link\.baud: expected a number"),
        ({"link": {"max_rto_s": 0.001}}, r"bridge\.link\.max_rto_s"),
        ({"serial": {}}, r"bridge\.serial: unknown section"),
        ({"link": 3}, r"bridge\.link: expected a table"),
    ],
)
def test_bad_values_name_the_key(data, words):
    with pytest.raises(ConfigError, match=words):
        BridgeConfig.from_dict(data)
