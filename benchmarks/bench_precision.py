"""Single vs double precision of a session's data (issue 12, point 4).

Two parts:

* ``metrics``: every subspace method of the catalogue (default parameters) started and stepped
  ``--steps`` times on the same data prepared in double and in single precision
  (:attr:`core.session.DataSpec.precision`), on the 100 built-in faces and the built-in digits;
  prints, per method and metric of :func:`core.views.snapshot`, the relative difference
  ``|single − double| / |double|`` (the mean angle to the clean PCA also in degrees), and the
  largest per data set.
* ``speed``: a PCA-GM step (the fastest of three) on the 5,000 digits resized to ``--size`` (96 × 96 by default), in
  a fresh process per precision, with the process's peak memory (``ru_maxrss``); the ratio
  single / double is the figure (both measured in the same run). Set the BLAS threads with
  ``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS``.

Usage::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_precision.py metrics --steps 3
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_precision.py speed
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.session import CorruptionSpec, DataSpec, prepare, solver_input
from robust_subspace_lab.core.views import snapshot

#: PCA-GM steps timed per process (the fastest is reported)
STEPS_TIMED = 3
DATA = {"faces": DataSpec("builtin", "faces", precision="double"),
        "digits": DataSpec("builtin", "digits", options={"digits": [0, 1, 7]}, precision="double")}


def metrics_of(key: str, data, steps: int) -> dict:
    est = catalogue.create(key)
    state = est.start(solver_input(est, data.X))      # as the app: one float64 copy for the NMF family
    for _ in range(steps):
        state = est.step(state)
    snap = snapshot(state, data, clustering=True)
    out = {k: v for k, v in snap.metrics.items() if v is not None}
    out["objective"] = state.objective
    return out


def compare(steps: int) -> None:
    corr = CorruptionSpec()
    for name, spec in DATA.items():
        double = prepare(spec, corr)
        single = prepare(spec.with_(precision="single"), corr)
        worst = 0.0
        print(f"== {name}: X {double.X.shape}, {steps} steps, corruption {double.description}")
        for info in catalogue.methods("subspace"):
            a, b = metrics_of(info.key, double, steps), metrics_of(info.key, single, steps)
            parts = []
            for metric, va in a.items():
                vb = b.get(metric)
                if vb is None or not np.isfinite(va):
                    parts.append(f"{metric}: {va} / {vb}")
                    continue
                rel = abs(vb - va) / max(abs(va), 1e-300)
                if metric != "objective":
                    worst = max(worst, rel)
                extra = f" ({abs(vb - va):.1e}°)" if "angle" in metric else ""
                parts.append(f"{metric} {rel:.1e}{extra}")
            print(f"{info.key:16s} " + "; ".join(parts), flush=True)
        print(f"   largest relative difference of a metric on {name}: {worst:.1e}")


def _hwm_gb() -> float:
    """Peak resident memory since the last :func:`_reset_hwm` (Linux ``VmHWM``), GiB."""
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    return kib / 1024 ** 2


def _reset_hwm() -> None:
    """Start the peak over from the current resident memory (Linux ``clear_refs`` 5)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _one_step(precision: str, size: int) -> None:
    """Child: prepare the digits at size × size, start PCA-GM, time one step; print JSON with the
    process's peak memory (preparing the data included) and the peak from after the data were
    prepared (the start and the step: what the columns add to the data)."""
    spec = DataSpec("builtin", "digits", size=(size, size), precision=precision)
    data = prepare(spec, CorruptionSpec())
    prep_peak = _hwm_gb()
    _reset_hwm()
    est = catalogue.create("pca-gm")
    state = est.start(data.X)
    times = []
    for _ in range(STEPS_TIMED):        # the fastest of a few steps: the machine is shared
        t0 = time.perf_counter()
        state = est.step(state)
        times.append(time.perf_counter() - t0)
    step = min(times)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2     # KiB -> GiB
    print(json.dumps({"step_s": step, "peak_gb": max(peak, prep_peak), "prep_gb": prep_peak, "run_gb": _hwm_gb(),
                      "x_gb": data.X.nbytes / 1024 ** 3}))


def speed(size: int, repeats: int) -> None:
    rows = {}
    for r in range(repeats):
        for precision in ("double", "single"):
            out = subprocess.run([sys.executable, __file__, "child", precision, str(size)],
                                 capture_output=True, text=True, check=True).stdout
            rows.setdefault(precision, []).append(json.loads(out.strip().splitlines()[-1]))
    for precision, runs in rows.items():
        print(f"{precision}: PCA-GM step " + ", ".join(f"{x['step_s']:.2f}" for x in runs) + " s; process peak "
              + ", ".join(f"{x['peak_gb']:.2f}" for x in runs) + " GB (preparing the data "
              + ", ".join(f"{x['prep_gb']:.2f}" for x in runs) + " GB; start + step "
              + ", ".join(f"{x['run_gb']:.2f}" for x in runs) + f" GB); X {runs[0]['x_gb']:.2f} GB")
    med = {key: {p: float(np.median([x[key] for x in v])) for p, v in rows.items()}
           for key in ("step_s", "peak_gb", "prep_gb", "run_gb")}
    print("single / double (median of %d): step %.2f×, process peak %.2f×, preparing %.2f×, start + step %.2f×"
          % (repeats, *(med[k]["single"] / med[k]["double"] for k in ("step_s", "peak_gb", "prep_gb", "run_gb"))))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("metrics", "speed", "child"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--size", type=int, default=96)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    if a.what == "metrics":
        compare(a.steps)
    elif a.what == "speed":
        speed(a.size, a.repeats)
    else:
        _one_step(a.args[0], int(a.args[1]))


if __name__ == "__main__":
    main()
