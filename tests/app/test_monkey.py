"""Random use (issue: "a random-use test"): a seeded count of clicks, combos, sliders, typing,
tabs, menus and resizes on the real window. Fails on any exception, any NaN shown, and a window
that does not come back to rest: once paused, every job ends and the event loop answers.
``benchmarks/monkey.py`` runs the same driver for as long as asked and reports the event loop's
gaps (timings belong to the benchmark, not to a pass/fail test)."""
import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app.monkey import Monkey

#: actions of the default run; the slow run (``pytest -m slow``) does ten times as many
ACTIONS = 40


@pytest.fixture
def no_file_dialogs(monkeypatch):
    """A random click must never block on a native file chooser: answer "cancelled"."""
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))


@pytest.mark.parametrize("actions", [ACTIONS, pytest.param(10 * ACTIONS, marks=pytest.mark.slow)])
def test_random_use_raises_nothing_shows_no_nan_and_comes_back_to_rest(actions, make_window, no_file_dialogs, qtbot):
    win = make_window()
    monkey = Monkey(win, seed=2026)
    found = monkey.run(actions=actions)
    assert found.actions == actions, found.summary()
    assert not found.exceptions, found.exceptions[0]
    assert not found.nan_texts, found.nan_texts[:3]
    win.pause_all()                                            # the tab shown, and a lesson's next steps
    for ws in win.workspaces:                                  # runs left going on other tabs
        ws.pause()
    qtbot.waitUntil(lambda: not win.busy, timeout=60000)      # no job left hanging, no deadlock
    answered = []
    QtCore.QTimer.singleShot(0, lambda: answered.append(True))
    qtbot.waitUntil(lambda: bool(answered), timeout=10000)    # the event loop turns
    win.shutdown(wait_ms=5000)
