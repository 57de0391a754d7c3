"""Issue 12 point 2: one ALM iteration of PCP, Outlier Pursuit and CRPCA-OM at 10,000 × 4096
against scikit-learn's randomized PCA fit (k = 20) of the same data, measured in the same run.

Data: rank 20 plus Gaussian noise (sd 2 grey levels) around 128, 10 % of the rows replaced by
uniform 0–255 noise (outlier rows). Target: every iteration <= 2 × the PCA fit. Run on one BLAS
thread::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_convex_scale.py \\
        [--n 10000] [--d 4096] [--iterations 6] [--methods pcp,op,om] [--float32]

Prints, per method, the seconds of each of the first ``--iterations`` iterations, its rank and
the ratio of the median to the PCA fit. Machines are noisy (this one is shared): only ratios
measured in one run are compared.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.decomposition import PCA

from robust_subspace_lab.core.methods.convex import CRPCAOM, PCP, OutlierPursuit

TARGET = 2.0


def make_data(n, d, rank=20, outliers=0.1, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    X = 128 + (rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d))) * (40 / np.sqrt(rank))
    X += 2.0 * rng.standard_normal((n, d))
    out = rng.random(n) < outliers
    X[out] = rng.uniform(0, 255, (out.sum(), d))
    return X.astype(dtype)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--d", type=int, default=4096)
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--methods", default="pcp,op,om")
    ap.add_argument("--float32", action="store_true")
    ap.add_argument("--gamma", type=float, default=None,
                    help="γ of Outlier Pursuit and CRPCA-OM (default: the estimators' default)")
    a = ap.parse_args(argv)
    X = make_data(a.n, a.d, dtype=np.float32 if a.float32 else np.float64)
    t = time.perf_counter()
    PCA(n_components=20, svd_solver="randomized", random_state=0).fit(X)
    t_pca = time.perf_counter() - t
    print(f"X: {a.n} × {a.d} {X.dtype}; scikit-learn PCA(randomized, k=20).fit: {t_pca:.2f} s; "
          f"target <= {TARGET} × that per iteration", flush=True)
    makers = {"pcp": ("PCP", PCP), "op": ("Outlier Pursuit", OutlierPursuit), "om": ("CRPCA-OM", CRPCAOM)}
    for key in a.methods.split(","):
        label, cls = makers[key]
        est = cls() if key == "pcp" or a.gamma is None else cls(gamma=a.gamma)
        t = time.perf_counter()
        state = est.start(X)
        times = [time.perf_counter() - t]
        ranks = []
        for _ in range(a.iterations):
            t = time.perf_counter()
            state = est.step(state)
            times.append(time.perf_counter() - t)
            ranks.append(state.scalars["rank"])
            print(f"  {label}: iteration {state.iteration}: {times[-1]:.2f} s = {times[-1] / t_pca:.2f} × PCA, "
                  f"rank {ranks[-1]}", flush=True)
        med = float(np.median(times[1:]))
        worst = max(times[1:])
        print(f"{label:16s} start {times[0]:.2f} s; iteration median {med:.2f} s = {med / t_pca:.2f} × PCA, "
              f"worst {worst:.2f} s = {worst / t_pca:.2f} × PCA "
              f"[{'OK' if worst <= TARGET * t_pca else 'ABOVE TARGET'}]", flush=True)


if __name__ == "__main__":
    main()
