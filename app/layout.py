"""Size policies of the method columns and their views (no numerics).

Columns, the places a preset keeps for its columns, views and the places a column keeps for its
views share their space by stretch (``QSizePolicy.Ignored``), not by size hints: a column's and
a pyqtgraph view's size hints change as its views are built, and the layout then resized and
repainted the views of every column with each view built (156 -> 172 -> 156 px wide while a
preset built its columns).
"""
from __future__ import annotations

from PySide6 import QtWidgets

__all__ = ["share_by_stretch", "share_width_equally"]


def share_by_stretch(widget: QtWidgets.QWidget, min_height: int) -> None:
    """A view (or the place kept for it): its area's space by its stretch, at least ``min_height``."""
    widget.setMinimumHeight(min_height)
    widget.setMinimumWidth(0)
    widget.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Ignored)


def share_width_equally(widget: QtWidgets.QWidget, min_width: int) -> None:
    """A column (or the place kept for it): an equal share of the width, at least ``min_width``."""
    widget.setMinimumWidth(min_width)
    widget.setSizePolicy(QtWidgets.QSizePolicy.Ignored, widget.sizePolicy().verticalPolicy())
