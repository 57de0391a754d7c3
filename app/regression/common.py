"""Constants and small helpers of the regression workspace (:mod:`app.regression.workspace`)."""
from __future__ import annotations

import html

import numpy as np
from PySide6 import QtWidgets

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.regression import RegressionEstimator

from .. import params as P

__all__ = ["DEFAULT_METHOD", "APPLY_DELAY_MS", "TEST_ROWS", "PANEL_WIDTH", "MESSAGE_STYLE", "NOTE_STYLE",
           "METRICS_TIP", "slider_specs", "has_own_cleaning", "make_label", "format_metric"]

DEFAULT_METHOD = "rr"
#: ms to wait after the last change of a parameter before applying it
APPLY_DELAY_MS = 200
#: test samples shown in the Test section
TEST_ROWS = 4
#: width of the data, corruption and method panel (px)
PANEL_WIDTH = 340

MESSAGE_STYLE = ("QLabel { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0;"
                 " border-radius: 3px; padding: 4px; }")
NOTE_STYLE = ("QLabel { background: #fff6e0; color: #6b4a00; border: 1px solid #f0d9a0;"
              " border-radius: 3px; padding: 4px; }")

METRICS_TIP = (
    "train / test accuracy: share of correctly labelled samples (nearest class mean in the output space)\n"
    "RAE_Y: relative error of the predicted targets ‖Ŷ − Y‖/‖Y‖ (Huang et al. 2016 §5.1)\n"
    "RAE_T: relative error of T against the true regressor (the scored columns, §5.1)\n"
    "cleaning error: ‖D − X_clean‖/‖X_clean‖ of the cleaned training inputs (input: the same for X)\n"
    "distance to clean: mean ‖dᵢ − xᵢ_clean‖ of the samples of one kind of error (input → cleaned)")


def slider_specs(info, count: int = 3) -> list:
    """The parameters worth a slider: the first ``count`` float parameters with a slider range
    (RR, RLDA: λ, η, γ on log scales)."""
    return [s for s in P.slider_specs(info.params) if s.kind == "float"][:count]


def has_own_cleaning(info) -> bool:
    """The method cleans test inputs its own way (RR family: Alg. 2; RPCA+LSR: PCP)."""
    return info.estimator.clean_inputs is not RegressionEstimator.clean_inputs


def _regression_keys() -> list[str]:
    return [m.key for m in catalogue.methods("regression")]


def make_label(text: str, style: str | None = None, wrap: bool = True) -> QtWidgets.QLabel:
    """A QLabel of ``text`` (rich text allowed), word-wrapping unless ``wrap`` is False, with the
    style sheet ``style`` (e.g. :data:`NOTE_STYLE`)."""
    lab = QtWidgets.QLabel(text)
    lab.setWordWrap(wrap)
    if style:
        lab.setStyleSheet(style)
    return lab


def format_metric(name: str, v) -> str:
    """The value ``v`` of metric ``name`` as shown in the metrics table: an accuracy in per cent
    (one decimal), any other number to 3 significant digits, "–" for NaN or ±inf, and anything
    that is not a number as escaped text."""
    try:
        v = float(v)
    except (TypeError, ValueError):
        return html.escape(str(v))
    if not np.isfinite(v):
        return "–"
    if "accuracy" in name:
        return f"{100.0 * v:.1f} %"
    return f"{v:.3g}"
