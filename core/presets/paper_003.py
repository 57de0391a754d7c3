"""Presets of paper 003 (see :mod:`core.presets`)."""
from . import Preset  # noqa: F401

PRESETS: list = []
