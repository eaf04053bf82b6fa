"""Errors of the hardware harness: a fault plan or noise setting the simulator cannot use, naming the field."""

from __future__ import annotations

from engine.errors import MjtableError


class HarnessError(MjtableError, ValueError):
    """A simulator setting out of range (``Noise.drop``, ``Jam.side``); says which and what was given."""
