"""Time one iteration of each reweighted PCA method against one thin SVD of the same matrix.

Target: one iteration of PCA-GM, RPCA-OM, ℓ2,p-PCA-OM, R1-PCA and HQ-PCA at n_samples = 1000,
n_features = 2000, k = 40 costs at most 0.25 × ``numpy.linalg.svd(X, full_matrices=False)``
measured in the same run (machines are noisy; only ratios measured together are compared).

    python benchmarks/bench_reweighted.py [--n 1000] [--d 2000] [--k 40] [--repeat 5]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from robust_subspace_lab.core import catalogue

from _timing import median_time, svd_time

METHODS = [("pca-gm", {"p": 0.3}), ("rpca-om", {}), ("l2p-pca-om", {"p": 0.5}),
           ("r1-pca", {}), ("hq-pca", {})]


def make_data(n, d, seed=0):
    """Low-rank 'images' on 0–255 plus 20% outlier rows of random 0/255 dots."""
    rng = np.random.default_rng(seed)
    X = 128 + rng.standard_normal((n, 30)) @ rng.standard_normal((30, d)) * 8 + rng.standard_normal((n, d)) * 4
    out = rng.random(n) < 0.2
    X[out] = (rng.random((out.sum(), d)) < 0.5) * 255.0
    return np.clip(X, 0, 255)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--d", type=int, default=2000)
    ap.add_argument("--k", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    X = make_data(a.n, a.d)
    t_svd = svd_time(X, a.repeat)
    print(f"X: {a.n} samples × {a.d} features, k = {a.k}")
    print(f"thin SVD (numpy.linalg.svd, full_matrices=False): {t_svd * 1e3:8.1f} ms")
    worst = 0.0
    for key, params in METHODS:
        est = catalogue.create(key, n_components=a.k, **params)
        name = est.name + "".join(f" ({k} = {v})" for k, v in params.items())
        t0 = time.perf_counter()
        state = est.start(X)
        t_start = time.perf_counter() - t0
        holder = [state]

        def one_step():
            holder[0] = est.step(holder[0])

        t_step = median_time(one_step, a.repeat)
        ratio = t_step / t_svd
        worst = max(worst, ratio)
        verdict = "OK" if ratio <= 0.25 else "ABOVE TARGET"
        print(f"{name:22s} start: {t_start * 1e3:8.1f} ms   one iteration: {t_step * 1e3:8.1f} ms   "
              f"ratio to SVD: {ratio:.3f} (target <= 0.25: {verdict})")
    print(f"worst ratio: {worst:.3f}")


if __name__ == "__main__":
    main()
