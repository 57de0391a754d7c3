"""Offscreen screenshots of the window as a class sees it, and every text that does not fit.

Saves PNGs of the opening window at 1280×720 (two columns) and 1920×1080 (four columns), and of
every step of every lesson (:mod:`core.lessons`) at 1280×720, each step set up and run through
the window's lesson panel as a teacher would (Lessons menu, Next), once its runs have stopped and
its claims are checked. For each picture it lists the clipped texts (:func:`app.text_fit.clipped_texts`)
and the size of the reconstruction thumbnails, and writes the list to ``DIR/report.txt``::

    python benchmarks/screenshots.py                      # everything, into screenshots/
    python benchmarks/screenshots.py --lessons paper000-fig4,default-lesson --out /tmp/shots
    python benchmarks/screenshots.py --lessons none       # the opening window only
    python benchmarks/screenshots.py --size 1920x1080     # the lessons at 1920×1080
    python benchmarks/screenshots.py --lessons paper004-table3-rlda --no-opening

Exit status 1 when some text is clipped (the report says which), 0 otherwise.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: (width, height, methods) of the opening window's pictures
OPENING = ((1280, 720, ("pca", "pca-gm")), (1920, 1080, ("pca", "pca-gm", "rpca-om", "tc-nmf")))
#: size of the lessons' pictures
LESSON_SIZE = (1280, 720)


def _settle(app, win) -> None:
    for _ in range(5):
        app.processEvents()
    win.redraw_now()
    for _ in range(5):
        app.processEvents()


def _thumbnails(win) -> str:
    """The smallest reconstruction thumbnail of the subspace columns shown, in screen pixels."""
    sizes = []
    for col in win.subspace.columns:
        recon = col.__dict__.get("recon_view")
        if recon is not None and recon.isVisible() and recon._tile is not None:
            r = recon.vb.mapViewToDevice(recon.tile_rect(0, 0)).boundingRect()
            sizes.append(min(r.width(), r.height()))
    return f"thumbnails {min(sizes):.0f} px" if sizes else "no thumbnails"


def _shoot(app, win, path: str, report: list) -> int:
    from robust_subspace_lab.app.text_fit import clipped_texts

    _settle(app, win)
    win.save_screenshot(path)
    clips = clipped_texts(win)
    line = f"{os.path.basename(path)}: {len(clips)} clipped, {_thumbnails(win)}"
    print(line)
    report.append(line)
    for c in clips:
        report.append(f"    {c}")
        print(f"    {c}")
    return len(clips)


def _dispose(win) -> None:
    """Close ``win`` and delete it now, with everything it holds: its thread pools wait for the
    solvers still running (a window left to Python's shutdown had pool threads still running
    Python at interpreter exit: "Qt Concurrent has caught an exception thrown from a worker
    thread" after slow lessons), and its scenes are torn down while Python still runs."""
    from PySide6 import QtCore

    win.close()
    win.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.DeferredDelete)


def _lesson_idle(win) -> bool:
    driver = win.lesson_panel.driver
    step = driver.step
    if step is None or driver.error:
        return True
    return (not win.busy and not driver._actions
            and (driver.results is not None or not step.claims or step.action.kind == "wait"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="screenshots", help="folder of the PNGs and report.txt")
    p.add_argument("--lessons", default="all", help="'all', 'none' or comma-separated lesson keys")
    p.add_argument("--size", default="x".join(map(str, LESSON_SIZE)), help="the lessons' window size, WxH")
    p.add_argument("--no-opening", action="store_true", help="skip the pictures of the opening window")
    p.add_argument("--timeout", type=float, default=240.0, help="seconds a lesson step may take")
    args = p.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    os.makedirs(args.out, exist_ok=True)

    from PySide6 import QtCore, QtWidgets

    app = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    # the zoom kept between runs must not change the pictures: settings of this run's own
    for fmt in (QtCore.QSettings.NativeFormat, QtCore.QSettings.IniFormat):
        QtCore.QSettings.setPath(fmt, QtCore.QSettings.UserScope, os.path.abspath(os.path.join(args.out, ".settings")))
    from robust_subspace_lab.app.main_window import MainWindow

    report: list[str] = []
    clipped = 0
    for width, height, methods in () if args.no_opening else OPENING:
        win = MainWindow(methods=methods[:2], speed="max")
        for key in methods[2:]:
            win.subspace.add_column(key)
        win.resize(width, height)
        win.show()
        win.wait_idle(120)
        clipped += _shoot(app, win, os.path.join(args.out, f"opening-{width}x{height}.png"), report)
        _dispose(win)

    try:
        from robust_subspace_lab.core import lessons
    except ImportError:
        lessons = None
    chosen = [] if lessons is None or args.lessons == "none" else (
        list(lessons.LESSONS) if args.lessons == "all" else [lessons.get(k) for k in args.lessons.split(",")])
    for lesson in chosen:
        win = MainWindow(speed="max")
        win.resize(*size)
        win.show()
        win.wait_idle(120)
        win.open_lesson(lesson)
        driver = win.lesson_panel.driver
        for i in range(len(lesson.steps)):
            if i:
                win.lesson_panel.next_button.click()
            start = time.monotonic()
            if not win.wait_for(lambda: _lesson_idle(win), args.timeout):
                report.append(f"{lesson.key} step {i + 1}: not idle after {args.timeout:g} s")
            took = time.monotonic() - start
            name = f"lesson-{lesson.key}-step{i + 1}-{size[0]}x{size[1]}.png"
            clipped += _shoot(app, win, os.path.join(args.out, name), report)
            if win.width() > size[0]:            # the window grew past the screen
                report.append(f"    window {win.width()} px wide, wider than {size[0]}")
                print(report[-1])
                clipped += 1
            report.append(f"    ({took:.0f} s; {driver.error or 'set up'})")
        _dispose(win)
    with open(os.path.join(args.out, "report.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(report) + "\n")
    print(f"{clipped} clipped text(s); report in {os.path.join(args.out, 'report.txt')}")
    return 1 if clipped else 0


if __name__ == "__main__":
    sys.exit(main())
