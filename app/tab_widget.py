"""The workspace tabs, whose minimum size is that of the tab shown.

A plain ``QTabWidget`` asks for the largest minimum of all its pages: the Regression tab's 801 px
then held the window at 1,355 px with the Data dock and the lesson panel beside the Subspace
tab, wider than a 1280 × 720 projector. Here the minimum follows the page shown (each page's own
layout still gets at least its minimum while it is shown).
"""
from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["ShownPageTabs"]


class ShownPageTabs(QtWidgets.QTabWidget):
    """A ``QTabWidget`` whose ``minimumSizeHint`` is its tab bar plus the page shown's."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.currentChanged.connect(lambda _i: self.updateGeometry())

    def minimumSizeHint(self) -> QtCore.QSize:
        page = self.currentWidget()
        if page is None:
            return super().minimumSizeHint()
        inner = page.minimumSizeHint().expandedTo(page.minimumSize())
        bar = self.tabBar().minimumSizeHint()
        return QtCore.QSize(max(inner.width(), bar.width()), inner.height() + bar.height())
