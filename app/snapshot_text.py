"""What a method column says about a snapshot in words: its metrics line (HTML) and tooltips.

Numbers only, never NaN: core leaves an undefined metric out, and a non-finite value is shown as
"–"."""
from __future__ import annotations

import html
import math

__all__ = ["metrics_html", "error_line", "MeasuresText", "MEASURING_TIP", "METRICS_TIP", "NMF_METRICS_TIP", "ERROR_TIP", "NMF_ERROR_TIP", "RESTARTS"]

#: the snapshot's detail holding every restart's objective, one tuple per committed component
RESTARTS = "restart objectives"

METRICS_TIP = ("error: the reconstruction error against the clean images (Oh & Kwak 2016, eq. 14)\n"
               "total distance: Nie, Yuan & Huang (ICML 2014)'s total distance of each method's own reconstruction to the\n"
               "    clean samples (added outlier images excluded)\n"
               "weights AUC: the weights as an outlier detector (1 = every corrupted sample weighs less)\n"
               "mean angle to clean PCA: mean principal angle to the subspace PCA learns from the clean data")
NMF_METRICS_TIP = ("relative error: ‖X_clean − WH‖_F / ‖X_clean‖_F (Guan et al. 2019 §5.4), added outlier images\n"
                   "    excluded; W, H learned from the corrupted data\n"
                   "weights AUC: the mean pixel weights as an outlier detector (1 = every corrupted sample\n"
                   "    weighs less)\n"
                   "corrupted px cut: share of the corrupted pixels the method truncated (Q = 0)\n"
                   "cut px corrupted: share of the truncated pixels that the corruption changed\n"
                   "ACC / NMI: k-means (k = number of classes, fixed seed) on the\n"
                   "    coefficients H, against the labels; ACC with the best (Hungarian) matching, NMI\n"
                   "    normalised by max(H(C), H(C′)); only for data with labels; on large data\n"
                   "    computed once the run is over (\"at end\")")
ERROR_TIP = ("Reconstruction error against the clean images, Oh & Kwak 2016 eq. (14):\n"
             "E = (1/N) Σ ‖(x_i^clean − m) − WᵀW(x_i − m)‖, added outlier images excluded;\n"
             "grey levels (0–255). Lower is better.")
NMF_ERROR_TIP = ("Relative reconstruction error against the clean images, Guan et al. 2019 §5.4:\n"
                 "‖X_clean − WH‖_F / ‖X_clean‖_F with W, H learned from the corrupted data,\n"
                 "added outlier images excluded. Lower is better.")


def _fmt_metric(name: str, value) -> str:
    if value is None:                 # a costly metric computed at the end of the run
        return "<span style='color:#777;font-weight:normal'>at end</span>"
    try:
        v = float(value)
    except (TypeError, ValueError):
        return html.escape(str(value))
    if not math.isfinite(v):          # core leaves undefined metrics out; never show NaN
        return "<span style='color:#777;font-weight:normal'>undefined</span>"
    if "AUC" in name:
        return f"{v:.3f}"
    if "°" in name:
        return f"{v:.1f}°"
    if "%" in name:
        return f"{v:.1f} %"
    if "NMI" in name:
        return f"{v:.3f}"
    if 1e4 <= abs(v) < 1e9:
        return f"{v:,.0f}".replace(",", "\u2009")      # 88 040 (thin spaces), not 8.804e+04
    return f"{v:.4g}"


#: metric names of core.views as shown in the narrow metrics block (the tooltip explains each)
SHORT_NAMES = {"eq. 14 error": "error", "Σ‖xʳ−xᵒ‖": "total distance",
               "mean angle to clean PCA": "mean ∠ to clean PCA"}


def _short_metric_name(name: str) -> str:
    """The metric's name as shown in the narrow metrics block: units and the paper tags dropped
    (the tooltip gives both), the angle as ∠."""
    for tail in (" (°)", " (%)", " (000)", " (001)"):
        name = name.replace(tail, "")
    return SHORT_NAMES.get(name, name)


def metrics_html(snap) -> tuple[str, str]:
    """(rich text, tooltip): the snapshot's metrics as a compact two-column table, and the
    restart objectives (RSPCA) as one line for the last committed component; the tooltip lists
    every component's restarts."""
    items = [(_short_metric_name(str(k)), _fmt_metric(str(k), v)) for k, v in snap.metrics.items()]
    cells = [f"<td><span style='color:#555'>{html.escape(k)}</span>&nbsp;</td>"
             f"<td align='right'><b>{v}</b>&nbsp;&nbsp;</td>" for k, v in items]
    rows = ["<tr>" + "".join(cells[i:i + 2]) + "</tr>" for i in range(0, len(cells), 2)]
    text = "<table cellspacing='0' cellpadding='0'>" + "".join(rows) + "</table>"
    tip = ""
    restarts = snap.details.get(RESTARTS) if snap.details else None
    if restarts:
        lines = [f"component {i + 1} restarts: " + ", ".join(f"{float(v):.4g}" for v in r)
                 for i, r in enumerate(restarts)]
        last = lines[-1]
        if len(last) > 90:
            last = last[:88].rsplit(",", 1)[0] + ", …"
        text += f"<span style='color:#555'>{html.escape(last)}</span>"
        tip = "\n".join(lines)
    return text, tip


#: added to the tooltips while the snapshot shown is still being measured (app.worker, 5.)
MEASURING_TIP = ("Iteration {new}'s errors and metrics are being measured (a pass over the data); the greyed\n"
                 "numbers are those of iteration {old}.")


def error_line(snap) -> tuple[str, str, str]:
    """(the error line, its tooltip, the metrics block's tooltip) of a measured snapshot: the
    relative error of NMF, else paper 000's eq. 14 error ("" when there is none)."""
    if snap.relative_error is not None:
        return f"relative error: {100.0 * snap.relative_error:.2f} %", NMF_ERROR_TIP, NMF_METRICS_TIP
    if snap.error is None or not math.isfinite(snap.error):
        return "", ERROR_TIP, METRICS_TIP
    return f"reconstruction error: {snap.error:.4g}", ERROR_TIP, METRICS_TIP


class MeasuresText:
    """Draws a snapshot's error line and metrics block into two labels (a method column's). While
    the snapshot is being measured (``snap.measured`` False: app.worker, 5.) the numbers of the
    last measured iteration stay, greyed, and the tooltips say which iteration they are of."""

    def __init__(self, error_label, metrics_label):
        self.error_label, self.metrics_label = error_label, metrics_label
        self.measured_at = -1             # iteration of the numbers shown

    def draw(self, snap) -> None:
        stale = not snap.measured
        for label in (self.error_label, self.metrics_label):
            label.setEnabled(not stale)
        if stale:
            note = MEASURING_TIP.format(new=snap.iteration, old=self.measured_at)
            if not 0 <= self.measured_at < snap.iteration or not self.error_label.text():   # (another run's)
                self.error_label.setText("measuring…")
                self.metrics_label.setText("")
                note = note.split("; ")[0] + "."
            self.error_label.setToolTip(ERROR_TIP + "\n\n" + note)
            return
        line, error_tip, metrics_tip = error_line(snap)
        self.error_label.setText(line)
        if self.error_label.toolTip() != error_tip:
            self.error_label.setToolTip(error_tip)
        text, tip = metrics_html(snap)
        self.metrics_label.setText(text)
        self.metrics_label.setToolTip(metrics_tip + (("\n\n" + tip) if tip else ""))
        self.measured_at = snap.iteration
