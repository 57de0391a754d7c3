"""Every catalogue method at its defaults on every built-in data set: does it reach its stopping
rule before ``max_iter``, in how many iterations and seconds?

    python benchmarks/convergence_table.py            # faces, 2,000 digits, the 3-D example
    python benchmarks/convergence_table.py --full     # all 5,000 digits
    python benchmarks/convergence_table.py --methods pca-gm,tc-nmf

Prints a Markdown table (the methods table of docs/methods.md takes its iterations and seconds from it):
method, data, iterations, seconds, how the run ended (converged / max_iter / diverged: reason).
Subspace methods run on the data with the app's default corruption; regression methods on the
§5.1 synthetic 3-D example (paper 004) and on digits (50 per class) with the §5.3 black square.
One BLAS thread, so that the seconds compare across machines' core counts.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from threadpoolctl import threadpool_limits  # noqa: E402

from robust_subspace_lab.core import catalogue, corruption, datasets  # noqa: E402
from robust_subspace_lab.core.errors import DataError, SolverError  # noqa: E402
from robust_subspace_lab.core.regression import data as rdata  # noqa: E402


def subspace_sets(full: bool):
    faces = datasets.lfw_faces()
    digits = datasets.mnist_digits()
    if not full:
        digits = datasets.ImageSet(images=digits.images[:2000], labels=digits.labels[:2000],
                                   names=digits.names[:2000], source=digits.source)
    key = "rectangles"
    return {f"faces {len(faces)}×{faces.X.shape[1]}, {key}": corruption.corrupt(faces, key, seed=0),
            f"digits {len(digits)}×{digits.X.shape[1]}, {key}": corruption.corrupt(digits, key, seed=0)}


def regression_sets():
    synth = rdata.synthetic_3d(seed=0)
    digits = rdata.subsample_per_class(datasets.mnist_digits(), 50, 0)
    occluded = corruption.corrupt(digits, "black_square", seed=0)
    return {"synthetic 3-D (§5.1)": synth,
            "digits 500, black square": rdata.regression_data(occluded, seed=0, task="classification")}


def run(est, args) -> tuple[int, float, str]:
    t = time.perf_counter()
    state = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for state in est.iterate(*args):
                pass
    except SolverError as exc:
        return (exc.iteration or 0), time.perf_counter() - t, f"diverged: {exc.reason}"
    except DataError as exc:
        return 0, time.perf_counter() - t, f"refused: {exc}"
    seconds = time.perf_counter() - t
    kind = est.status(state)
    return state.iteration, seconds, {"converged": "converged", "max_iter": "**max_iter**"}.get(kind, kind)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="all 5,000 built-in digits")
    ap.add_argument("--methods", default="", help="comma-separated catalogue keys (default: all)")
    opts = ap.parse_args()
    wanted = set(filter(None, opts.methods.split(",")))
    print("| method | data | iterations | seconds | ended |")
    print("| --- | --- | --- | --- | --- |")
    with threadpool_limits(1):
        for name, data in subspace_sets(opts.full).items():
            for info in catalogue.methods("subspace"):
                if wanted and info.key not in wanted:
                    continue
                it, sec, how = run(info.create(), (data.X,))
                print(f"| {info.name} | {name} | {it} | {sec:.2f} | {how} |", flush=True)
        for name, data in regression_sets().items():
            for info in catalogue.methods("regression"):
                if wanted and info.key not in wanted:
                    continue
                est = info.create()
                if est._classifier and data.labels is None:
                    continue                       # a classifier needs class labels
                train = data.train
                y = data.labels[train] if est._classifier else data.Y[train]
                it, sec, how = run(est, (data.X[train], y))
                print(f"| {info.name} | {name} | {it} | {sec:.2f} | {how} |", flush=True)


if __name__ == "__main__":
    main()
