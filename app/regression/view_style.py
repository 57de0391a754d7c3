"""Colours, title and axis helpers shared by the regression workspace's views
(:mod:`app.regression.views` and :mod:`app.regression.outcome_views`)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from ..views.common import COLORS, TITLE_SIZE, mask_rgba

#: colours of the kinds of corruption (in the order of ``RegressionData.kinds``), then untouched
KIND_COLORS = ((230, 120, 20), (140, 60, 180), (0, 150, 110), (200, 60, 120))
UNTOUCHED = "uncorrupted"
UNTOUCHED_COLOR = (150, 150, 150)
CLEANED_COLOR = (220, 40, 40)
TRUTH_COLOR = (40, 100, 200)
#: missing input entries are painted in this colour (RGBA) over the input images
MISSING_COLOR = (255, 0, 255, 255)
MISSING_NAME = "magenta"
RIGHT_COLOR = "#1b7a2f"
WRONG_COLOR = "#c62828"


def note_html(text: str) -> str:
    """``text`` as a small grey HTML note to append to a chart title."""
    return f"  <span style='color:#777;font-size:8pt'>{text}</span>"


def set_clipped_title(plot: pg.PlotItem, text: str) -> None:
    """Set a plot's title without letting it widen the plot: a title longer than the plot is
    clipped instead of pushing the view out of its widget (as :class:`app.views.Title`)."""
    lab = plot.titleLabel
    if getattr(lab, "_unwidened", None) == text:
        return
    plot.setTitle(text, size=TITLE_SIZE, color=COLORS["title"])
    lab._unwidened = text
    h = lab.itemRect().height()
    lab.setMinimumWidth(0)
    lab._sizeHint[QtCore.Qt.SizeHint.MinimumSize] = (0, h)
    lab._sizeHint[QtCore.Qt.SizeHint.PreferredSize] = (0, h)
    lab.updateGeometry()


def grown_range_end(last: int) -> int:
    """x range end that grows in steps: 5, 10, 20, 30, ..."""
    return 5 if last <= 5 else 10 * -(-last // 10)


def missing_rgba(mask: np.ndarray) -> np.ndarray:
    """(…, 4) uint8: :data:`MISSING_COLOR` where ``mask`` (missing input entries), transparent elsewhere."""
    return mask_rgba(mask, MISSING_COLOR)


