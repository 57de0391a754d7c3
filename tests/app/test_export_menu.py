"""The Export menu (issue 14, point 3): the window as PNG, each view's image (PNG/SVG) and data
(CSV/NPZ), through the menu bar's actions with the file dialog answered."""
from __future__ import annotations

import numpy as np
from PySide6 import QtGui, QtWidgets

from robust_subspace_lab.app.export import read_csv


def _answer(monkeypatch, path):
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))


def _menu_action(menu, *texts):
    """The action reached by the menu titles ``texts`` (the last one is the action's text prefix)."""
    menu.rebuild() if hasattr(menu, "rebuild") else None
    for i, text in enumerate(texts):
        acts = [a for a in menu.actions() if a.text().replace("&", "").startswith(text)]
        assert acts, f"no {text!r} in {[a.text() for a in menu.actions()]}"
        if i == len(texts) - 1:
            return acts[0]
        menu = acts[0].menu()


def test_export_menu_is_in_the_menu_bar_and_writes_the_window_png(make_window, monkeypatch, tmp_path):
    win = make_window(methods=("pca",), size=(24, 24))
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    assert "Export" in titles
    _answer(monkeypatch, tmp_path / "window.png")
    _menu_action(win.export_menu, "Window as PNG").trigger()
    img = QtGui.QImage(str(tmp_path / "window.png"))
    assert not img.isNull() and img.width() >= win.width() * 0.9


def test_every_view_exports_png_svg_csv_or_npz(make_window, monkeypatch, tmp_path, qtbot):
    win = make_window(methods=("pca-gm",), size=(24, 24))
    win.step_all(1)
    qtbot.waitUntil(lambda: not win.busy and win.subspace.columns[0].runner.iteration == 1, timeout=15000)
    win.redraw_now()
    col = win.subspace.columns[0]
    views = col.views()
    assert views
    column_menu = f"Column 1: {col.runner.info.name}"
    for n, view in enumerate(views):
        title = getattr(type(view), "title", "") or type(view).__name__
        for suffix in ("png", "svg"):
            out = tmp_path / f"v{n}.{suffix}"
            _answer(monkeypatch, out)
            _menu_action(win.export_menu, column_menu, title, "Image").trigger()
            assert out.stat().st_size > 100, out
            if suffix == "svg":
                assert b"<svg" in out.read_bytes()[:2000]
            else:
                assert not QtGui.QImage(str(out)).isNull()
        npz = tmp_path / f"v{n}.npz"
        _answer(monkeypatch, npz)
        _menu_action(win.export_menu, column_menu, title, "Data").trigger()
        with np.load(npz) as arrays:
            assert arrays.files and all(np.all(np.isfinite(arrays[k])) for k in arrays.files
                                        if arrays[k].dtype.kind == "f")
    # the weights behind the weights view, as CSV: one weight per image, in [0, 1]
    weights = [v for v in views if getattr(type(v), "title", "") == "Sample weights"]
    assert weights                                   # PCA-GM weighs every image
    if weights:
        out = tmp_path / "weights.csv"
        _answer(monkeypatch, out)
        _menu_action(win.export_menu, column_menu, type(weights[0]).title, "Data").trigger()
        header, values = read_csv(out)
        assert values.shape[0] == win.subspace.data.X.shape[0]


def test_an_export_error_is_shown_not_raised(make_window, monkeypatch, tmp_path):
    win = make_window(methods=("pca",), size=(24, 24))
    _answer(monkeypatch, tmp_path / "window.jpg")           # only PNG for the window
    _menu_action(win.export_menu, "Window as PNG").trigger()
    assert win.export_menu._box.isVisible()
    assert not (tmp_path / "window.jpg").exists()
