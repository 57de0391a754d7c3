"""The :class:`Preset` record (see :mod:`core.presets`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Preset:
    """One reproducible setting of a paper.

    Attributes
    ----------
    key : unique identifier, ``"paper000-table2"``.
    title : menu text, e.g. ``"Paper 000 · Table 2: faces with occlusions"``.
    paper : citation of the paper (authors, title, venue, year).
    reproduces : which table/figure/claim of the paper, in words.
    task : ``"subspace"`` (method columns) or ``"regression"`` (regression workspace).
    data : ``("builtin", name)``, or ``("toy", key)`` for :mod:`core.toys`.
    data_params : keyword arguments of the loader (``{"size": (28, 28)}``) or of the toy.
    corruption : a key of :data:`core.corruption.CORRUPTIONS` (``"none"`` for clean data;
        ignored for toys, which carry their own outliers).
    corruption_params : its parameters (the seed included).
    methods : ``(catalogue key, parameters)`` per column, left to right.
    steps : how many iterations to run after applying the preset (``0``: run to convergence).
    note : what to look at, and how our numbers compare with the paper's (one or two sentences).
    """

    key: str
    title: str
    paper: str
    reproduces: str
    task: str
    data: tuple[str, str]
    methods: tuple[tuple[str, dict[str, Any]], ...]
    data_params: dict[str, Any] = field(default_factory=dict)
    corruption: str = "none"
    corruption_params: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    note: str = ""
