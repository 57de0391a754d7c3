"""Command line: ``python -m robust_subspace_lab`` / ``robust-subspace-lab``.

Examples::

    python -m robust_subspace_lab                                   # built-in faces, PCA | PCA-GM
    python -m robust_subspace_lab --folder ~/faces --size 32x32
    python -m robust_subspace_lab --methods pca-gm,rpca-om
    python -m robust_subspace_lab --screenshot shot.png --steps 5   # offscreen: run 5 steps, save a PNG, exit
    python -m robust_subspace_lab --workspace regression            # the regression workspace (Huang et al. 2016)
    python -m robust_subspace_lab --workspace regression --regression-data digits --regression-method rlda \
        --regression-corruption black_square --steps 20 --screenshot digits.png
    python -m robust_subspace_lab --list-lessons                    # the lessons: key, concept, title
    python -m robust_subspace_lab --lesson paper000-fig4 --check --seed 3   # no window: run it, check its claims
    python -m robust_subspace_lab --lesson my_lesson.toml           # the window, on that lesson
    python -m robust_subspace_lab sweep --data faces --corruption rectangles --method pca-gm \
        --grid p=0.1,0.5,1.0 --seeds 3 --out results.csv [--dask tcp://HOST:PORT]   # no window

``--screenshot`` needs no display: it sets ``QT_QPA_PLATFORM=offscreen`` (unless set) before the
QApplication is created. Exit code 0 on success; non-zero with a message on stderr on failure
(3: a window cannot be opened: the message names the missing system libraries and the command
that installs them, see :mod:`app.system_check`). ``--lesson KEY --check``: 0 when every asserted
claim holds, 1 when one fails (or a column fails), 2 for an unknown lesson or a broken lesson
file (the message names the file, line and field); Qt is not imported.
"""
from __future__ import annotations

import argparse
import os
import sys

from robust_subspace_lab import __version__


def _parse_size(text: str):
    t = text.lower().replace("×", "x").strip()
    if t in ("", "native", "none"):
        return None
    try:
        if "x" in t:
            h, w = (int(v) for v in t.split("x", 1))
        else:
            h = w = int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 32x32 or 32, got {text!r}") from None
    if h < 1 or w < 1:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return (h, w)


#: Qt messages that say nothing useful to a user (the offscreen platform cannot resize windows)
_QUIET_QT_MESSAGES = ("This plugin does not support propagateSizeHints()",)


def install_qt_message_filter() -> None:
    """Forward Qt's messages to stderr, minus the known-harmless ones."""
    from PySide6 import QtCore

    def handler(mode, context, message):
        if message in _QUIET_QT_MESSAGES:
            return
        print(f"Qt: {message}", file=sys.stderr)

    QtCore.qInstallMessageHandler(handler)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="robust-subspace-lab",
                                description="Watch robust subspace methods down-weight outliers, "
                                            "one iteration at a time.",
                                epilog="Parameter sweeps without a window: robust-subspace-lab sweep --help")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                   help="print the installed version (from the package metadata) and exit")
    p.add_argument("--folder", metavar="PATH", help="open this folder of images instead of the built-in faces")
    p.add_argument("--size", metavar="HxW", type=_parse_size, default=None,
                   help="resize images to H x W pixels (default: their own size)")
    p.add_argument("--methods", metavar="KEYS", default="pca,pca-gm",
                   help="comma-separated method keys, one column each (default: pca,pca-gm)")
    p.add_argument("--corruption", metavar="KEY", default=None,
                   help="corruption key (default: rectangles)")
    p.add_argument("--workspace", choices=("subspace", "regression"), default="subspace",
                   help="the tab to open: the subspace method columns (default) or the regression workspace")
    p.add_argument("--regression-data", choices=("synthetic", "digits"), default=None,
                   help="regression workspace data: the synthetic 3-D example of Huang et al. 2016 §5.1 (default) "
                        "or the built-in digits with class labels")
    p.add_argument("--regression-method", metavar="KEY", default=None,
                   help="regression method key (default: rr; e.g. rlda, rr-missing, lsr)")
    p.add_argument("--regression-corruption", metavar="KEY", default=None,
                   help="corruption of the regression workspace's image inputs (default: black_square)")
    p.add_argument("--test-cleaning", action="store_true",
                   help="regression workspace: apply the test-time cleaning (Alg. 2) in the Test section")
    p.add_argument("--screenshot", metavar="PATH",
                   help="open offscreen, run --steps iterations, save a PNG of the window to PATH and exit")
    p.add_argument("--steps", type=int, default=None, metavar="N",
                   help="iterations to run before --screenshot (default 5; 0 with --session)")
    p.add_argument("--session", metavar="FILE",
                   help="open this session file (.rsl: data, corruption, columns, iterations; File ▸ Open session)")
    p.add_argument("--save-session", metavar="FILE",
                   help="with --screenshot: save the window's session to FILE after the steps")
    p.add_argument("--print-metrics", action="store_true",
                   help="with --screenshot: print each column's method, iteration and metrics as JSON lines")
    p.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                   help="give up --screenshot after this long (default 120)")
    lessons = p.add_argument_group("lessons")
    lessons.add_argument("--list-lessons", action="store_true", help="print every lesson (key, concept, title) and exit")
    lessons.add_argument("--lesson", metavar="KEY|FILE",
                         help="open the window on this lesson (a key of --list-lessons or a .toml lesson file)")
    lessons.add_argument("--check", action="store_true",
                         help="with --lesson: run it without a window, print every claim with its numbers and "
                              "✓/✗, exit 1 if an asserted claim fails")
    lessons.add_argument("--seed", type=int, default=None, metavar="S",
                         help="with --lesson: draw the lesson's data (corruption, toy points) with seed S")
    return p


