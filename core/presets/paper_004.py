"""Presets of paper 004: Huang, Cabral & De la Torre, Robust Regression, IEEE TPAMI 38(2), 2016: regression presets open the Regression workspace (``data = ("regression", source)``).

See :mod:`core.presets`; settings, notes and claims are in the lesson files
``core/lessons/files/papers/004-*.toml``; the numbers behind them are printed by
``benchmarks/papers/paper_004.py``.
"""
from . import of_paper

PAPER = "Huang, Cabral & De la Torre, Robust Regression, IEEE TPAMI 38(2), 2016"

PRESETS = of_paper("004")
