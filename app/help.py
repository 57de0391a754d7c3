"""Help ▸ Methods: what each method does and what its views show, for every method of both
workspaces (the text of a column's **?**, :mod:`core.guide`, with the method's source).

:class:`MethodsHelp` is a non-modal window: the methods listed by task and family on the left,
the selected one's text on the right. :func:`show_methods_help` opens it on the method of the
current workspace (the first column's in the subspace tab, the regression method in its tab).
"""
from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, guide

__all__ = ["MethodsHelp", "show_methods_help", "method_help_html"]

#: list headings by task
TASK_TITLES = {"subspace": "Subspace methods", "regression": "Regression"}


def method_help_html(key: str) -> str:
    """The help of method ``key`` as rich text: its name, family, teaching text and source."""
    info = catalogue.get(key)
    body = html.escape(guide.text(key)).replace("\n", "<br>")
    return (f"<h3>{html.escape(info.name)}</h3><p><i>{html.escape(info.family)}</i></p><p>{body}</p>"
            f"<p><b>Source:</b> {html.escape(info.reference)}</p>")


class MethodsHelp(QtWidgets.QDialog):
    """Every method's help (see the module docstring)."""

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Methods: what each one does and shows")
        self.setModal(False)
        self.resize(900, 560)
        self.list = QtWidgets.QListWidget()
        self.list.setMaximumWidth(280)
        self.text = QtWidgets.QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self._rows: dict[str, int] = {}
        for task, title in TASK_TITLES.items():
            heading = QtWidgets.QListWidgetItem(title)
            heading.setFlags(QtCore.Qt.NoItemFlags)
            font = heading.font()
            font.setBold(True)
            heading.setFont(font)
            self.list.addItem(heading)
            for info in catalogue.methods(task):
                item = QtWidgets.QListWidgetItem(f"  {info.name}")
                item.setData(QtCore.Qt.UserRole, info.key)
                item.setToolTip(info.family)
                self._rows[info.key] = self.list.count()
                self.list.addItem(item)
        self.list.currentItemChanged.connect(self._show_item)
        close = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.Close)
        close.rejected.connect(self.close)
        split = QtWidgets.QHBoxLayout()
        split.addWidget(self.list)
        split.addWidget(self.text, 1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addLayout(split, 1)
        lay.addWidget(close)
        if self._rows:
            self.select(next(iter(self._rows)))

    @property
    def keys(self) -> list[str]:
        """The method keys listed, in order."""
        return list(self._rows)

    @property
    def current_key(self) -> str | None:
        item = self.list.currentItem()
        return item.data(QtCore.Qt.UserRole) if item is not None else None

    def select(self, key: str) -> None:
        """Show method ``key`` (KeyError if it is not listed)."""
        self.list.setCurrentRow(self._rows[key])

    def _show_item(self, item, _previous=None) -> None:
        key = item.data(QtCore.Qt.UserRole) if item is not None else None
        if key:
            self.text.setHtml(method_help_html(key))


def _current_method_key(window) -> str | None:
    """The method of the window's current workspace: the regression method, or the first column's."""
    ws = getattr(window, "current_workspace", None)
    info = getattr(ws, "method_info", None)
    if info is not None:
        return info.key
    columns = getattr(ws, "columns", None) or []
    return columns[0].runner.key if columns else None


def show_methods_help(window: QtWidgets.QWidget) -> MethodsHelp:
    """Open (or raise) the Methods help of ``window``, on its current workspace's method."""
    box = window.methods_help
    if box is None:
        box = window.methods_help = MethodsHelp(window)
    key = _current_method_key(window)
    if key in box.keys:
        box.select(key)
    box.show()
    box.raise_()
    return box
