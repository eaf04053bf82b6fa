"""Overhead-camera recognition of discards (not yet built: see the vision issue)."""
