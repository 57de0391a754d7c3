"""The window's Export menu: the whole window as PNG, and for each column and each of its views
shown, the image (PNG or SVG, pyqtgraph's exporters) and the data behind it (CSV or NPZ) — see
:mod:`app.export`. The menu is rebuilt each time it opens, so it lists the columns and views
shown now. File names are asked with ``QFileDialog.getSaveFileName``; a failure is shown in a
message box and in the status bar."""
from __future__ import annotations

import os

from PySide6 import QtWidgets

from .export import default_name, export_view_data, export_view_image, export_window_png

__all__ = ["ExportMenu"]


def _ask(parent, caption: str, stem: str, filters: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, caption, os.path.join(os.getcwd(), stem), filters)
    return path


class ExportMenu(QtWidgets.QMenu):
    """See the module docstring. ``window`` is the main window (its ``columns`` and status bar)."""

    def __init__(self, window, parent=None):
        super().__init__("E&xport", parent or window)
        self.window = window
        self.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def rebuild(self) -> None:
        self.clear()
        self.window_action = self.addAction("&Window as PNG…", self.export_window)
        self.addSeparator()
        for col in self.window.subspace.columns:
            sub = self.addMenu(f"Column {col.index + 1}: {col.runner.info.name}")
            for view in col.views():
                title = getattr(type(view), "title", "") or type(view).__name__
                vm = sub.addMenu(title)
                vm.addAction("Image (PNG/SVG)…", lambda v=view: self.export_image(v))
                vm.addAction("Data (CSV/NPZ)…", lambda v=view, c=col: self.export_data(v, c))

    # ------------------------------------------------------------------ actions
    def _run(self, job, what: str) -> bool:
        try:
            path = job()
        except (ValueError, OSError) as exc:
            self.window.statusBar().showMessage(f"Export failed: {exc}", 10000)
            box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Warning, "Export", str(exc), parent=self.window)
            box.setModal(False)
            box.show()
            self._box = box
            return False
        self.window.statusBar().showMessage(f"Exported {what} to {path}", 10000)
        return True

    def export_window(self) -> bool:
        path = _ask(self.window, "Export the window", "robust-subspace-lab.png", "PNG image (*.png)")
        return bool(path) and self._run(lambda: export_window_png(self.window, path), "the window")

    def export_image(self, view) -> bool:
        path = _ask(self.window, "Export image", default_name(view) + ".png",
                    "PNG image (*.png);;SVG drawing (*.svg)")
        return bool(path) and self._run(lambda: export_view_image(view, path), "the image")

    def export_data(self, view, column) -> bool:
        path = _ask(self.window, "Export data", default_name(view, "data") + ".csv",
                    "CSV table (*.csv);;NumPy arrays (*.npz)")
        snap = column.shown_snapshot if column.shown_snapshot is not None else column.runner.snapshot()
        return bool(path) and self._run(lambda: export_view_data(view, snap, path), "the data")