def _lesson_command(args) -> int | None:
    """``--list-lessons`` and ``--lesson KEY --check``, headless (no Qt); None when the window is
    wanted. Exit codes: 0 ok, 1 a claim failed, 2 a bad key, file or option."""
    if not (args.list_lessons or args.lesson or args.check or args.seed is not None):
        return None
    if (args.check or args.seed is not None) and not args.lesson:
        print("robust-subspace-lab: --check and --seed need --lesson KEY", file=sys.stderr)
        return 2
    if args.seed is not None and args.seed < 0:
        print("robust-subspace-lab: --seed must be >= 0", file=sys.stderr)
        return 2
    try:
        from robust_subspace_lab.core import lessons
    except ValueError as exc:          # a shipped lesson file is broken (LessonFileError)
        print(f"robust-subspace-lab: {exc}", file=sys.stderr)
        return 2
    if args.list_lessons:
        try:
            for lesson in lessons.LESSONS:
                print(f"{lesson.key:32s} {lesson.concept:18s} {lesson.title}")
        except BrokenPipeError:          # `--list-lessons | head`: the reader has what it wanted
            sys.stdout = None
        return 0
    try:
        args.lesson_loaded = lessons.resolve(args.lesson)
    except KeyError as exc:
        print(f"robust-subspace-lab: {exc.args[0]}", file=sys.stderr)
        return 2
    except lessons.LessonFileError as exc:
        print(f"robust-subspace-lab: {exc}", file=sys.stderr)
        return 2
    if not args.check:
        return None
    report = lessons.check(args.lesson_loaded, seed=args.seed,
                           progress=lambda text: print(f"… {text}", file=sys.stderr, flush=True))
    print(report.text())
    return 0 if report.ok else 1


def _set_window_icon(app) -> None:
    """The app's icon (assets/icons), if the installation carries it."""
    from PySide6 import QtGui

    from robust_subspace_lab.core.shipped import asset_path
    from robust_subspace_lab.core.errors import DataError
    try:
        app.setWindowIcon(QtGui.QIcon(str(asset_path("icons/robust-subspace-lab-256.png"))))
    except DataError:
        pass                      # an icon is not worth refusing to start for


