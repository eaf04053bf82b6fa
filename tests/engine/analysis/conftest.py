"""Build the static tables once before any test, so a hypothesis deadline never counts the one-off build."""

from __future__ import annotations

import pytest

from engine.analysis.suit_tables import group_table


@pytest.fixture(autouse=True, scope="session")
def _tables_built() -> None:
    group_table(True), group_table(False)
