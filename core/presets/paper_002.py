"""Presets of paper 002 (see :mod:`core.presets`)."""
from . import Preset  # noqa: F401

PRESETS: list = []
