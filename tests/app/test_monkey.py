"""Random use for 20 s (issue: "a random-use test"): seeded clicks, combos, sliders, typing,
tabs, menus and resizes on the real window. Fails on any exception, any NaN shown, and any
event-loop gap over 1 s. ``benchmarks/monkey.py`` runs the same driver for as long as asked."""
import pytest
from PySide6 import QtWidgets

from robust_subspace_lab.app.monkey import Monkey

SECONDS = 20
GAP_LIMIT_MS = 1000.0


@pytest.fixture
def no_file_dialogs(monkeypatch):
    """A random click must never block on a native file chooser: answer "cancelled"."""
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))


@pytest.mark.slow
def test_random_use_raises_nothing_shows_no_nan_and_never_freezes(make_window, no_file_dialogs):
    win = make_window()
    monkey = Monkey(win, seed=2026)
    found = monkey.run(SECONDS)
    win.shutdown(wait_ms=5000)
    assert found.actions > 20, found.summary()
    assert not found.exceptions, found.exceptions[0]
    assert not found.nan_texts, found.nan_texts[:3]
    assert found.longest_gap_ms < GAP_LIMIT_MS, found.summary()
