"""Presets of paper 000: Oh & Kwak, "Generalized mean for robust principal component analysis",
Pattern Recognition 2016 (see :mod:`core.presets`; settings and notes in the lesson files
``core/lessons/files/papers/000-*.toml``).

The face experiments use the 100 built-in LFW faces (25 × 25) in place of the paper's 800 Color
FERET faces (40 × 50). The numbers behind the notes are printed by ``benchmarks/papers/paper_000.py``.
"""
from . import get, of_paper

PAPER = "Oh & Kwak, Generalized mean for robust principal component analysis, Pattern Recognition 2016"

PRESETS = of_paper("000")

_lesson = get("default-lesson")
#: The app's opening lesson (the lesson file ``000-1-default-lesson.toml`` says why these values).
DEFAULT_LESSON = dict(
    data=_lesson.data,
    corruption=_lesson.corruption,
    corruption_params=dict(_lesson.corruption_params),
    n_components=dict(_lesson.methods[1][1])["n_components"],
    p=dict(_lesson.methods[1][1])["p"],
)
