"""Start and per-iteration seconds and peak memory of every subspace method at scale, as ratios to
scikit-learn's randomized PCA fit measured in the same run.

Data: synthetic images on 0–255, rank 20 plus Gaussian noise, 10 % outlier rows of random 0/255
dots (clipped to 0–255, so non-negative and fit for NMF too). ``--size full`` is 10,000 × 4096
(64 × 64 images; 330 MB as float64), ``--size small`` 2000 × 1024 (for CI; still large enough
that the PCA family takes its block-iteration route). k = 20 components.

``--data mnist``: real digits instead, the first n of the 10,000 MNIST digits of
``../shared/data/mnist-10k.npz`` (beside the repository) resized from 28 × 28 to 64 × 64 (``--size full``) or 32 × 32
(``--size small``) by ``core.datasets.resize_images``, corrupted as the app's opening lesson does
(20 % of the images with a rectangle of dots, ``core.presets.paper_000.DEFAULT_LESSON``). Real
images have no spectral gap after k, unlike the synthetic rank-20 data, so the block iteration
needs more iterations there (the accuracy check and the app benchmark use such data too).

Methods: every subspace method of the catalogue (``--methods`` picks some); the regression
workspace's methods take (X, y) and are timed by ``bench_rr.py``.

Reference: ``sklearn.decomposition.PCA(n_components=k, svd_solver="randomized").fit(X)``, timed in
the same run under the same thread limit. Each method runs in its own child process (so a slow
one cannot hold the others up, and peak memory is its own): ``start(X)`` (iteration 0), then
``--iters`` steps, timed one by one; the child is stopped after ``--cap`` seconds and what it
finished is reported ("> cap" for what it did not). Peak memory is the largest amount of memory
allocated through Python (numpy arrays included, via ``tracemalloc``) during start and steps,
beyond the data X itself.

For the PCA family, ``--accuracy`` also solves the weighted eigenproblem of iteration 0 and of the
first step exactly (``core.linalg.weighted_top_eigenspace(route="gram"|"scatter")``, the route
the library used before, in float64 also for a ``--dtype float32`` run) with the same weights
and centre, and prints the largest
principal angle between the method's components and the exact ones, and the relative
difference of the weighted objective ``Σ w_i ‖(I − WᵀW)(x_i − c)‖²``.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_scale.py --size full \\
        [--data synthetic|mnist] [--methods pca,pca-gm,...] [--cap 120] [--iters 2] [--threads 1]
        [--dtype float64] [--accuracy] [--repeat 2] [--stat min|median] [--clock wall|cpu]
        [--sweep [--sweep-n 10000,40000] [--no-tables]]

A method key ``<key>+exact`` (e.g. ``pca-gm+exact``) runs with ``exact_start=True``; with ``--fit`` the table
then prints the relative difference of the converged objectives (the good-enough start against the exact one).
``--clock cpu`` times the process's CPU time (one BLAS thread: on a quiet machine the wall time; on a loaded one
without the waits for a core). Each run prints one progress line on stderr as it ends. After each table, the paired
ratios: every run's start and whole fit over the reference run just before it (on a loaded machine the reference
itself varies by ±30 %; the pairs see the same load).

Target (issue 12): at full size, k = 20, one thread, every PCA-family method's start and
iteration <= 1 × the scikit-learn fit.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

SIZES = {"small": (2000, 1024), "full": (10_000, 4096)}
RANK = 20
K = 20
PCA_FAMILY = ("pca", "pca-gm", "l2p-pca-om", "rpca-om", "r1-pca", "hq-pca")


def make_data(n: int, d: int, seed: int = 0, dtype=np.float64) -> np.ndarray:
    """Rank-20 'images' around grey level 128 plus noise (σ = 4), 10 % outlier rows of random
    0/255 dots, clipped to 0–255: a clear spectral gap after k = 20 (λ₂₁/λ₂₀ ≈ 0.1)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, RANK)) @ (rng.standard_normal((RANK, d)) * 8.0)
    X += 128.0
    X += rng.standard_normal((n, d)) * 4.0
    out = rng.random(n) < 0.1
    X[out] = (rng.random((int(out.sum()), d)) < 0.5) * 255.0
    np.clip(X, 0.0, 255.0, out=X)
    return X.astype(dtype, copy=False)


#: component scales of :func:`make_nogap_data`: 8 · DECAY^j, j = 0..19
DECAY = 0.85


