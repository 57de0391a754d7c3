"""Presets of paper 002: Zhao, Meng & Xu, Robust sparse principal component analysis, Sci. China Inf. Sci. 2014: RSPCA with the paper's experimental starts (all-ones and random, ``pca_start=False``).

See :mod:`core.presets`; settings, notes and claims are in the lesson files
``core/lessons/files/papers/002-*.toml``; the numbers behind them are printed by
``benchmarks/papers/paper_002.py``.
"""
from . import of_paper

PAPER = "Zhao, Meng & Xu, Robust sparse principal component analysis, Sci. China Inf. Sci. 2014"

PRESETS = of_paper("002")
