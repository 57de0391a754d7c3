"""The :class:`Preset` record (see :mod:`core.presets`); defined with the lessons it is made from
(:class:`core.lessons.Preset`)."""
from __future__ import annotations

from ..lessons.model import Preset

__all__ = ["Preset"]
