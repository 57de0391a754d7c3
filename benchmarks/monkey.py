"""Random use of the real window for as long as asked (a script, not a test; prints findings).

The driver is :class:`robust_subspace_lab.app.monkey.Monkey` (the same as ``tests/app/test_monkey.py``):
seeded clicks, combo choices, slider drags, typing (valid and invalid), tabs, menu actions
(presets included) and window resizes. It prints a progress line every 10 s and, at the end,
the number of actions, exceptions, NaN texts shown, the longest event-loop gap and the resident
memory. Exit status 1 when it finds an exception, a NaN shown, a gap over ``--gap-limit`` ms or
a resident memory over ``--memory-limit`` MB (issue targets: 1,000 ms and 2,048 MB for 10 minutes).

Every progress line is followed by the columns, their data and what the runs hold (to tell a
memory peak of held states from one of the solvers' temporaries).

It starts on the opening window (faces), or with ``--data digits`` on the 5,000 built-in digits,
and ``--methods tc-nmf,nmf,...`` sets the methods of the columns (the issue's heavy case: four NMF
columns on the digits). At the end it also lists the event-loop gaps over 200 ms with the action
during which they happened and the CPU time the GUI thread spent in them (much less than the gap:
it waited, e.g. for a core on a loaded machine), and the resident memory every ~10 s.

Run:  python benchmarks/monkey.py --minutes 10 [--seed 1] [--columns 4] [--data digits]
          [--methods tc-nmf,cauchy-nmf,nmf,l1-nmf]
"""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

from robust_subspace_lab.app.monkey import Monkey  # noqa: E402
from robust_subspace_lab.core.session import shared_double  # noqa: E402
from robust_subspace_lab.core.session.history import held_arrays  # noqa: E402


def held_mb(win) -> str:
    """What the window's runs hold (MB): states kept (histories), cached and pinned snapshots, and
    the arrays of the subspace data (with the float64 copy of single-precision data that the
    columns computing in float64 share, :func:`core.session.solver_input`); the rest of the resident memory is Qt, Python, the libraries
    and the allocator's free lists."""
    runners = [c.runner for c in win.subspace.columns]
    runners += [ws.runner for ws in win.workspaces if hasattr(ws, "runner")]
    hist = sum(r.model.history.nbytes for r in runners)
    cache = sum(r._cache_bytes for r in runners)
    pinned = sum(r._nbytes(s) for r in runners for s in r._pinned.values())
    data = getattr(win.subspace, "data", None)
    arrays = {id(a): a for a in vars(data).values() if hasattr(a, "nbytes")} if data is not None else {}
    double = shared_double(data.X) if data is not None else None
    if double is not None:          # the float64 copy of single-precision data the columns share
        arrays[id(double)] = double
    # the newest states whole, solver contexts included (PCA-L1 and sparse PCA keep their centred
    # data there, deeper than a history counts), without the data they share
    newest = {id(a): a for r in runners if r.model.history.last is not None
              for a in held_arrays(r.model.history.last, max_depth=5) if id(a) not in arrays}
    regression = {id(a): a for ws in win.workspaces for d in (getattr(ws, "data", None),) if d is not None
                  and ws is not win.subspace for a in vars(d).values() if hasattr(a, "nbytes")}
    mb = 2 ** 20
    return (f"{len(runners)} runs: histories {hist / mb:.0f} MB, snapshot caches {cache / mb:.0f} MB, "
            f"pinned snapshots {pinned / mb:.0f} MB; newest states whole {sum(a.nbytes for a in newest.values()) / mb:.0f} MB; "
            f"subspace data arrays {sum(a.nbytes for a in arrays.values()) / mb:.0f} MB; "
            f"regression data arrays {sum(a.nbytes for a in regression.values()) / mb:.0f} MB{malloc_mb()}")


def malloc_mb() -> str:
    """glibc's heap (``mallinfo2``, every arena): bytes in use and free in the heaps, and mapped
    blocks (the large arrays); empty elsewhere. Free heap bytes that stay resident are the
    allocator's, not the app's."""
    import ctypes

    class Info(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                           "fsmblks", "uordblks", "fordblks", "keepcost")]
    try:
        call = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return ""
    call.restype = Info
    info, mb = call(), 2 ** 20
    return (f"; malloc: heap in use {info.uordblks / mb:.0f} MB, heap free {info.fordblks / mb:.0f} MB, "
            f"mapped {info.hblkhd / mb:.0f} MB")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--columns", type=int, default=2, help="method columns at the start")
    ap.add_argument("--gap-limit", type=float, default=1000.0, help="ms")
    ap.add_argument("--memory-limit", type=float, default=2048.0, help="MB resident")
    ap.add_argument("--data", default="", help="built-in data to start on (faces, digits)")
    ap.add_argument("--methods", default="", help="comma-separated method keys of the columns")
    args = ap.parse_args(argv)

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    from robust_subspace_lab.app.process import configure
    configure()                      # the app's process-wide settings, as __main__.main() sets them
    for name in ("getExistingDirectory",):
        setattr(QtWidgets.QFileDialog, name, staticmethod(lambda *a, **k: ""))
    for name in ("getOpenFileName", "getSaveFileName"):
        setattr(QtWidgets.QFileDialog, name, staticmethod(lambda *a, **k: ("", "")))
    from robust_subspace_lab.app.main_window import MainWindow

    win = MainWindow(speed="max")
    win.show()
    win.wait_idle(60)
    if args.data and not (win.subspace.load_builtin(args.data) and win.wait_idle(120)):
        print(f"could not load {args.data!r}: {win.last_error}")
        return 2
    methods = [m for m in args.methods.split(",") if m]
    while len(win.subspace.columns) < max(args.columns, len(methods)):
        win.subspace.add_column()
    for col, key in zip(win.subspace.columns, methods):
        col.set_method(key)
    win.wait_idle(60)
    monkey = Monkey(win, seed=args.seed)
    def progress(f) -> None:
        print("  " + f.summary(), flush=True)
        print(f"    {len(win.subspace.columns)} columns ({', '.join(c.key for c in win.subspace.columns)}) on "
              f"{win.subspace.data_text()}; held: {held_mb(win)}",
              flush=True)

    found = monkey.run(args.minutes * 60, on_progress=progress)
    print("held at the end: " + held_mb(win))
    win.close()
    app.processEvents()
    print(found.summary())
    print("resident memory (s: MB): " + ", ".join(f"{t:.0f}: {mb:.0f}" for t, mb in found.memory))
    print(f"event-loop gaps over 200 ms: {len(found.gaps)}; the 10 longest:")
    for ms, cpu, what in sorted(found.gaps, reverse=True)[:10]:
        print(f"  {ms:7.0f} ms (GUI thread CPU {cpu:5.0f} ms)  {what}")
    for text in found.exceptions[:3] + found.nan_texts[:3]:
        print("---\n" + text)
    bad = (found.exceptions or found.nan_texts or found.longest_gap_ms > args.gap_limit
           or max(found.peak_resident_mb, found.resident_mb) > args.memory_limit)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
