"""Paper presets: the data, corruption and methods that reproduce one table or figure of a paper.

Each preset is the first step of a paper lesson (``core/lessons/files/papers/*.toml``, one file
per preset, :mod:`core.lessons`): the lesson files are the one source of the settings, the text
(the preset's ``note``) and the claims checked on the result. A :class:`Preset` is plain data,
so the app's *Presets* menu, the scripts in ``benchmarks/papers/`` and a notebook all read the
same settings::

    from robust_subspace_lab.core import presets
    for p in presets.PRESETS:
        print(p.key, p.title)

``paper_000`` ... ``paper_004`` list each paper's presets.
"""
from __future__ import annotations

from .. import lessons
from .preset import Preset


__all__ = ["Preset", "PRESETS", "get", "of_paper"]

#: every paper preset, in the order of the lesson files (paper, then figure/table)
PRESETS: tuple[Preset, ...] = tuple(lesson.preset(0) for lesson in lessons.papers())


def of_paper(number: str) -> list[Preset]:
    """The presets of paper ``number`` ("000" ... "004"): keys ``paper<number>-...`` (and the
    app's opening lesson, ``default-lesson``, for paper 000)."""
    return [p for p in PRESETS if p.key.startswith(f"paper{number}-") or (number == "000" and p.key == "default-lesson")]


def get(key: str) -> Preset:
    """The preset ``key``; KeyError naming the known keys otherwise."""
    for p in PRESETS:
        if p.key == key:
            return p
    raise KeyError(f"unknown preset {key!r}; known: {[p.key for p in PRESETS]}")
