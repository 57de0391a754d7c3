"""The regression tab's confusion matrix writes each non-zero count in its cell, and redraws
change the cells' text items in place (building ~100 of them per redraw held the GUI thread
~120 ms each time, issue 13)."""
from __future__ import annotations

import numpy as np

from robust_subspace_lab.app.regression.outcome_views import ConfusionView


def _shown(view) -> dict:
    """(row, column) → text of the visible cell texts, read from their positions."""
    out = {}
    for t in view.texts:
        if t.isVisible():
            out[(int(t.pos().y()), int(t.pos().x()))] = t.textItem.toPlainText()
    return out


def test_counts_are_written_in_their_cells_and_redraws_reuse_the_items(qtbot):
    view = ConfusionView()
    qtbot.addWidget(view)
    rng = np.random.default_rng(0)
    names = [str(i) for i in range(10)]
    first = None
    for _ in range(4):
        counts = rng.integers(0, 4, size=(10, 10))
        view.show_counts(counts, names)
        expect = {(i, j): str(counts[i, j]) for i in range(10) for j in range(10) if counts[i, j]}
        assert _shown(view) == expect
        first = first or list(view.texts)
        assert len(view.texts) == len(first) and all(a is b for a, b in zip(view.texts, first))
    view.show_counts(None)
    assert _shown(view) == {}
    view.show_counts(np.array([[3, 0], [1, 2]]), ["a", "b"])
    assert _shown(view) == {(0, 0): "3", (1, 0): "1", (1, 1): "2"}


def test_counts_are_written_only_where_they_fit_their_cells(qtbot):
    """A matrix too small for its counts shows the colours alone (the counts overlapped each
    other at 1280×720, issue 28); grown, every count is written again."""
    view = ConfusionView()
    qtbot.addWidget(view)
    view.resize(110, 110)
    view.show()
    qtbot.waitExposed(view)
    counts = np.full((10, 10), 12)
    view.show_counts(counts, [str(i) for i in range(10)])
    qtbot.waitUntil(lambda: _shown(view) == {})
    view.resize(520, 520)
    qtbot.waitUntil(lambda: len(_shown(view)) == 100)
    cell = 1.0 / view.getPlotItem().vb.viewPixelSize()[0]
    assert all(t.textItem.boundingRect().width() <= cell for t in view.texts)
