"""The app quit mid-step, in a process of its own (run by ``tests/app/test_quit.py`` and
``benchmarks/bench_gui.py``; not a test module).

Starts the app as ``robust-subspace-lab`` does (its ``main``), offscreen, with the columns
``--methods`` on the built-in digits resized to ``--size``; runs them; once every column has
stepped for ``--after`` seconds it opens the dialog asked for and quits as File ▸ Quit
(Ctrl+Q) does, printing ``QUIT_AT <time.time()>`` first. The parent times the process's end.

Dialogs: ``none``; ``export`` (Export ▸ Window as PNG…: a modal file dialog); ``message`` (a
modal message box, as an export failure shows); ``about`` (Help ▸ About, non-modal); ``sweep``
(Tools ▸ Sweep… with the sweep running).

Run:  python tests/app/quit_child.py [--dialog none] [--size 48] [--methods pca-gm,tc-nmf]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

os.environ["QT_QPA_PLATFORM"] = "offscreen"
DIALOGS = ("none", "export", "message", "about", "sweep")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dialog", choices=DIALOGS, default="none")
    ap.add_argument("--size", type=int, default=48)
    ap.add_argument("--methods", default="pca-gm,tc-nmf")
    ap.add_argument("--after", type=float, default=0.3, help="seconds of stepping before Quit")
    args = ap.parse_args(argv)
    # the autosave of this process goes to a file of its own (removed on a clean exit)
    os.environ["ROBUST_SUBSPACE_LAB_AUTOSAVE"] = os.path.join(tempfile.mkdtemp(), "autosave.rsl")

    from PySide6 import QtCore, QtWidgets

    from robust_subspace_lab.app import __main__ as cli
    from robust_subspace_lab.app.main_window import MainWindow

    app = QtWidgets.QApplication(sys.argv[:1])
    started: list[float] = []

    def window() -> MainWindow:
        return next(w for w in app.topLevelWidgets() if isinstance(w, MainWindow))

    def quit_now() -> None:
        print(f"QUIT_AT {time.time():.6f}", flush=True)
        window().quit_action.trigger()

    def open_dialog_and_quit() -> None:
        win = window()
        print(f"STEPPING iterations {[c.runner.iteration for c in win.subspace.columns]}", flush=True)
        if args.dialog in ("export", "message"):
            QtCore.QTimer.singleShot(200, quit_now)         # fires inside the dialog's own loop
            if args.dialog == "export":
                win.export_menu.export_window()
            else:
                QtWidgets.QMessageBox.warning(win, "Export", "A modal message box")
            return
        if args.dialog == "about":
            win.show_about()
        elif args.dialog == "sweep":
            dlg = win.open_sweep()
            if not dlg.start():
                print(f"sweep did not start: {dlg.last_error}", file=sys.stderr, flush=True)
        QtCore.QTimer.singleShot(200, quit_now)

    def poll() -> None:
        win = window()
        stepping = all(c.runner.states and c.runner.running for c in win.subspace.columns)
        if stepping and not started:
            started.append(time.monotonic())
        if started and time.monotonic() - started[0] >= args.after:
            open_dialog_and_quit()
        else:
            QtCore.QTimer.singleShot(10, poll)

    def setup() -> None:
        win = window()
        win.speed_combo.setCurrentIndex(0)                   # max speed
        if not win.subspace.load_builtin("digits", size=(args.size, args.size)):
            print(f"could not load the digits: {win.last_error}", file=sys.stderr, flush=True)
            os._exit(2)
        for col in win.subspace.columns:
            col.runner.set_params({"max_iter": 10_000}) if "max_iter" in col.runner.params else None
        win.run_all()
        poll()

    QtCore.QTimer.singleShot(0, setup)
    return cli.main(["--methods", args.methods])


if __name__ == "__main__":
    sys.exit(main())
