"""pytest-qt fixtures for the app tests. Everything runs offscreen."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture(autouse=True, scope="session")
def _own_settings(tmp_path_factory):
    """The app's QSettings (the zoom kept between runs, app.display) in a directory of the test
    session's own, never the user's."""
    from PySide6 import QtCore

    where = str(tmp_path_factory.mktemp("qsettings"))
    for fmt in (QtCore.QSettings.NativeFormat, QtCore.QSettings.IniFormat):
        QtCore.QSettings.setPath(fmt, QtCore.QSettings.UserScope, where)
    yield where


@pytest.fixture(autouse=True)
def _fresh_settings(_own_settings):
    """Each test starts from the settings of a first run: a zoom kept by an earlier test (the
    random-use test presses Ctrl+=) made a later window's columns too wide for their checks."""
    from PySide6 import QtCore

    QtCore.QSettings().clear()
    yield


@pytest.fixture(autouse=True, scope="module")
def _app_process(qapp):
    """The app's process-wide settings (app.process.configure, as ``__main__.main()`` applies them:
    the GUI tests' latency relies on them), for each app test module: undone after it, so the
    tests that follow run on the process's own GC and BLAS threads.
    (Module scope: "package" lasts the whole session for a folder without ``__init__.py``.)"""
    from robust_subspace_lab.app.process import configure

    restore = configure()
    yield
    restore()


@pytest.fixture(scope="module")
def data():
    """The built-in faces, 20 % occluded by rectangles (the runner tests' data)."""
    from robust_subspace_lab.core import corruption, datasets

    return corruption.corrupt(datasets.lfw_faces(), "rectangles")


@pytest.fixture
def pool():
    """A thread pool of the test's own, waited for at the end (returns as soon as its jobs end)."""
    from PySide6 import QtCore

    p = QtCore.QThreadPool()
    yield p
    p.waitForDone(30000)


@pytest.fixture
def make_window(qtbot):
    """Factory: a shown MainWindow (closed by qtbot at the end), waited on until every column
    has its iteration-0 state."""
    from robust_subspace_lab.app.main_window import MainWindow

    def make(**kwargs):
        kwargs.setdefault("speed", "max")
        win = MainWindow(**kwargs)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitUntil(lambda: all(c.runner.states for c in win.subspace.columns) and not win.busy, timeout=15000)
        return win

    return make
