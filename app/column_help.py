"""A method column's words about its weights and its method: the collapse line, the "?" box, and
which column F1 and Help ▸ "What you are seeing" mean (the focused one).

The rule of when weights have collapsed is core's (:func:`core.collapse.weight_collapse`, carried
by ``Snapshot.collapse``); this module only shows it."""
from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core import guide

__all__ = ["CollapseNote", "focused_column", "show_focused_help", "show_method_help"]


class CollapseNote(QtWidgets.QLabel):
    """One amber line under the column's scalars, shown only while the snapshot's weights have
    collapsed: ``"weights collapsed: 3 samples carry 99 % of the weight"``; the tooltip gives
    the numbers and points to the "?" text (why, and what changes it)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("collapseNote")
        self.setTextFormat(QtCore.Qt.PlainText)
        self.setStyleSheet("QLabel { background: #fff4d6; color: #6b4a00; border: 1px solid #f0d58c;"
                           " border-radius: 3px; padding: 1px 4px; }")
        self.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Fixed)
        self.setVisible(False)
        self._shown = None

    def draw(self, snap) -> None:
        """Show ``snap.collapse`` (hide the line when there is none or no snapshot)."""
        collapse = None if snap is None else snap.collapse
        if collapse == self._shown:
            return
        self._shown = collapse
        if collapse is None:
            self.setVisible(False)
            return
        self.setText("⚠ " + collapse.message)
        self.setToolTip(f"{collapse.detail}\nNear-zero residuals get near-infinite weights, so the fit "
                        "rests on these few samples. The column's \"?\" says why, and what changes it.")
        self.setVisible(True)


def show_method_help(column) -> QtWidgets.QMessageBox:
    """The column's non-modal "what you are seeing" box for its method (reused per column)."""
    info = column.runner.info
    if column.help_box is None:
        column.help_box = QtWidgets.QMessageBox(column)
        column.help_box.setIcon(QtWidgets.QMessageBox.Information)
        column.help_box.setModal(False)
    column.help_box.setWindowTitle(f"What you are seeing: {info.name}")
    column.help_box.setText(f"<b>{html.escape(info.name)}</b>")
    column.help_box.setInformativeText(f"{guide.text(info.key)}\n\nSource: {info.reference}")
    column.help_box.show()
    return column.help_box


def focused_column(columns: list):
    """The column holding the keyboard focus, else the one under the mouse pointer, else the
    first (None without columns)."""
    if not columns:
        return None
    for widget in (QtWidgets.QApplication.focusWidget(),
                   QtWidgets.QApplication.widgetAt(QtGui.QCursor.pos())):
        while widget is not None:
            if widget in columns:
                return widget
            widget = widget.parentWidget()
    return columns[0]


def show_focused_help(columns: list) -> QtWidgets.QMessageBox | None:
    """The "?" box of :func:`focused_column` (None without columns)."""
    column = focused_column(columns)
    return None if column is None else column.show_help()
