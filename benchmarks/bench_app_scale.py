"""The app at 10,000 images (issue 12, point 7): the real MainWindow, offscreen, opens a folder of
10,000 PNGs of 64 × 64 (File ▸ Open folder, without the dialog) and runs PCA | PCA-GM for 3 steps.

Prints the total seconds (open → every column at iteration 3; target < 15 s) with its parts
(loading and corrupting in the background data job, the columns' starts, the steps), the peak
resident memory of the process (``ru_maxrss``; target < 1.5 GB; the data in float64 is
n × 4096 × 8 bytes, 0.33 GB at 10,000), the resident memory before opening the folder, the
longest event-loop gap while loading and while stepping (a 10 ms timer; target < 50 ms), and
the time from the Step request to the first frame drawn with a new iteration (target < 0.2 s).
The BLAS threads are the app's policy (``core.threads``; the machine's rule
``OMP_NUM_THREADS=1`` caps it to one).

The folder is built with ``benchmarks/make_image_folder.py`` when it is missing.

Run:  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/bench_app_scale.py \\
          --folder /tmp/digits-10k [--n 10000] [--size 64] [--steps 3]
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from PySide6 import QtWidgets  # noqa: E402

from bench_gui import TickRecorder  # noqa: E402
from robust_subspace_lab.app.main_window import MainWindow  # noqa: E402
from robust_subspace_lab.core import threads  # noqa: E402

TOTAL_TARGET_S = 15.0
PEAK_TARGET_GB = 1.5
GAP_TARGET_MS = 50.0
FIRST_FRAME_TARGET_S = 0.2


def peak_rss_gb() -> float:
    """Peak resident memory of this process so far (Linux: ru_maxrss is in KiB)."""
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib * (1 if sys.platform.startswith("linux") else 1 / 1024) / 2 ** 20


def rss_gb() -> float:
    """Resident memory now (Linux /proc; the peak elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 30
    except OSError:
        return peak_rss_gb()


def ensure_folder(folder: Path, n: int, size: int) -> None:
    pngs = list(folder.glob("*.png")) if folder.is_dir() else []
    if len(pngs) >= n:
        return
    import make_image_folder

    print(f"building {folder} ({n} PNGs of {size}×{size}) ...", flush=True)
    make_image_folder.main([os.fspath(folder), "--n", str(n), "--size", str(size)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", default="/tmp/digits-10k")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--methods", default="pca,pca-gm")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    ensure_folder(folder, args.n, args.size)

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    from robust_subspace_lab.app.process import configure
    configure()                      # the app's process-wide settings, as __main__.main() sets them
    t_win = time.perf_counter()
    win = MainWindow(methods=args.methods.split(","), speed="max")
    win.show()
    if not win.wait_idle(60):
        raise RuntimeError("the window's columns did not start on the built-in faces")
    t_win = time.perf_counter() - t_win
    rss_before = rss_gb()
    ticks = TickRecorder()          # a 10 ms timer: when the event loop gets to run
    ticks.start()
    first: list[float] = []

    def on_drawn(col, iteration):
        if not first and iteration > 0 and t_step is not None:
            first.append(time.perf_counter())

    t_step = None
    for c in win.subspace.columns:
        c.drawn.connect(on_drawn)

    t0 = time.perf_counter()
    if not win.subspace.open_folder(os.fspath(folder)):          # the data job; its event loop runs meanwhile
        raise RuntimeError(f"could not open {folder}: {win.last_error}")
    t_loaded = time.perf_counter()
    n_images = len(win.subspace.imageset.images)
    if not win.wait_for(lambda: all(c.runner.states and c.runner.iteration == 0 for c in win.subspace.columns)
                        and not win.busy, 600):
        raise RuntimeError("the columns did not start on the folder")
    t_started = time.perf_counter()
    t_step = time.perf_counter()
    win.step_all(args.steps)
    if not win.wait_for(lambda: all(c.runner.iteration >= args.steps for c in win.subspace.columns)
                        and not win.busy, 600):
        raise RuntimeError("the steps did not finish: " + "; ".join(c.runner.error for c in win.subspace.columns))
    t_end = time.perf_counter()
    win.wait_for(lambda: bool(first), 5)
    peak = peak_rss_gb()
    (gap_load, cpu_load), (gap_start, cpu_start), (gap_steps, cpu_steps) = (
        ticks.longest_gap(t0, t_loaded), ticks.longest_gap(t_loaded, t_started), ticks.longest_gap(t_step, t_end))
    first_frame = first[0] - t_step if first else float("nan")
    total = t_end - t0
    data_gb = n_images * win.subspace.imageset.images[0].size * 8 / 2 ** 30

    print(f"{n_images} images of {win.subspace.imageset.shape[0]}×{win.subspace.imageset.shape[1]} from {folder}; "
          f"methods {args.methods}; {args.steps} steps; BLAS threads by policy "
          f"(cores {threads.policy_cores()}); window built in {t_win:.1f} s")
    print(f"total {total:.2f} s (target < {TOTAL_TARGET_S:.0f} s) "
          f"{'OK' if total < TOTAL_TARGET_S else 'MISSED'}: load + corrupt {t_loaded - t0:.2f} s, "
          f"starts {t_started - t_loaded:.2f} s, steps {t_end - t_step:.2f} s")
    print(f"peak RSS {peak:.2f} GB (target < {PEAK_TARGET_GB} GB) {'OK' if peak < PEAK_TARGET_GB else 'MISSED'}; "
          f"RSS before opening {rss_before:.2f} GB; the data in float64 {data_gb:.2f} GB")
    print(f"longest event-loop gap (GUI thread busy in it): loading and corrupting {gap_load:.0f} ms "
          f"({cpu_load:.0f}), starting {gap_start:.0f} ms ({cpu_start:.0f}), stepping {gap_steps:.0f} ms "
          f"({cpu_steps:.0f}) "
          f"(target < {GAP_TARGET_MS:.0f} ms); first frame after Step {first_frame:.3f} s "
          f"(target < {FIRST_FRAME_TARGET_S} s)")
    win.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