def make_nogap_data(n: int, d: int, seed: int = 0, dtype=np.float64) -> np.ndarray:
    """Data without a spectral gap after k = 20: rank-20 'images' around grey level 128 whose
    component scales decay geometrically (8 · 0.85^j) into the noise floor, plus noise (σ = 4),
    10 % outlier rows of uniform 0–255 values, clipped to 0–255. The top eigenvalues of the
    centred data then fall smoothly into the outliers' flat floor: λ₂₁/λ₂₀ ≈ 0.99 (2000 × 1024),
    where :func:`make_data`'s is ≈ 0.1. The case where the block route needs the most iterations."""
    rng = np.random.default_rng(seed)
    X = (rng.standard_normal((n, RANK)) * (8.0 * DECAY ** np.arange(RANK))) @ rng.standard_normal((RANK, d))
    X += 128.0
    X += rng.standard_normal((n, d)) * 4.0
    out = rng.random(n) < 0.1
    X[out] = rng.random((int(out.sum()), d)) * 255.0
    np.clip(X, 0.0, 255.0, out=X)
    return X.astype(dtype, copy=False)


#: the shared reference data beside the repository (not shipped: a benchmark input only); from a
#: worktree under ``../wt/<branch>`` it is one level further up
MNIST = next((p for p in (Path(__file__).resolve().parents[i] / "shared" / "data" / "mnist-10k.npz"
                          for i in (2, 3)) if p.exists()),
             Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist-10k.npz")


def make_mnist(n: int, d: int, dtype=np.float64) -> np.ndarray:
    """The first n MNIST digits of :data:`MNIST` resized to √d × √d, grey levels 0–255, corrupted
    as the app's opening lesson (rectangles of dots on 20 % of the images): (n, d)."""
    from robust_subspace_lab.core import corruption, datasets
    from robust_subspace_lab.core.presets.paper_000 import DEFAULT_LESSON

    side = int(round(np.sqrt(d)))
    with np.load(MNIST) as z:
        digits = z["images"][:n].astype(float)
    images = datasets.resize_images(digits, (side, side))
    data = corruption.corrupt(images, DEFAULT_LESSON["corruption"], **DEFAULT_LESSON["corruption_params"])
    return data.X.astype(dtype, copy=False)


# ------------------------------------------------------------------------------------- child
#: a method key with this suffix (``pca-gm+exact``) runs with ``exact_start=True``: the fit the
#: good-enough start must match (the table then prints the relative objective difference)
EXACT = "+exact"


def _create(key, k):
    """The catalogue estimator of ``key`` (``<key>+exact``: with ``exact_start=True``) with k components."""
    from robust_subspace_lab.core import catalogue

    base = key.removesuffix(EXACT)
    info = catalogue.get(base)
    names = {p.name for p in info.params}
    params = {"n_components": k} if "n_components" in names else {}
    if key.endswith(EXACT):
        if "exact_start" not in names:
            raise SystemExit(f"{base} has no exact_start parameter")
        params["exact_start"] = True
    return info.create(**params)


def _label(key):
    from robust_subspace_lab.core import catalogue

    return catalogue.get(key.removesuffix(EXACT)).name + (" (exact start)" if key.endswith(EXACT) else "")


def _emit(**kw):
    print(json.dumps(kw), flush=True)


def _weighted_objective(X, w, c, W):
    """Σ w_i ‖(I − WᵀW)(x_i − c)‖², in float64, without an n × d temporary beyond one block."""
    total = 0.0
    for i in range(0, len(X), 512):
        D = np.asarray(X[i:i + 512], dtype=float) - c
        P = D @ W.T
        total += float(w[i:i + 512] @ (np.einsum("ij,ij->i", D, D) - np.einsum("ij,ij->i", P, P)))
    return total


def _accuracy(X, state, weights, init, k):
    """(max principal angle in radians, relative objective difference) between ``state``'s
    components and the exact weighted eigenspace with ``weights`` and centre ``state.mean``."""
    from robust_subspace_lab.core.linalg import weighted_top_eigenspace
    from robust_subspace_lab.core.metrics import principal_angles

    n, d = X.shape
    X64 = np.asarray(X, dtype=float)          # the reference is float64 even for a float32 run
    exact = weighted_top_eigenspace(X64, weights, k, np.asarray(state.mean, dtype=float),
                                    route="gram" if n <= d else "scatter")
    W = np.asarray(state.components, dtype=float)
    We = np.asarray(exact.components, dtype=float)
    c = np.asarray(state.mean, dtype=float)
    w = np.asarray(weights, dtype=float)
    j, je = _weighted_objective(X64, w, c, W), _weighted_objective(X64, w, c, We)
    return float(principal_angles(W, We).max()), float((j - je) / je)


#: ``--clock``: wall time, or the process's CPU time (with one BLAS thread the same on a quiet
#: machine; on a loaded one the CPU time leaves out the time the process waited for a core)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter


def _rss() -> int:
    """The process's resident memory now, bytes, after resetting its high-water mark (Linux's
    ``/proc/self/clear_refs``; 0 elsewhere, and then :func:`_peak` is tracemalloc's alone)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return _status_bytes("VmRSS")
    except (OSError, ValueError):
        return 0


def _status_bytes(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise ValueError(field)


def _peak(tracemalloc, rss0: int) -> int:
    """Peak bytes beyond X: tracemalloc's peak (numpy's arrays), or the growth of the process's
    resident high-water mark (VmHWM) over ``rss0`` if larger (``core.memory.fresh`` maps the arrays
    the states keep itself, which tracemalloc does not see)."""
    high = 0
    if rss0:
        try:
            high = _status_bytes("VmHWM") - rss0
        except (OSError, ValueError):
            pass
    return max(tracemalloc.get_traced_memory()[1], high)


def child(args):
    global clock
    from threadpoolctl import threadpool_limits

    clock = CLOCKS[args.clock]

    X = np.load(args.data_path)
    with threadpool_limits(args.threads):
        import tracemalloc

        if args.method == "sklearn":
            from sklearn.decomposition import PCA

            rss0 = _rss()
            tracemalloc.start()
            t = clock()
            PCA(n_components=args.k, svd_solver="randomized", random_state=0).fit(X)
            _emit(phase="fit", seconds=clock() - t, peak=_peak(tracemalloc, rss0))
            return
        import warnings

        warnings.simplefilter("ignore")
        est = _create(args.method, args.k)
        rss0 = _rss()
        tracemalloc.start()
        t = clock()
        state = est.start(X)
        first = clock() - t
        _emit(phase="start", seconds=first, peak=_peak(tracemalloc, rss0))
        step_times = []
        # earlier states are kept only for --accuracy (else a run's peak would count them all)
        keep = args.accuracy and args.method in PCA_FAMILY
        states = [state] if keep else []
        for i in range(1, args.iters + 1):
            t = clock()
            state = est.step(state)
            step_times.append(clock() - t)
            _emit(phase="step", i=i, seconds=step_times[-1], peak=_peak(tracemalloc, rss0))
            if keep:
                states.append(state)
        tracemalloc.stop()
        if args.fit_child:
            # the whole fit to convergence: the start and every step until the stopping rule
            total = first + sum(step_times)
            fit_state = state
            while not est.finished(fit_state):
                t = clock()
                fit_state = est.step(fit_state)
                total += clock() - t
            _emit(phase="whole", seconds=total, iterations=fit_state.iteration,
                  converged=bool(fit_state.converged), objective=float(fit_state.objective))
        if args.accuracy and args.method in PCA_FAMILY:
            ones = np.ones(len(X))
            a0 = _accuracy(X, states[0], ones, None, args.k)
            _emit(phase="accuracy", i=0, angle=a0[0], objective=a0[1])
            if len(states) > 1 and args.method != "pca":
                a1 = _accuracy(X, states[1], states[0].sample_weights, states[0].components, args.k)
                _emit(phase="accuracy", i=1, angle=a1[0], objective=a1[1])


# ------------------------------------------------------------------------------------- parent
def run_child(path, method, a, cap):
    """Run one child; returns the list of its JSON records (those finished within ``cap`` s)."""
    cmd = [sys.executable, *(["-P"] if sys.flags.safe_path else []), os.path.abspath(__file__),
           "--child", method, "--data-path", path, "--k", str(a.k), "--iters", str(a.iters),
           "--threads", str(a.threads), "--clock", a.clock] + (["--accuracy"] if a.accuracy else []) + \
          (["--fit-child"] if method in a.fit_methods else [])
    env = {**os.environ, "OMP_NUM_THREADS": str(a.threads), "OPENBLAS_NUM_THREADS": str(a.threads),
           "MKL_NUM_THREADS": str(a.threads)}
    records = []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        out, err = proc.communicate(timeout=cap)
        timed_out = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        timed_out = True
    for line in out.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    if proc.returncode not in (0, None) and not timed_out:
        records.append({"phase": "error", "message": (err.strip().splitlines() or ["?"])[-1]})
    return records


def _fmt_ratio(seconds, ref):
    return f"{seconds:8.2f} s ({seconds / ref:5.2f}×)"


#: ``--sweep``: the numbers of rows (d = 4096; ``--quick``: QUICK_SWEEP_N at d = 1024)
SWEEP_N = (10_000, 20_000, 40_000)
QUICK_SWEEP_N = (2000, 4000, 8000)
#: methods whose whole fit to convergence is timed by default (the issue's targets)
FIT_METHODS = ("pca-gm", "rpca-om")
DATA_KINDS = ("nogap", "synthetic", "mnist")


def _data(kind, n, d, dtype):
    """(X, description), or (None, reason) for MNIST when the shared digits are not there."""
    if kind == "mnist":
        if not MNIST.exists():
            return None, f"MNIST skipped: {MNIST} not found (the shared digits beside the repository)"
        if n > 10_000:
            return None, f"MNIST skipped at n = {n}: the shared file has 10,000 digits"
        return make_mnist(n, d, dtype=dtype), (f"the first {n} MNIST digits resized to "
                                                f"{int(round(np.sqrt(d)))}² and corrupted as the app's lesson")
    if kind == "nogap":
        return make_nogap_data(n, d, dtype=dtype), (f"rank {RANK} decaying into the noise (no gap after k), "
                                                     "10 % uniform 0–255 outlier rows")
    return make_data(n, d, dtype=dtype), f"rank {RANK} + noise (gap after k), 10 % 0/255 dot outlier rows"


def _median(xs):
    return float(np.median(xs)) if xs else None


#: ``--stat``: how the repeated runs of a method (and of the reference) are summarised. The
#: minimum is the run least slowed by other work on a shared machine (a loaded machine only
#: ever adds time); the median shows the typical run.
STATS = {"median": _median, "min": lambda xs: float(np.min(xs)) if xs else None}


def _progress(key, recs, refs):
    """One line per run as it ends (a long sweep on a loaded machine shows what it has so far)."""
    parts = [f"{r['phase']} {r['seconds']:.2f}" for r in recs if "seconds" in r]
    parts += [f"error {r['message'][:60]}" for r in recs if r["phase"] == "error"]
    ref = f"ref {refs[-1]:.2f} s; " if refs else ""
    print(f"  run {key}: {ref}" + ", ".join(parts), file=sys.stderr, flush=True)


def _measure(path, keys, a, cap):
    """Every method of ``keys`` run ``a.repeat`` times, each run beside a scikit-learn reference
    run (interleaved: ref, method, ref, method, ..., ref). Returns (reference seconds summarised
    by ``--stat``, reference peak bytes, {key: {"start": [...], "step": [...], "whole": [...],
    "records": [...]}})."""
    refs, peaks = [], []
    out = {k: {"start": [], "step": [], "whole": [], "records": [], "paired": []} for k in keys}

    def ref():
        r = [x for x in run_child(path, "sklearn", a, cap) if x.get("phase") == "fit"]
        if r:
            refs.append(r[0]["seconds"])
            peaks.append(r[0]["peak"])

    for _ in range(a.repeat):
        for key in keys:
            ref()
            recs = run_child(path, key, a, cap)
            _progress(key, recs, refs)
            o = out[key]
            o["records"] = recs
            o["start"] += [r["seconds"] for r in recs if r["phase"] == "start"]
            steps = [r["seconds"] for r in recs if r["phase"] == "step"]
            if steps:
                o["step"].append(float(np.median(steps)))
            o["whole"] += [r for r in recs if r["phase"] == "whole"]
            if refs:                       # this run over the reference run just before it
                ref_s = refs[-1]
                o["paired"].append({ph: [r["seconds"] / ref_s for r in recs if r["phase"] == ph][:1]
                                    for ph in ("start", "whole")})
    ref()
    if not refs:
        raise SystemExit("scikit-learn's PCA fit did not finish within the cap")
    return STATS[a.stat](refs), float(np.median(peaks)), out


def _table(path, keys, a, cap, n, d, what, data_mb):
    ref, ref_peak, res = _measure(path, keys, a, cap)
    ref_peak /= 2 ** 20
    print(f"\nX: {n} × {d} {a.dtype} ({data_mb:.0f} MB), {what}; k = {a.k}; "
          f"BLAS threads: {a.threads}; cap {cap:.0f} s per run; {a.repeat} run(s) per method, interleaved; "
          f"{a.clock} seconds, {a.stat} of the runs")
    print(f"reference: sklearn PCA(svd_solver='randomized').fit, {a.stat} of {a.repeat * len(keys) + 1}: "
          f"{ref:.2f} s, peak {ref_peak:.0f} MB beyond X\n")
    print("| method | start s (× sklearn) | iteration s (× sklearn) | whole fit s (× sklearn), iterations "
          "| peak MB (× sklearn) | exact-step check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for key in keys:
        o = res[key]
        recs = o["records"]
        stat = STATS[a.stat]
        start, step = stat(o["start"]), stat(o["step"])
        s_start = _fmt_ratio(start, ref) if start is not None else f"> cap ({cap:.0f} s)"
        s_step = _fmt_ratio(step, ref) if step is not None else ("> cap" if start is not None else "—")
        if o["whole"]:
            w = o["whole"]
            sec = stat([r["seconds"] for r in w])
            s_whole = (f"{_fmt_ratio(sec, ref)}, {w[-1]['iterations']} it"
                       + ("" if w[-1]["converged"] else " (max_iter)"))
        else:
            s_whole = ("> cap" if key in a.fit_methods else "—")
        peaks = [r["peak"] for r in recs if r["phase"] in ("start", "step")]
        s_peak = f"{max(peaks) / 2 ** 20:7.0f} ({max(peaks) / 2 ** 20 / ref_peak:5.2f}×)" if peaks else "—"
        acc = [r for r in recs if r["phase"] == "accuracy"]
        errs = [r for r in recs if r["phase"] == "error"]
        s_acc = "; ".join(f"it {r['i']}: angle {r['angle']:.1e} rad, ΔJ/J {r['objective']:+.1e}" for r in acc)
        if errs:
            s_acc = (s_acc + "; " if s_acc else "") + "error: " + errs[0]["message"][:80]
        print(f"| {_label(key)} | {s_start} | {s_step} | {s_whole} | {s_peak} | {s_acc} |", flush=True)
    print("\nPaired ratios (each run over the reference run just before it): start; whole fit\n")
    print("| method | start (× the reference beside it) | whole fit (× the reference beside it) |")
    print("| --- | --- | --- |")
    for key in keys:
        p = res[key]["paired"]
        cells = [", ".join(f"{v[0]:.2f}" for v in (q[ph] for q in p) if v) or "—" for ph in ("start", "whole")]
        print(f"| {_label(key)} | {cells[0]} | {cells[1]} |", flush=True)
    for key in keys:                      # the good-enough start against the exact one
        exact = key + EXACT
        if exact in keys and res[key]["whole"] and res[exact]["whole"]:
            j, je = res[key]["whole"][-1]["objective"], res[exact]["whole"][-1]["objective"]
            it, ie = res[key]["whole"][-1]["iterations"], res[exact]["whole"][-1]["iterations"]
            print(f"\n{_label(key)}: converged objective {j:.10g} ({it} it) against {je:.10g} ({ie} it) "
                  f"from the exact start: relative difference {(j - je) / abs(je):+.1e}", flush=True)
    return ref, res


def _sweep(keys, a, cap, d):
    """Start and step seconds at every n of the sweep, and their growth t(n_max)/t(n_min) (linear
    cost: n_max/n_min; the issue's bound: 4.5 at 40,000/10,000)."""
    ns = tuple(int(v) for v in a.sweep_n.split(",")) if a.sweep_n else (QUICK_SWEEP_N if a.quick else SWEEP_N)
    a.fit_methods = set()                           # start and steps only (whole fits: the tables)
    kind = a.data.split(",")[0] if a.data.split(",")[0] != "mnist" else "nogap"
    rows, refs = {k: {} for k in keys}, {}
    for n in ns:
        X, what = _data(kind, n, d, np.dtype(a.dtype))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "X.npy")
            np.save(path, X)
            del X
            ref, _, res = _measure(path, keys, a, cap)
        refs[n] = ref
        for k in keys:
            stat = STATS[a.stat]
            rows[k][n] = (stat(res[k]["start"]), stat(res[k]["step"]))
        print(f"  sweep n = {n}: done (reference {ref:.2f} s)", flush=True)
    lo, hi = ns[0], ns[-1]
    print(f"\nSweep over n ({what}), d = {d}, k = {a.k}, {a.threads} BLAS thread(s), {a.clock} seconds, "
          f"{a.stat} of {a.repeat} run(s): seconds, and the growth "
          f"t({hi})/t({lo}) (linear: {hi / lo:.1f})\n")
    head = " | ".join(f"n = {n}" for n in ns)
    ref_growth = refs[hi] / refs[lo]
    print("(the last column: the growth over the reference's own, measured beside it: a loaded machine slows "
          "the larger runs of every method alike)\n")
    print(f"| method | phase | {head} | growth | ÷ sklearn's |")
    print("| --- | --- | " + " | ".join("---" for _ in ns) + " | --- | --- |")
    print("| scikit-learn PCA | fit | " + " | ".join(f"{refs[n]:.2f}" for n in ns)
          + f" | {ref_growth:.2f} | 1.00 |")
    for k in keys:
        for j, phase in enumerate(("start", "step")):
            vals = [rows[k][n][j] for n in ns]
            cells = " | ".join("> cap" if v is None else f"{v:.2f}" for v in vals)
            ok = bool(vals[0] and vals[-1])
            g = f"{vals[-1] / vals[0]:.2f} | {vals[-1] / vals[0] / ref_growth:.2f}" if ok else "— | —"
            print(f"| {_label(k)} | {phase} | {cells} | {g} |", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=tuple(SIZES), default="small")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: --size small, and the sweep at n = 2000, 4000, 8000 (d = 1024)")
    ap.add_argument("--methods", default="", help="comma-separated catalogue keys (default: every subspace method)")
    ap.add_argument("--fit", default=",".join(FIT_METHODS),
                    help="methods (of --methods) whose whole fit to convergence is timed too ('' none)")
    ap.add_argument("--cap", type=float, default=None, help="seconds per run (default 60 small, 180 full)")
    ap.add_argument("--iters", type=int, default=2, help="steps timed after the start")
    ap.add_argument("--repeat", type=int, default=1, help="runs per method, each beside a reference run")
    ap.add_argument("--stat", choices=tuple(STATS), default="min",
                    help="summary of the repeated runs (default min: the run least slowed by a loaded machine)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (threadpoolctl)")
    ap.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    ap.add_argument("--k", type=int, default=K)
    ap.add_argument("--accuracy", action="store_true", help="PCA family: compare with the exact eigensolver")
    ap.add_argument("--fit-child", dest="fit_child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--sweep", action="store_true",
                    help="also time start and step at n = 10,000, 20,000, 40,000 (d = 4096) and print the growth")
    ap.add_argument("--no-tables", action="store_true", help="with --sweep: the sweep only")
    ap.add_argument("--sweep-n", default="", help="with --sweep: the numbers of rows, comma-separated "
                                                  "(default 10000,20000,40000)")
    ap.add_argument("--clock", choices=tuple(CLOCKS), default="wall",
                    help="wall time (default) or the process's CPU time (one BLAS thread: the same on a quiet "
                         "machine; on a loaded one, without the time spent waiting for a core)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--data", default="nogap,mnist",
                    help="comma-separated cases: nogap (default; no spectral gap after k), mnist (real digits, "
                         "default; skipped with a message when the shared file is missing), synthetic (a gap)")
    ap.add_argument("--data-path", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        a.method = a.child
        return child(a)
    if a.quick:
        a.size = "small"

    from robust_subspace_lab.core import catalogue

    n, d = SIZES[a.size]
    cap = a.cap or (60.0 if a.size == "small" else 180.0)
    keys = [k for k in a.methods.split(",") if k] or [m.key for m in catalogue.methods("subspace")]
    a.fit_methods = {k for k in a.fit.split(",") if k}
    a.fit_methods |= {k + EXACT for k in a.fit_methods if k + EXACT in keys}
    kinds = [k for k in a.data.split(",") if k]
    for kind in kinds:
        if kind not in DATA_KINDS:
            raise SystemExit(f"--data: unknown case {kind!r}; choose from {', '.join(DATA_KINDS)}")
    for kind in ([] if a.no_tables else kinds):
        X, what = _data(kind, n, d, np.dtype(a.dtype))
        if X is None:
            print(what)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "X.npy")
            np.save(path, X)
            data_mb = X.nbytes / 2 ** 20
            del X
            _table(path, keys, a, cap, n, d, what, data_mb)
    if a.sweep:
        _sweep(keys, a, cap, SIZES["small"][1] if a.quick else SIZES["full"][1])


if __name__ == "__main__":
    main()
