"""Longer noise runs (``-m slow``): random noise mixes, and a thousand commands at 5 % corruption, 10 % loss."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.config import BridgeConfig, LinkConfig
from hw_tests.faults import Noise
from hw_tests.harness import simulated_table
from hw_tests.soak import soak

FAST = BridgeConfig(link=LinkConfig(min_rto_s=0.005))

noises = st.builds(
    Noise,
    corrupt=st.floats(0, 0.05),
    drop=st.floats(0, 0.10),
    duplicate=st.floats(0, 0.2),
    delay=st.floats(0, 0.2),
    delay_s=st.floats(0.001, 0.03),
)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noises, st.integers(0, 2**16))
def test_any_noise_mix_runs_every_command_once_in_order(noise, seed):
    with simulated_table(FAST, seed=seed, noise=noise) as (sim, table):
        for token in range(80):
            table.nop(token)
        assert sim.tokens() == list(range(80))


@pytest.mark.slow
def test_a_thousand_commands_at_five_percent_corruption_and_ten_percent_loss():
    result = soak(1000, corrupt=0.05, drop=0.10, seed=21)
    assert (result["executed"], result["duplicates"], result["lost"], result["in_order"]) == (1000, 0, 0, True)
    assert result["link_downs"] == 0
