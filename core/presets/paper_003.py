"""Presets of paper 003: Guan, Liu, Zhang, Tao & Davis, Truncated Cauchy Non-negative Matrix Factorization, IEEE TPAMI 2019: Truncated Cauchy NMF against NMF and Cauchy NMF.

See :mod:`core.presets`; settings, notes and claims are in the lesson files
``core/lessons/files/papers/003-*.toml``; the numbers behind them are printed by
``benchmarks/papers/paper_003.py``.
"""
from . import of_paper

PAPER = "Guan, Liu, Zhang, Tao & Davis, Truncated Cauchy Non-negative Matrix Factorization, IEEE TPAMI 2019"

PRESETS = of_paper("003")
