"""Which method columns are in view when they do not all fit side by side (no numerics).

Six columns (paper 000's Figs. 4 and 6) do not fit beside the lesson panel even at 1920 px: the
columns scroll sideways, and a thin scroll bar alone is easy to miss (the sixth column was read
as missing). :class:`ColumnsCue` sits left of the horizontal scroll bar, in its row, and says
which columns are shown and which lie to each side ("Columns 1–4 of 6 · 5–6 to the right ▶");
clicking it scrolls to the next column. It is hidden when every column is in view.
"""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ColumnsCue", "columns_in_view"]


def _span(first: int, last: int) -> str:
    return f"{first}" if first == last else f"{first}–{last}"


def columns_in_view(area: QtWidgets.QScrollArea, columns) -> tuple[int, int] | None:
    """(first, last), 1-based, of the ``columns`` (widgets inside ``area``) at least half in view;
    None if none is."""
    view = area.viewport().width()
    shown = []
    for i, col in enumerate(columns, 1):
        x = col.mapTo(area.viewport(), QtCore.QPoint(0, 0)).x()
        seen = min(x + col.width(), view) - max(x, 0)
        if col.width() > 0 and seen >= col.width() / 2:
            shown.append(i)
    return (shown[0], shown[-1]) if shown else None


class ColumnsCue(QtWidgets.QToolButton):
    """The cue of ``area`` (a scroll area holding the method columns), which reads
    ``columns()`` (a callable giving the columns in order) each time the view scrolls or changes."""

    def __init__(self, area: QtWidgets.QScrollArea, columns):
        super().__init__()
        self.area, self._columns = area, columns
        self.setObjectName("columnsCue")
        self.setAutoRaise(True)
        self.setToolTip("Not every column fits side by side: scroll sideways (Shift+wheel, or the bar) "
                        "or click here for the next column")
        self.setStyleSheet("QToolButton#columnsCue { color: #8a4b00; font-weight: bold; padding: 0 6px; }")
        self.clicked.connect(self.next_column)
        bar = area.horizontalScrollBar()
        area.addScrollBarWidget(self, QtCore.Qt.AlignLeft)
        bar.valueChanged.connect(self.update_text)
        bar.rangeChanged.connect(self.update_text)
        # a preset's columns take the places kept for them without changing the scroll range
        area.widget().installEventFilter(self)
        self._due = False
        self.update_text()

    def eventFilter(self, obj, event) -> bool:
        if event.type() in (QtCore.QEvent.ChildAdded, QtCore.QEvent.ChildRemoved, QtCore.QEvent.LayoutRequest) \
                and not self._due:
            self._due = True
            QtCore.QTimer.singleShot(0, self, self.update_text)
        return False

    def _fit_bar(self) -> None:
        """The scroll bar's row as high as the cue's text (it is one scroll bar high)."""
        bar = self.area.horizontalScrollBar()
        need = QtGui.QFontMetrics(self.font()).height() + 4
        if bar.minimumHeight() != need:
            bar.setMinimumHeight(need)
            self.setFixedHeight(need)

    def update_text(self, *_) -> None:
        self._due = False
        cols = list(self._columns())
        span = columns_in_view(self.area, cols) if cols else None
        if span is None or self.area.horizontalScrollBar().maximum() == 0 or span == (1, len(cols)):
            self.setText("")
            self.setVisible(False)
            return
        first, last = span
        n = len(cols)
        parts = []
        if first > 1:
            parts.append(f"◀ {_span(1, first - 1)} to the left")
        parts.append(f"Columns {_span(first, last)} of {n}")
        if last < n:
            parts.append(f"{_span(last + 1, n)} to the right ▶")
        self.setText(" · ".join(parts))
        self._fit_bar()
        self.setVisible(True)

    def next_column(self) -> None:
        """Scroll so that the first column not fully in view on the right comes into view (back
        to the first one at the end)."""
        cols = list(self._columns())
        view = self.area.viewport()
        for col in cols:
            x = col.mapTo(view, QtCore.QPoint(0, 0)).x()
            if x + col.width() > view.width() + 1:
                self.area.ensureWidgetVisible(col, 0, 0)
                return
        self.area.horizontalScrollBar().setValue(0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        QtCore.QTimer.singleShot(0, self, self.update_text)
