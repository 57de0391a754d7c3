"""How fast a step stops when asked (issue target: Pause within 100 ms at any data size).

For each subspace/NMF method of the catalogue: start on the data, then run one step in a
thread inside ``core.interrupt.cancellable(event)``, set the event after a random fraction of
a typical step's time, and measure the time from ``event.set()`` to the thread ending. Prints,
per method, the typical step time and the worst and median stop latency over ``--trials``;
the last column compares the worst latency to the 100 ms target.

Run:  OMP_NUM_THREADS=1 python benchmarks/bench_cancel.py [--size 48] [--n 5000] [--trials 5]
"""
from __future__ import annotations

import argparse
import random
import statistics
import threading
import time
import warnings

import numpy as np

from robust_subspace_lab.core import catalogue, datasets, interrupt

TARGET_MS = 100.0


def latency(est, state, delay: float) -> float:
    """Seconds from the cancel request to the end of the interrupted step (0 if it finished first)."""
    event = threading.Event()
    ended = []

    def work():
        with interrupt.cancellable(event):
            try:
                est.step(state)
            except interrupt.Cancelled:
                pass
        ended.append(time.perf_counter())

    t = threading.Thread(target=work)
    t.start()
    t.join(delay)
    if not t.is_alive():
        return 0.0
    asked = time.perf_counter()
    event.set()
    t.join()
    return ended[0] - asked


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=48, help="digits resized to size × size")
    ap.add_argument("--n", type=int, default=5000, help="number of digits (at most 5,000)")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--methods", nargs="*", default=None)
    args = ap.parse_args(argv)
    X = datasets.mnist_digits(size=(args.size, args.size)).images.reshape(-1, args.size ** 2)[: args.n]
    X = np.asarray(X, dtype=float)
    rng = random.Random(0)
    print(f"data: {X.shape[0]} digits × {X.shape[1]} px; target: stop within {TARGET_MS:.0f} ms")
    print(f"{'method':<22}{'step s':>9}{'worst ms':>10}{'median ms':>11}  verdict")
    worst_all = 0.0
    for info in catalogue.methods("subspace"):
        if args.methods and info.key not in args.methods:
            continue
        est = info.create(**{k: v for k, v in {"n_components": 10}.items() if k in info.defaults()})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                state = est.start(X)
                t0 = time.perf_counter()
                est.step(state)
                step_s = time.perf_counter() - t0
            except Exception as exc:      # a method that cannot run here is reported, not hidden
                print(f"{info.key:<22}  cannot run: {exc}")
                continue
            lat = [latency(est, state, rng.uniform(0.1, 0.9) * step_s) * 1000 for _ in range(args.trials)]
        worst = max(lat)
        worst_all = max(worst_all, worst)
        verdict = "ok" if worst <= TARGET_MS else f"{worst / TARGET_MS:.1f}× the target"
        print(f"{info.key:<22}{step_s:9.3f}{worst:10.1f}{statistics.median(lat):11.1f}  {verdict}")
    print(f"worst over all methods: {worst_all:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
