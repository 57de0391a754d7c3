"""Timing helpers shared by the benchmark scripts (``python benchmarks/bench_x.py`` puts this
folder on ``sys.path``, so the scripts ``import _timing``).

Machines are noisy (and this one is shared): every helper returns a median, and the scripts
only compare ratios measured in the same run.
"""
from __future__ import annotations

import time

import numpy as np


def median_time(fn, repeat):
    """Median wall-clock time in seconds of ``repeat`` calls of ``fn()``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def svd_time(X, repeat):
    """Median time of one thin SVD, ``numpy.linalg.svd(X, full_matrices=False)``."""
    return median_time(lambda: np.linalg.svd(X, full_matrices=False), repeat)


def time_steps(est, state, warmup, repeat, stop_warmup_when_finished=False):
    """Step ``est`` ``warmup`` times from ``state`` (fewer if ``stop_warmup_when_finished`` and
    its stopping rule is met), then time ``repeat`` more steps one by one.

    Returns (median seconds per step, the ``rank`` scalar of every timed state, the last state).
    """
    for _ in range(warmup):
        if stop_warmup_when_finished and est.finished(state):
            break
        state = est.step(state)
    times, ranks = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        state = est.step(state)       # keeps stepping past convergence if need be: same cost
        times.append(time.perf_counter() - t)
        ranks.append(int(state.scalars["rank"]))
    return float(np.median(times)), ranks, state
