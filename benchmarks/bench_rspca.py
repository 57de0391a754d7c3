"""Time RSPCA (paper 002) against PCA-L1 (Kwak 2008) on the same MNIST digits, in the same run.

Paper 002 §3.3 / Table 4: 40+ components, k = 400 nonzeros out of 784 pixels; the paper reports
RSPCA and PCA-L1 CPU times of the same order (claim 9). Data: 6000 digits × 784 pixels from
``core.datasets.mnist_digits()`` if it holds at least 6000 digits, otherwise the first 6000 of
``../shared/data/mnist-10k.npz`` (uint8 images (10000, 28, 28)); the script says which. Grey
levels 0–255, centred (the estimators' default). Prints both total times and their ratio.

    python benchmarks/bench_rspca.py [--n 6000] [--m 40] [--k 400] [--p 0.5] [--restarts 1]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import core.datasets
from core.methods.sparse_pca import PCAL1, RSPCA

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist-10k.npz"


def load_digits(n: int) -> tuple[np.ndarray, str]:
    if hasattr(core.datasets, "mnist_digits"):
        data = core.datasets.mnist_digits()
        if len(data) >= n:
            return data.X[:n], f"core.datasets.mnist_digits() (first {n} of {len(data)})"
        why = f"core.datasets.mnist_digits() has only {len(data)} digits"
    else:
        why = "core.datasets.mnist_digits() does not exist"
    if not SHARED.is_file():
        raise SystemExit(f"{why}, and {SHARED} is missing: no data set with {n} digits")
    with np.load(SHARED) as f:
        images = f["images"]
    return images[:n].reshape(n, -1).astype(np.float64), f"{SHARED} (first {n} of {len(images)}; {why})"


def timed(est, X):
    t = time.perf_counter()
    est.fit(X)
    return time.perf_counter() - t, est


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--m", type=int, default=40, help="number of components")
    ap.add_argument("--k", type=int, default=400, help="nonzeros per RSPCA component")
    ap.add_argument("--p", type=float, default=0.5)
    ap.add_argument("--restarts", type=int, default=1, help="random restarts besides the PCA and all-ones starts")
    a = ap.parse_args(argv)
    X, source = load_digits(a.n)
    print(f"data: {source}")
    print(f"X: {X.shape[0]} digits × {X.shape[1]} pixels, {a.m} components")
    t_l1, l1 = timed(PCAL1(n_components=a.m), X)
    print(f"PCA-L1                               : {t_l1:7.2f} s  ({l1.n_iter_} steps)")
    t_rs, rs = timed(RSPCA(n_components=a.m, k_nonzero=a.k, p=a.p, restarts=a.restarts), X)
    starts = 2 + a.restarts
    print(f"RSPCA p = {a.p:g}, k = {a.k}, {starts} starts/component: {t_rs:7.2f} s  ({rs.n_iter_} steps, "
          f"{np.count_nonzero(rs.components_, axis=1).mean():.0f} nonzeros per component)")
    print(f"ratio RSPCA / PCA-L1: {t_rs / t_l1:.2f}  (per start: {t_rs / t_l1 / starts:.2f})")


if __name__ == "__main__":
    main()
