"""Presets of paper 001 (see :mod:`core.presets`)."""
from . import Preset  # noqa: F401

PRESETS: list = []
