"""Every number option of every ruleset has a range (issue 16: ``base`` took NaN, Infinity and 1e308, whose answers
were not JSON and whose payments stopped summing to 0; MCR's ``minimum`` took -5)."""

from __future__ import annotations

import math

import pytest

from engine.errors import RulesetError
from engine.rulesets.registry import all_rulesets, get_ruleset

NUMBER_OPTIONS = [
    (cls.id, spec)
    for cls in all_rulesets()
    for spec in cls.option_specs
    if spec.choices is None and {int, float} & set(spec.types)
]


def test_there_are_number_options_to_check():
    assert {"base", "minimum", "bird_count", "cap_fan"} <= {spec.key for _, spec in NUMBER_OPTIONS}


@pytest.mark.parametrize(("rules", "spec"), NUMBER_OPTIONS, ids=lambda item: getattr(item, "key", item))
def test_each_number_option_has_a_range_holding_its_default_and_refuses_what_lies_outside(rules, spec):
    assert spec.span is not None, f"{rules}: option {spec.key} has no range"
    low, high = spec.span
    assert low <= spec.default <= high
    assert get_ruleset(rules, {spec.key: spec.types[0](high)}).options[spec.key] == high
    outside = [low - 1, high + 1, -math.inf, math.inf, math.nan] + ([1e308] if float in spec.types else [])
    for value in outside:
        given = int(value) if float not in spec.types and math.isfinite(value) else value
        with pytest.raises(RulesetError, match=rf"option '{spec.key}' = .* is not allowed; expected .*{low:g}"):
            get_ruleset(rules, {spec.key: given})
