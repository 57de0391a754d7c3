"""Random use of the real window for as long as asked (a script, not a test; prints findings).

The driver is :class:`robust_subspace_lab.app.monkey.Monkey` (the same as ``tests/app/test_monkey.py``):
seeded clicks, combo choices, slider drags, typing (valid and invalid), tabs, menu actions
(presets included) and window resizes. It prints a progress line every 10 s and, at the end,
the number of actions, exceptions, NaN texts shown, the longest event-loop gap and the resident
memory. Exit status 1 when it finds an exception, a NaN shown, a gap over ``--gap-limit`` ms or
a resident memory over ``--memory-limit`` MB (issue targets: 1,000 ms and 2,048 MB for 10 minutes).

Run:  python benchmarks/monkey.py --minutes 10 [--seed 1] [--columns 4]
"""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6 import QtWidgets  # noqa: E402

from robust_subspace_lab.app.monkey import Monkey  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--columns", type=int, default=2, help="method columns at the start")
    ap.add_argument("--gap-limit", type=float, default=1000.0, help="ms")
    ap.add_argument("--memory-limit", type=float, default=2048.0, help="MB resident")
    args = ap.parse_args(argv)

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    for name in ("getExistingDirectory",):
        setattr(QtWidgets.QFileDialog, name, staticmethod(lambda *a, **k: ""))
    for name in ("getOpenFileName", "getSaveFileName"):
        setattr(QtWidgets.QFileDialog, name, staticmethod(lambda *a, **k: ("", "")))
    from robust_subspace_lab.app.main_window import MainWindow

    win = MainWindow(speed="max")
    win.show()
    win.wait_idle(60)
    while len(win.columns) < args.columns:
        win.add_column()
    monkey = Monkey(win, seed=args.seed)
    found = monkey.run(args.minutes * 60, on_progress=lambda f: print("  " + f.summary(), flush=True))
    win.close()
    app.processEvents()
    print(found.summary())
    for text in found.exceptions[:3] + found.nan_texts[:3]:
        print("---\n" + text)
    bad = (found.exceptions or found.nan_texts or found.longest_gap_ms > args.gap_limit
           or max(found.peak_resident_mb, found.resident_mb) > args.memory_limit)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
