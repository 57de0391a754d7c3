"""Export of the views: any view as a PNG or SVG image, the data behind it as CSV or NPZ, and the
whole window as a PNG.

* :func:`export_view_image` (view, path): PNG or SVG, chosen by the suffix of ``path``
  (pyqtgraph's ``ImageExporter`` / ``SVGExporter`` for plots and image mosaics; Qt's
  ``QSvgGenerator`` where pyqtgraph's SVG exporter fails, and for plain Qt widgets).
* :func:`export_view_data` (view, snapshot, path): ``view.export_data(snapshot)`` (a dict of named
  arrays, see :class:`app.views.View`) as NPZ (every array under its name), or as CSV: one column
  per 1-D array of equal length with a header line, or one 2-D array with a header naming it.
* :func:`export_window_png` (window, path): a grab of the whole window.
* :func:`add_view_actions` (view, parent): "Export image…" and "Export data…" in the view's
  right-click menu.

Errors: ``ValueError`` for an unsupported suffix or data that does not fit the chosen format
(several arrays of different shapes to CSV: use NPZ); ``OSError`` when the file cannot be written.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers pg.exporters)
from PySide6 import QtCore, QtGui, QtWidgets

from .views.common import MenuOnDemandViewBox

__all__ = ["export_view_image", "export_view_data", "export_window_png", "add_view_actions",
           "IMAGE_SUFFIXES", "DATA_SUFFIXES", "default_name"]

IMAGE_SUFFIXES = (".png", ".svg")
DATA_SUFFIXES = (".csv", ".npz")


def _scene_item(view):
    """The graphics item that holds the whole view: the PlotItem of a PlotWidget, the central
    layout of a GraphicsLayoutWidget, or None for a plain Qt widget."""
    if isinstance(view, pg.PlotWidget):
        return view.getPlotItem()
    if isinstance(view, pg.GraphicsLayoutWidget):
        return view.ci
    plots = view.findChildren(pg.PlotWidget) if isinstance(view, QtWidgets.QWidget) else []
    if len(plots) == 1:
        return plots[0].getPlotItem()
    return None


def _suffix(path, allowed) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise ValueError(f"file type {suffix or '(none)'!r} is not supported here; use one of "
                         + ", ".join(allowed))
    return suffix


def export_view_image(view, path) -> Path:
    """Write ``view`` as it is drawn now to ``path``: PNG (pixels, at the view's size on screen)
    or SVG (vectors), by the suffix. Returns the path written.

    Raises:
        ValueError: the suffix is neither .png nor .svg.
        OSError: the file cannot be written.
    """
    path = Path(path)
    suffix = _suffix(path, IMAGE_SUFFIXES)
    item = _scene_item(view)
    if item is None:
        return _render_svg(view, path) if suffix == ".svg" else _grab(view, path)
    if suffix == ".svg":
        try:
            pg.exporters.SVGExporter(item).export(str(path))
        except ValueError:
            # pyqtgraph 0.14's SVGExporter cannot parse some paths Qt 6 writes ("M x y"):
            # Qt's own SVG generator draws the view instead
            _render_svg(view, path)
        if not path.exists():
            raise OSError(f"could not write {path}")
        return path
    exporter = pg.exporters.ImageExporter(item)
    if suffix == ".png":
        rect = item.sceneBoundingRect()
        width = max(int(round(rect.width())), 1)
        exporter.parameters()["width"] = width
    exporter.export(str(path))
    if not path.exists():
        raise OSError(f"could not write {path}")
    return path


def _render_svg(widget: QtWidgets.QWidget, path: Path) -> Path:
    """Draw ``widget`` into an SVG file with Qt's QSvgGenerator (vectors where Qt keeps them)."""
    from PySide6.QtSvg import QSvgGenerator

    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(widget.size())
    gen.setViewBox(widget.rect())
    gen.setTitle(getattr(type(widget), "title", "") or type(widget).__name__)
    painter = QtGui.QPainter()
    if not painter.begin(gen):
        raise OSError(f"could not write {path}")
    try:
        QtWidgets.QWidget.render(widget, painter, QtCore.QPoint(0, 0))   # the widget as drawn
    finally:
        painter.end()
    return path


def _grab(widget: QtWidgets.QWidget, path: Path) -> Path:
    pix = widget.grab()
    if pix.isNull() or not pix.save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    return path


def export_window_png(window: QtWidgets.QWidget, path) -> Path:
    """Write a PNG of the whole ``window`` (all columns, panels, status bar) to ``path``.

    Raises:
        ValueError: ``path`` does not end in .png.
        OSError: the file cannot be written.
    """
    path = Path(path)
    _suffix(path, (".png",))
    return _grab(window, path)


def _csv_header_name(name: str) -> str:
    return re.sub(r"[,\n\r]", " ", str(name))


def export_view_data(view, snapshot, path) -> Path:
    """Write the data behind ``view`` for ``snapshot`` (``view.export_data(snapshot)``) to
    ``path``: NPZ (``np.savez``, one array per name) or CSV (by the suffix). Returns the path.

    CSV holds either one column per array when every array is 1-D of the same length (header: the
    names), or a single array: 1-D as one column, 2-D as rows with a header
    ``name[0], name[1], …``, 3-D images (k, h, w) as k·h rows of w values with the header
    ``name (k×h rows of w)``. Everything else needs NPZ.

    Raises:
        ValueError: no data to export (the view shows nothing for this snapshot), an unsupported
            suffix, or arrays that do not fit one CSV table.
    """
    path = Path(path)
    suffix = _suffix(path, DATA_SUFFIXES)
    data = {str(k): np.asarray(v) for k, v in view.export_data(snapshot).items()}
    if not data:
        raise ValueError("this view has no data to export for the shown iteration")
    if suffix == ".npz":
        with open(path, "wb") as fh:
            np.savez(fh, **data)
        return path
    arrays = list(data.values())
    names = list(data)
    if all(a.ndim == 1 for a in arrays) and len({len(a) for a in arrays}) == 1:
        table = np.column_stack([a.astype(float) for a in arrays])
        header = ",".join(_csv_header_name(n) for n in names)
    elif len(arrays) == 1 and arrays[0].ndim in (1, 2, 3):
        a = arrays[0].astype(float)
        name = _csv_header_name(names[0])
        if a.ndim == 1:
            table, header = a[:, None], name
        elif a.ndim == 2:
            table = a
            header = ",".join(f"{name}[{j}]" for j in range(a.shape[1]))
        else:
            table = a.reshape(-1, a.shape[-1])
            header = f"{name} ({a.shape[0]}x{a.shape[1]} rows of {a.shape[2]})"
    else:
        shapes = ", ".join(f"{n} {tuple(a.shape)}" for n, a in data.items())
        raise ValueError(f"these arrays do not fit one CSV table ({shapes}); export as NPZ")
    np.savetxt(path, table, delimiter=",", header=header, comments="", fmt="%.10g")
    return path


def read_csv(path) -> tuple[list[str], np.ndarray]:
    """(header names, 2-D table) of a CSV written by :func:`export_view_data`."""
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split(",")
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return header, table


def default_name(view, kind: str = "") -> str:
    """A file name stem for ``view``: its title in lower case, spaces as dashes."""
    title = getattr(type(view), "title", "") or type(view).__name__
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "view"
    return stem + (f"-{kind}" if kind else "")


def _ask_path(parent, caption: str, stem: str, filters: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, caption, os.path.join(os.getcwd(), stem),
                                                    filters)
    return path


def add_view_actions(view, column=None) -> None:
    """Add "Export image…" and "Export data…" to the right-click menu of ``view``. The data is
    that of the snapshot ``column.shown_snapshot`` (or ``view.snapshot``)."""

    def snapshot():
        # (a method column or a regression workspace; any registered view: not every one keeps its snapshot)
        snap = getattr(column, "shown_snapshot", None) if column is not None else None
        return snap if snap is not None else getattr(view, "snapshot", None)

    def image():
        path = _ask_path(view, "Export image", default_name(view) + ".png",
                         "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            _report(view, lambda: export_view_image(view, path))

    def data():
        path = _ask_path(view, "Export data", default_name(view, "data") + ".csv",
                         "CSV table (*.csv);;NumPy arrays (*.npz)")
        if path:
            _report(view, lambda: export_view_data(view, snapshot(), path))

    actions = []
    for text, slot in (("Export image…", image), ("Export data…", data)):
        act = QtGui.QAction(text, view)
        act.triggered.connect(slot)
        actions.append(act)
    vb = plot_view_box(view)
    if isinstance(vb, MenuOnDemandViewBox):
        vb.add_actions(actions)             # to its menu, built on the first right-click
    elif vb is not None and vb.menu is not None and vb.menuEnabled():
        vb.menu.addSeparator()
        for act in actions:
            vb.menu.addAction(act)
    else:
        view.setContextMenuPolicy(QtCore.Qt.ActionsContextMenu)
        for act in actions:
            view.addAction(act)
    view.export_actions = actions


def plot_view_box(view):
    """The ViewBox of a plot view (whose right-click menu gets the export actions), else None."""
    item = _scene_item(view)
    return item.getViewBox() if isinstance(item, pg.PlotItem) else None


def _report(view, job) -> None:
    try:
        job()
    except (ValueError, OSError) as exc:
        QtWidgets.QMessageBox.warning(view, "Export", str(exc))
