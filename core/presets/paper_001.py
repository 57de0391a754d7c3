"""Presets of paper 001: Nie, Yuan & Huang, Optimal mean robust principal component analysis, ICML 2014: the reweighted part (RPCA-OM, ℓ2,p-PCA-OM).

See :mod:`core.presets`; settings, notes and claims are in the lesson files
``core/lessons/files/papers/001-*.toml``; the numbers behind them are printed by
``benchmarks/papers/paper_001.py``.
"""
from . import of_paper

PAPER = "Nie, Yuan & Huang, Optimal mean robust principal component analysis, ICML 2014"

PRESETS = of_paper("001")
