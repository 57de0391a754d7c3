"""Presets of paper 004 (see :mod:`core.presets`)."""
from . import Preset  # noqa: F401

PRESETS: list = []