def _running_qapplication():
    """The running QApplication if Qt is already imported and started (tests), else None."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    return None if widgets is None else widgets.QApplication.instance()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["sweep"]:                    # batch sweeps: no window, Qt never imported
        from robust_subspace_lab.core.sweep_io import cli
        return cli(argv[1:])
    args = build_parser().parse_args(argv)
    args.lesson_loaded = None
    code = _lesson_command(args)
    if code is not None:
        return code
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.steps is None:
        args.steps = 0 if args.session else 5
    if args.save_session and not args.screenshot:
        print("robust-subspace-lab: --save-session needs --screenshot (File ▸ Save session in the window)",
              file=sys.stderr)
        return 2
    if args.steps < 0:
        print("robust-subspace-lab: --steps must be >= 0", file=sys.stderr)
        return 2

    from .system_check import check_display

    if _running_qapplication() is None:          # a fresh process: can Qt open a window here?
        problem = check_display()
        if problem:
            print(problem, file=sys.stderr)
            return 3

    # Import Qt only now, after QT_QPA_PLATFORM is settled.
    from PySide6 import QtWidgets

    from robust_subspace_lab.core import catalogue, corruption

    from .views import configure_pyqtgraph

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    known = [m.key for m in catalogue.methods()]
    bad = [m for m in methods if m not in known]
    if bad or not methods:
        print(f"robust-subspace-lab: unknown method(s) {', '.join(bad) or '(none given)'}; "
              f"known: {', '.join(known)}", file=sys.stderr)
        return 2
    reg_known = [m.key for m in catalogue.methods("regression")]
    if args.regression_method is not None and args.regression_method not in reg_known:
        print(f"robust-subspace-lab: unknown regression method {args.regression_method!r}; "
              f"known: {', '.join(reg_known)}", file=sys.stderr)
        return 2
    for flag, key in (("corruption", args.corruption), ("regression corruption", args.regression_corruption)):
        if key is not None and key not in corruption.CORRUPTIONS:
            print(f"robust-subspace-lab: unknown {flag} {key!r}; known: {', '.join(corruption.CORRUPTIONS)}",
                  file=sys.stderr)
            return 2
    if args.corruption is not None and args.corruption not in corruption.CORRUPTIONS:
        print(f"robust-subspace-lab: unknown corruption {args.corruption!r}; "
              f"known: {', '.join(corruption.CORRUPTIONS)}", file=sys.stderr)
        return 2

    if args.session:                             # the whole file checked before any window
        from .session_io import SessionFileError, read_session
        try:
            read_session(args.session)
        except SessionFileError as exc:
            print(f"robust-subspace-lab: {exc}", file=sys.stderr)
            return 1

    app = QtWidgets.QApplication.instance()
    owns_app = app is None
    if owns_app:
        install_qt_message_filter()
        app = QtWidgets.QApplication(sys.argv[:1])
        app.setApplicationName("Robust Subspace Lab")
        _set_window_icon(app)
    configure_pyqtgraph()
    from .process import configure
    restore_process = configure()       # the app's process-wide settings (app.process), undone below

    try:
        return _open_window(app, args, methods)
    finally:
        restore_process()


def _open_window(app, args, methods) -> int:
    """Build the window of ``args`` and run it (or take the screenshot); the exit code."""
    from .main_window import MainWindow

    win = MainWindow(folder=args.folder, size=args.size, methods=methods,
                     corruption_key=args.corruption, autosave=not args.screenshot)
    regression = (args.workspace == "regression" or args.regression_data or args.regression_method
                  or args.regression_corruption or args.test_cleaning)
    if regression:
        win.regression.open(source=args.regression_data, method=args.regression_method,
                            corruption_key=args.regression_corruption, test_cleaning=args.test_cleaning)
        win.show_tab(win.regression.title)
    if args.session:
        win.wait_idle(args.timeout)
        if not win.open_session(args.session, interactive=not args.screenshot):
            print(f"robust-subspace-lab: {win.session_error}", file=sys.stderr)
            if args.screenshot:
                win.close()
                win.deleteLater()
                return 1
    if args.lesson_loaded is not None:
        win.open_lesson(args.lesson_loaded, args.seed)   # --seed S: every seed of the lesson's data
    if args.screenshot:
        return _screenshot(win, args)
    if args.folder and win.last_error:
        print(f"robust-subspace-lab: {win.last_error}", file=sys.stderr)
    win.show()
    code = app.exec()
    _end_now(code)
    return code          # not reached


def _end_now(code: int) -> None:
    """The window is closed and its jobs cancelled: end the process at once. Python's own
    shutdown would first delete the window (10⁵ Qt and pyqtgraph objects), free the data and wait
    for a solver still inside one long library call (an SVD of a large matrix cannot be
    interrupted; it stops at its next checkpoint): about a second on 5,000 digits, more on larger
    data. Nothing is left to save (the autosave is removed on a clean close)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _screenshot(win, args) -> int:
    """Run ``args.steps`` iterations in every column, draw, save the window, close."""
    from PySide6 import QtWidgets

    code = 0
    try:
        if args.folder and win.last_error:
            print(f"robust-subspace-lab: cannot open {args.folder}: {win.last_error}", file=sys.stderr)
            return 1
        win.show()
        # wait_idle waits for the data jobs (loading, corrupting) and the solvers' starts
        if not win.wait_idle(args.timeout):
            print("robust-subspace-lab: timed out waiting for the data and the solvers to start", file=sys.stderr)
            return 1
        if win.current_workspace is win.regression:
            return _regression_screenshot(win, args)
        if not _run_steps(win, args):
            return 1
        for line in win.current_workspace.errors():
            print(f"robust-subspace-lab: {line}", file=sys.stderr)
            code = 1
        if args.print_metrics:
            _print_metrics(win)
        if args.save_session and not win.save_session(args.save_session):
            print(f"robust-subspace-lab: could not save the session to {args.save_session}", file=sys.stderr)
            code = 1
        return _save(win, args, win.current_workspace.summary()) or code
    finally:
        win.close()
        win.deleteLater()
        QtWidgets.QApplication.processEvents()


