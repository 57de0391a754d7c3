"""Time one ALM iteration of PCP, Outlier Pursuit and CRPCA-OM against one thin SVD of X.

Target: one iteration at n_samples = 1000, n_features = 2000 costs at most 1.5 ×
``numpy.linalg.svd(X, full_matrices=False)`` measured in the same run. The median is taken over
``--repeat`` iterations after ``--warmup`` iterations (when the rank has settled); the rank of
the low-rank part is printed with it. Each method is timed twice: as shipped (partial SVD with
rank prediction when the rank is low) and with the exact thin SVD forced every iteration.
Machines are noisy (and this one is shared): only ratios measured in one run are compared.

    python benchmarks/bench_convex.py [--n 1000] [--d 2000] [--rank 20] [--gamma 5] [--repeat 7]
"""
from __future__ import annotations

import argparse

import numpy as np

from core.methods import convex
from core.methods.convex import CRPCAOM, PCP, OutlierPursuit

from _timing import svd_time, time_steps

TARGET = 1.5


def make_data(n, d, rank, seed=0):
    """Low-rank 'images' on 0–255, 5 % of the entries replaced by 0 or 255 (sparse errors) and
    5 % of the samples replaced by random 0/255 dots (outlying samples)."""
    rng = np.random.default_rng(seed)
    X = 128 + rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d)) * (40 / np.sqrt(rank))
    X = np.clip(X, 0, 255)
    hit = rng.random((n, d)) < 0.05
    X[hit] = 255.0 * (rng.random(hit.sum()) < 0.5)
    out = rng.random(n) < 0.05
    X[out] = 255.0 * (rng.random((out.sum(), d)) < 0.5)
    return X


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--d", type=int, default=2000)
    ap.add_argument("--rank", type=int, default=20)
    ap.add_argument("--gamma", type=float, default=5.0, help="γ of Outlier Pursuit and CRPCA-OM")
    ap.add_argument("--warmup", type=int, default=25)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    X = make_data(a.n, a.d, a.rank)
    t_svd = svd_time(X, a.repeat)
    print(f"X: {a.n} samples × {a.d} features, planted rank {a.rank}, 0–255")
    print(f"thin SVD (numpy.linalg.svd, full_matrices=False): {t_svd * 1e3:8.1f} ms")
    print(f"median of {a.repeat} iterations after {a.warmup}; target ratio <= {TARGET}")
    methods = [("PCP", lambda: PCP()),
               (f"Outlier Pursuit (γ = {a.gamma:g})", lambda: OutlierPursuit(gamma=a.gamma)),
               (f"CRPCA-OM (γ = {a.gamma:g})", lambda: CRPCAOM(gamma=a.gamma))]
    default_min_dim = convex.PARTIAL_SVD_MIN_DIM
    for label, make in methods:
        for route, min_dim in (("as shipped", default_min_dim), ("exact SVD", 10**9)):
            convex.PARTIAL_SVD_MIN_DIM = min_dim
            try:
                est = make()
                t_step, ranks, state = time_steps(est, est.start(X), a.warmup, a.repeat,
                                                  stop_warmup_when_finished=True)
            finally:
                convex.PARTIAL_SVD_MIN_DIM = default_min_dim
            ratio = t_step / t_svd
            verdict = "OK" if ratio <= TARGET else "ABOVE TARGET"
            print(f"{label:28s} {route:10s}: {t_step * 1e3:8.1f} ms/iteration = {ratio:5.2f} × SVD  "
                  f"[{verdict}]  rank {min(ranks)}–{max(ranks)}, iteration {state.iteration}, "
                  f"primal residual {state.scalars['primal residual']:.1e}")


if __name__ == "__main__":
    main()
