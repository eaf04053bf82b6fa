"""Overhead-camera recognition of the discards: capture, calibration, detection, classification, tracking,
and the scene renderer that stands in for a camera in simulation and tests."""