def _print_metrics(win) -> None:
    """One JSON line per column: method, parameters, iteration and the newest snapshot's metrics."""
    import json
    import math

    def plain(v):
        try:
            f = float(v)
        except (TypeError, ValueError):
            return str(v)
        return f if math.isfinite(f) else str(f)

    for col in win.subspace.columns:
        snap = col.runner.snapshot()
        metrics = {str(k): plain(v) for k, v in (snap.metrics.items() if snap is not None else ())}
        print("metrics " + json.dumps({"method": col.key, "iteration": col.runner.iteration,
                                       "params": {k: str(v) for k, v in col.runner.params.items()},
                                       "metrics": metrics}, sort_keys=True))


def _regression_screenshot(win, args) -> int:
    """The Regression tab: run ``args.steps`` iterations, wait for the test-time cleaning if it is
    on, save the window (the caller closes it)."""
    ws = win.regression
    if ws.data is None:
        print(f"robust-subspace-lab: no regression data: {ws.last_error}", file=sys.stderr)
        return 1
    if not _run_steps(win, args):
        return 1
    code = 0
    if ws.runner.error:
        print(f"robust-subspace-lab: {ws.runner.info.name}: {ws.runner.error}", file=sys.stderr)
        code = 1
    win.redraw_now()            # asks for the test-time cleaning of the newest state, if on
    if not win.wait_idle(args.timeout):
        print("robust-subspace-lab: timed out waiting for the test-time cleaning", file=sys.stderr)
        return 1
    if args.save_session and not win.save_session(args.save_session):     # the Regression tab's run too
        print(f"robust-subspace-lab: could not save the session to {args.save_session}", file=sys.stderr)
        code = 1
    return _save(win, args, f"{ws.runner.info.name}: iteration {ws.runner.iteration}, test mode "
                            f"{ws.test_mode_shown}") or code


def _run_steps(win, args) -> bool:
    """Step the shown tab ``args.steps`` times and wait for it; False (with a message) on timeout."""
    if args.steps:
        win.step_all(args.steps)
    if not win.wait_idle(args.timeout):
        print(f"robust-subspace-lab: timed out after {args.timeout:g} s running {args.steps} steps",
              file=sys.stderr)
        return False
    return True


def _save(win, args, what: str) -> int:
    """Let the frame timer and the layouts settle, draw for sure, save the window to
    ``args.screenshot``; 0 if saved, else 1 (with a message)."""
    from PySide6 import QtWidgets

    win.redraw_now()
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    path = os.path.abspath(args.screenshot)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if not win.save_screenshot(path):
        print(f"robust-subspace-lab: could not write {path}", file=sys.stderr)
        return 1
    print(f"saved {path} ({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
