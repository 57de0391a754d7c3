"""Time one ALM iteration of PCP, Outlier Pursuit and CRPCA-OM against one thin SVD of X.

Target: one iteration at n_samples = 1000, n_features = 2000 costs at most 1.5 ×
``numpy.linalg.svd(X, full_matrices=False)`` measured in the same run. The median is taken over
``--repeat`` iterations after ``--warmup`` iterations (when the rank has settled); the rank of
the low-rank part is printed with it. Each method is timed twice: as shipped (partial SVD with
rank prediction when the rank is low) and with the exact thin SVD forced every iteration.
Machines are noisy (and this one is shared): only ratios measured in one run are compared.

    python benchmarks/bench_convex.py [--n 1000] [--d 2000] [--rank 20] [--gamma 5] [--repeat 7]

``--convergence`` instead prints the convergence table of the ALM methods at their defaults
(iterations, seconds, rank, objective gap to a long run with ρ = 1.02 and tol = 1e-10) on the
built-in faces, the first ``--digits`` built-in digits, the paper 004 §5.1 3-D example and the
digits with a black square on every image (RLDA, 15 training images per class):

    python benchmarks/bench_convex.py --convergence [--digits 1000]
"""
from __future__ import annotations

import argparse

import numpy as np

from robust_subspace_lab.core import prox
from robust_subspace_lab.core.methods.convex import CRPCAOM, PCP, OutlierPursuit

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


def convergence(n_digits: int) -> None:
    """Print the convergence table (see the module docstring)."""
    import time
    import warnings

    from robust_subspace_lab.core import corruption, datasets
    from robust_subspace_lab.core.regression import RLDA, RR, RPCALS, RRMissing, data

    faces = datasets.lfw_faces().X
    digits = datasets.mnist_digits().X[:n_digits]
    s3 = data.synthetic_3d(seed=0)
    X3m = s3.X_train.copy()
    X3m[np.random.default_rng(0).random(X3m.shape) < 0.1] = np.nan
    imgs = data.subsample_per_class(datasets.mnist_digits(), 30, 0)
    occ = data.regression_data(corruption.black_square(imgs, share=0.2, seed=0), seed=0,
                               task="classification")
    cases = [("PCP", PCP, "faces", (faces,)), ("PCP", PCP, f"digits[:{n_digits}]", (digits,)),
             ("Outlier Pursuit", OutlierPursuit, "faces", (faces,)),
             ("Outlier Pursuit", OutlierPursuit, f"digits[:{n_digits}]", (digits,)),
             ("CRPCA-OM", CRPCAOM, "faces", (faces,)), ("CRPCA-OM", CRPCAOM, f"digits[:{n_digits}]", (digits,)),
             ("RR", RR, "3-D §5.1", (s3.X_train, s3.Y_train)),
             ("RR-Missing", RRMissing, "3-D §5.1, 10 % NaN", (X3m, s3.Y_train)),
             ("RPCA+LSR", RPCALS, "3-D §5.1", (s3.X_train, s3.Y_train)),
             ("RLDA", RLDA, "digits, black squares 20 %", (occ.X_train, occ.targets_train))]
    print("| method | data | iterations | seconds | rank | converged | objective gap to converged |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, cls, where, args in cases:
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = cls().fit(*args)
            sec = time.perf_counter() - t
            ref = cls(rho=1.02, tol=1e-10, max_iter=5000).fit(*args)
        gap = (est.objective_ - ref.objective_) / max(abs(ref.objective_), 1e-300)
        rank = est.state_.scalars.get("rank", "")
        print(f"| {label} | {where} | {est.n_iter_} | {sec:.2f} | {rank} | {est.state_.converged} | "
              f"{gap:+.1e} |", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--convergence", action="store_true", help="print the convergence table instead")
    ap.add_argument("--digits", type=int, default=1000, help="digits used by --convergence")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--d", type=int, default=2000)
    ap.add_argument("--rank", type=int, default=20)
    ap.add_argument("--gamma", type=float, default=5.0, help="γ of Outlier Pursuit and CRPCA-OM")
    ap.add_argument("--warmup", type=int, default=25)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    if a.convergence:
        return convergence(a.digits)
    X = make_data(a.n, a.d, a.rank)
    t_svd = svd_time(X, a.repeat)
    print(f"X: {a.n} samples × {a.d} features, planted rank {a.rank}, 0–255")
    print(f"thin SVD (numpy.linalg.svd, full_matrices=False): {t_svd * 1e3:8.1f} ms")
    print(f"median of {a.repeat} iterations after {a.warmup}; target ratio <= {TARGET}")
    methods = [("PCP", lambda: PCP()),
               (f"Outlier Pursuit (γ = {a.gamma:g})", lambda: OutlierPursuit(gamma=a.gamma)),
               (f"CRPCA-OM (γ = {a.gamma:g})", lambda: CRPCAOM(gamma=a.gamma))]
    default_min_dim = prox.PARTIAL_SVD_MIN_DIM
    for label, make in methods:
        for route, min_dim in (("as shipped", default_min_dim), ("exact SVD", 10**9)):
            prox.PARTIAL_SVD_MIN_DIM = min_dim
            try:
                est = make()
                t_step, ranks, state = time_steps(est, est.start(X), a.warmup, a.repeat,
                                                  stop_warmup_when_finished=True)
            finally:
                prox.PARTIAL_SVD_MIN_DIM = default_min_dim
            ratio = t_step / t_svd
            verdict = "OK" if ratio <= TARGET else "ABOVE TARGET"
            print(f"{label:28s} {route:10s}: {t_step * 1e3:8.1f} ms/iteration = {ratio:5.2f} × SVD  "
                  f"[{verdict}]  rank {min(ranks)}–{max(ranks)}, iteration {state.iteration}, "
                  f"primal residual {state.scalars['primal residual']:.1e}")


if __name__ == "__main__":
    main()
