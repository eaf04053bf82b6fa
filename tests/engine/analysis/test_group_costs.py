"""``group_costs`` run from the last rank back with its suffixes shared (issue 30) gives exactly what the forward
rank-by-rank programme it replaced gives, for suits, honors and 十万's ten-rank suits, any caps and pair ranks."""

from __future__ import annotations

import random

import pytest

from engine.analysis.shanten import INF, _choices, group_costs


def forward_costs(key: tuple[int, ...], chows: bool, caps: tuple[int, ...], pairs: tuple[bool, ...]) -> tuple:
    """The programme as it was: states (chows one and two ranks back, sets, pair) carried from the first rank."""
    size = len(key)
    states = {(0, 0, 0, 0): 0}
    for r in range(size):
        held, cap = key[r], caps[r]
        chow_limit = max(key[r : r + 3]) if chows and r <= size - 3 else 0
        following: dict[tuple[int, int, int, int], int] = {}
        for (back1, back2, sets, pair), cost in states.items():
            for new_chows, new_sets, new_pair, used in _choices(
                chow_limit, pairs[r] and not pair, back1 + back2, held, cap
            ):
                if sets + new_sets <= 4:
                    total = cost + (used - held if used > held else 0)
                    state = (new_chows, back1, sets + new_sets, pair + new_pair)
                    if total < following.get(state, INF):
                        following[state] = total
        states = following
    costs = [INF] * 10
    for (_, _, sets, pair), cost in states.items():
        costs[2 * sets + pair] = min(costs[2 * sets + pair], cost)
    return tuple(costs)


@pytest.mark.parametrize(("chows", "size"), [(True, 9), (False, 7), (True, 10)])
def test_group_costs_are_the_forward_programmes(chows: bool, size: int) -> None:
    rng = random.Random(size)
    variants = [
        ((4,) * size, (True,) * size),
        (tuple(3 if r % 3 == 1 else 4 for r in range(size)), tuple(r % 2 == 0 for r in range(size))),
        ((3,) * size, (False,) * size),
        (tuple(rng.randint(0, 4) for _ in range(size)), tuple(rng.random() < 0.5 for _ in range(size))),
    ]
    checked = 0
    for caps, pairs in variants:
        for _ in range(500):
            key = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
            if sum(key) <= 14:
                assert group_costs(key, chows, caps, pairs) == forward_costs(key, chows, caps, pairs), (key, caps)
                checked += 1
    assert checked > 1000
