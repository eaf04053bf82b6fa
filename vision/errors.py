"""The vision package's exceptions: each names the file, field or frame that is wrong."""

from __future__ import annotations

from engine.errors import MjtableError


class VisionError(MjtableError):
    """Base of every error the vision package raises on purpose."""


class ImageError(VisionError):
    """An image file that is missing or cannot be decoded."""


class LabelsError(VisionError):
    """A labels CSV that is missing, has the wrong columns, or names an unknown code or file (with its line)."""


class ModelError(VisionError):
    """A model directory that is missing or does not hold a readable model."""


class CaptureError(VisionError):
    """A camera or replay source that cannot be opened or read."""


class CalibrationError(VisionError):
    """Table geometry that cannot be computed or read: markers not found, bad corners, bad configuration."""
