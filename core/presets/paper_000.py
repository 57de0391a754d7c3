"""Presets of paper 000 (see :mod:`core.presets`)."""
from . import Preset  # noqa: F401

PRESETS: list = []
