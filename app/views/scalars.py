"""One or two of the method's scalars against the iteration. See :class:`ScalarHistoryView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .common import COLORS, Message, style_plot, View, plot_widget_kwargs

__all__ = ["ScalarHistoryView", "ElidingComboBox"]

#: scalars plotted on a log y axis (when all their values are positive)
LOG_SCALARS = ("μ", "mu", "primal residual", "residual", "ε", "σ")


def _is_constant(values: np.ndarray) -> bool:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return len(v) == 0 or bool(np.all(v == v[0]))


#: scalars shown on the right axis, next to the first scalar, when a method reports them
#: (robust NMF: the share of zero-weighted entries beside γ)
SECONDARY_SCALARS = ("truncated fraction",)
#: combo entry "no second scalar"
NONE_TEXT = "—"


class ElidingComboBox(QtWidgets.QComboBox):
    """A combo box as wide as its current text where there is room; narrower (a 330 px column's
    chart is 150 px wide, "truncated fraction  (constant)" needs 200), it shows the text elided
    ("truncated fr…") and its tooltip starts with the whole text. :func:`shown_text` is what it
    draws (:mod:`app.text_fit` checks it against the tooltip)."""

    #: px of a combo box beside its text: frame and arrow
    FRAME = 34

    def __init__(self, tip: str):
        super().__init__()
        self._tip = tip
        self.setToolTip(tip)
        self.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(1)

    def _field(self) -> QtCore.QRect:
        opt = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(opt)
        return self.style().subControlRect(QtWidgets.QStyle.CC_ComboBox, opt,
                                           QtWidgets.QStyle.SC_ComboBoxEditField, self)

    def shown_text(self) -> str:
        """The current text as drawn: whole, or elided to the edit field."""
        return self.fontMetrics().elidedText(self.currentText(), QtCore.Qt.ElideRight, self._field().width())

    def sizeHint(self) -> QtCore.QSize:
        hint = super().sizeHint()
        return QtCore.QSize(self.fontMetrics().horizontalAdvance(self.currentText()) + self.FRAME, hint.height())

    def minimumSizeHint(self) -> QtCore.QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance(self.currentText()[:4] + "…") + self.FRAME
        return QtCore.QSize(min(least, self.sizeHint().width()), hint.height())

    def fit(self) -> None:
        """The text changed: size hint and tooltip follow."""
        self.updateGeometry()
        self._tell()

    def _tell(self) -> None:
        full = self.currentText()
        tip = self._tip if self.shown_text() == full else f"{full}\n\n{self._tip}"
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._tell()

    def paintEvent(self, event) -> None:
        painter = QtWidgets.QStylePainter(self)
        painter.setPen(self.palette().color(QtGui.QPalette.Text))
        opt = QtWidgets.QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QtWidgets.QStyle.CC_ComboBox, opt)
        opt.currentText = self.shown_text()
        painter.drawControl(QtWidgets.QStyle.CE_ComboBoxLabel, opt)


class ScalarHistoryView(QtWidgets.QWidget, View):
    """One of ``Snapshot.scalar_history`` (rank, μ, primal residual, δ, γ, …) against iteration,
    chosen in a combo, and optionally a second one on a right axis (second combo).

    The first combo lists every scalar of the snapshot; by default it shows the first one that
    changes over the iterations (constants such as p are listed, marked "constant"), leaving out
    the :data:`SECONDARY_SCALARS`, which go to the right axis by default (robust NMF: γ on the
    left, the truncated fraction on the right). A choice the user makes is kept while the
    snapshots have that scalar. μ and residuals are drawn on a log y axis when they are
    positive. Each combo's text has the colour of its curve (the legend)."""

    title = "Scalars"
    tasks = frozenset({"subspace", "regression"})
    name = "scalar_view"
    area = "curves"

    TITLE = "Scalars"

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(4, 0, 0, 0)
        label = QtWidgets.QLabel("Scalar")
        label.setStyleSheet("color: #222;")
        self.label = label
        self.combo = ElidingComboBox("The method's own number to plot against iteration (left axis)")
        self.combo.activated.connect(self._on_chosen)
        self.label2 = QtWidgets.QLabel("+")
        self.label2.setStyleSheet("color: #222;")
        self.combo2 = ElidingComboBox("A second number to plot on the right axis (— for none)")
        self.combo2.activated.connect(self._on_chosen2)
        for combo, color in ((self.combo, COLORS["scalar"]), (self.combo2, COLORS["scalar2"])):
            # as wide as the name shown (not the longest name): two fit in a narrow column;
            # the list that drops down is as wide as the longest name
            combo.setStyleSheet("QComboBox { color: #%02x%02x%02x; }" % tuple(color))     # its curve's colour
        row.addWidget(label)
        row.addWidget(self.combo)
        row.addWidget(self.label2)
        row.addWidget(self.combo2)
        row.addStretch(1)
        lay.addLayout(row)
        # the second combo's row when the two do not fit side by side (_place_second)
        self._row, self._row2 = row, QtWidgets.QHBoxLayout()
        self._row2.setContentsMargins(4, 0, 0, 0)
        self._row2.addStretch(1)
        lay.addLayout(self._row2)
        self.plot_widget = pg.PlotWidget(**plot_widget_kwargs())
        plot = self.plot_widget.getPlotItem()
        style_plot(plot, "", "iteration", "")
        plot.setTitle(None)
        plot.hideButtons()
        pen = pg.mkPen(COLORS["scalar"], width=2)
        self.curve = plot.plot([], [], pen=pen, symbol="o", symbolSize=5, connect="finite",
                               symbolBrush=pg.mkBrush(*COLORS["scalar"]), symbolPen=None)
        # second scalar: its own ViewBox on the right axis, x linked to the plot
        self.vb2 = pg.ViewBox(enableMenu=False)
        self.vb2.setMouseEnabled(x=False, y=False)
        plot.scene().addItem(self.vb2)
        right = plot.getAxis("right")
        right.linkToView(self.vb2)
        right.setTextPen(COLORS["axis"])
        right.setPen(COLORS["axis"])
        right.setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)
        right.enableAutoSIPrefix(False)       # a fraction stays 0.4, not "400 (×0.001)"
        self.vb2.setXLink(plot.vb)
        plot.vb.sigResized.connect(self._sync_vb2)
        self.curve2 = pg.PlotDataItem([], [], pen=pg.mkPen(COLORS["scalar2"], width=2,
                                                            style=QtCore.Qt.DashLine),
                                      symbol="s", symbolSize=5, connect="finite",
                                      symbolBrush=pg.mkBrush(*COLORS["scalar2"]), symbolPen=None)
        self.vb2.addItem(self.curve2)
        plot.hideAxis("right")
        self.message = Message()
        plot.addItem(self.message)
        lay.addWidget(self.plot_widget, 1)
        self._names: tuple = ()
        self._chosen: str | None = None      # the user's choice
        self._chosen2: str | None = None     # the user's second choice ("" = none)
        self.current: str | None = None      # the scalar drawn
        self.current2: str | None = None     # the scalar drawn on the right axis, or None
        self._axis_labels: dict[str, str] = {}
        self._log = False
        self.snapshot = None

    def _sync_vb2(self) -> None:
        self.vb2.setGeometry(self.plot_widget.getPlotItem().vb.sceneBoundingRect())

    def names(self) -> list[str]:
        """The scalar names the combo lists."""
        return [self.combo.itemData(i) for i in range(self.combo.count())]

    def choose(self, name: str) -> None:
        """Plot ``name`` (as if the user picked it in the combo)."""
        i = self.combo.findData(name)
        if i >= 0:
            self.combo.setCurrentIndex(i)
            self._on_chosen(i)

    def choose_second(self, name: str | None) -> None:
        """Plot ``name`` on the right axis (None: no second scalar), as the user would."""
        i = self.combo2.findData(name if name is not None else "")
        if i >= 0:
            self.combo2.setCurrentIndex(i)
            self._on_chosen2(i)

    def _on_chosen(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name is not None:
            self._chosen = name
            self._fit_combos()
            self._draw()

    def _on_chosen2(self, index: int) -> None:
        name = self.combo2.itemData(index)
        if name is not None:
            self._chosen2 = name
            self._fit_combos()
            self._draw()

    def _default(self, history: dict) -> str | None:
        for name, values in history.items():
            if name not in SECONDARY_SCALARS and not _is_constant(values):
                return name
        for name, values in history.items():
            if not _is_constant(values):
                return name
        return next(iter(history), None)

    def _default2(self, history: dict, first: str | None) -> str:
        return next((n for n in SECONDARY_SCALARS if n in history and n != first), "")

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        history = {} if snap is None else dict(snap.scalar_history)
        names = tuple(history)
        blocked = self.combo.blockSignals(True)
        blocked2 = self.combo2.blockSignals(True)
        try:
            if names != self._names:
                self._names = names
                self.combo.clear()
                self.combo2.clear()
                self.combo2.addItem(NONE_TEXT, "")
                for name in names:
                    self.combo.addItem(name, name)
                    self.combo2.addItem(name, name)
            for i, name in enumerate(names):
                # one value is no sign of a constant (every scalar at iteration 0)
                const = np.count_nonzero(np.isfinite(np.asarray(history[name], dtype=float))) > 1 \
                    and _is_constant(history[name])
                text = f"{name}  (constant)" if const else name
                if self.combo.itemText(i) != text:
                    self.combo.setItemText(i, text)
                if self.combo2.itemText(i + 1) != text:
                    self.combo2.setItemText(i + 1, text)
            name = self._chosen if self._chosen in history else self._default(history)
            self.current = name
            if name is not None:
                self.combo.setCurrentIndex(self.combo.findData(name))
            second = (self._chosen2 if self._chosen2 is not None and (self._chosen2 == "" or self._chosen2 in history)
                      else self._default2(history, name))
            self.combo2.setCurrentIndex(max(self.combo2.findData(second), 0))
            self.combo.setEnabled(bool(names))
            two = len(names) > 1
            self.combo2.setVisible(two)
            self.label2.setVisible(two)
            self.label.setVisible(not two)         # room for the second combo in a narrow column
        finally:
            self.combo.blockSignals(blocked)
            self.combo2.blockSignals(blocked2)
        self._fit_combos()
        self._draw()

    def _fit_combos(self) -> None:
        for combo, color in ((self.combo, COLORS["scalar"]), (self.combo2, COLORS["scalar2"])):
            combo.setStyleSheet("QComboBox { color: #%02x%02x%02x; }" % tuple(color))     # its curve's colour
            fm = combo.fontMetrics()
            combo.fit()
            longest = max((fm.horizontalAdvance(combo.itemText(i)) for i in range(combo.count())), default=0)
            if combo.view().minimumWidth() != longest + 30:
                combo.view().setMinimumWidth(longest + 30)
        self._place_second()

    def _place_second(self) -> None:
        """The second combo ("+" and its name) beside the first when both fit the view's width,
        else on a row of its own (a 330 px column's "γ + truncated fraction" ran past its edge)."""
        row = self._row
        widgets = [w for w in (self.label, self.combo, self.label2) if not w.isHidden()]
        need = (row.contentsMargins().left() + sum(max(w.minimumWidth(), w.sizeHint().width()) for w in widgets)
                + self.combo2.sizeHint().width() + row.spacing() * len(widgets))
        below = self.combo2.isVisibleTo(self) and need > self.width()
        target = self._row2 if below else row
        if target.indexOf(self.combo2) < 0:
            for w in (self.label2, self.combo2):
                (row if below else self._row2).removeWidget(w)
                target.insertWidget(target.count() - 1, w)       # before the stretch

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_second()

    def drawn(self) -> tuple[np.ndarray, np.ndarray]:
        """(iterations, values) of the curve as given to it."""
        x, y = self.curve.xData, self.curve.yData
        return (np.zeros(0) if x is None else np.asarray(x), np.zeros(0) if y is None else np.asarray(y))

    def drawn_second(self) -> tuple[np.ndarray, np.ndarray]:
        """(iterations, values) of the right-axis curve (empty when none is drawn)."""
        x, y = self.curve2.xData, self.curve2.yData
        return (np.zeros(0) if x is None else np.asarray(x), np.zeros(0) if y is None else np.asarray(y))

    def _set_axis_label(self, side: str, text: str) -> None:
        """Set an axis label only when it changes (a new label re-lays out the plot)."""
        if self._axis_labels.get(side) != text:
            self._axis_labels[side] = text
            axis = self.plot_widget.getPlotItem().getAxis(side)
            axis.setLabel(text)
            axis.resizeEvent(None)          # pyqtgraph places a new label only when the axis is resized

    @staticmethod
    def _axis_label(name: str, color, log: bool = False) -> str:
        """The axis says only "log" when it is one: the combo above it, in the colour of its
        curve, names the scalar (a name on the axis, "truncated fraction", was longer than the
        axis of a chart 150 px high)."""
        return ("<span style='color:#%02x%02x%02x'>log</span>" % tuple(color)) if log else ""

    def _draw(self) -> None:
        snap = self.snapshot
        plot = self.plot_widget.getPlotItem()
        name = self.combo.itemData(self.combo.currentIndex()) if self.combo.count() else None
        self.current = name
        if snap is None or name is None or name not in snap.scalar_history:
            self.curve.setData([], [])
            self._draw_second(None)
            self.message.setText("no state yet" if snap is None else "no scalars to plot")
            self.message.setPos(0.5, 0.0 if self._log else 0.5)
            return
        if self.message.textItem.toPlainText():
            self.message.setText("")
        y = np.asarray(snap.scalar_history[name], dtype=float)
        x = np.arange(len(y), dtype=float)
        finite = y[np.isfinite(y)]
        log = (any(k in name for k in LOG_SCALARS) and len(finite) > 0 and bool(np.all(finite > 0)))
        if log != self._log:
            self._log = log
            plot.setLogMode(y=log)
        self._set_axis_label("left", self._axis_label(name, COLORS["scalar"], log))
        self.curve.setData(x, y)
        last = max(len(y) - 1, 1)
        plot.setXRange(0, 5 if last <= 5 else 10 * -(-last // 10), padding=0.03)
        if len(finite):
            lo, hi = float(finite.min()), float(finite.max())
            if log:
                lo, hi = np.log10(lo), np.log10(hi)
                d = max(0.1 * (hi - lo), 0.3)
            else:
                d = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.05, 1.0)
            plot.setYRange(lo - d, hi + d, padding=0)
        second = self.combo2.itemData(self.combo2.currentIndex()) if self.combo2.count() else ""
        self._draw_second(second if second and second != name and second in snap.scalar_history
                          else None)

    def _draw_second(self, name: str | None) -> None:
        plot = self.plot_widget.getPlotItem()
        self.current2 = name
        if name is None:
            self.curve2.setData([], [])
            if plot.getAxis("right").isVisible():
                plot.hideAxis("right")
            return
        if not plot.getAxis("right").isVisible():
            plot.showAxis("right")
            self._sync_vb2()
        y = np.asarray(self.snapshot.scalar_history[name], dtype=float)
        self.curve2.setData(np.arange(len(y), dtype=float), y)
        self._set_axis_label("right", self._axis_label(name, COLORS["scalar2"]))
        finite = y[np.isfinite(y)]
        if len(finite):
            lo, hi = float(finite.min()), float(finite.max())
            d = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.05, 0.01)
            self.vb2.setYRange(lo - d, hi + d, padding=0)

    def export_data(self, snapshot) -> dict:
        """Every scalar of the method (rank, μ, γ, …) at every iteration so far, and the metrics
        history when the snapshot has one: iteration (t,) and one (t,) array per scalar."""
        if snapshot is None or not snapshot.scalar_history:
            return {}
        out = {}
        for k, v in snapshot.scalar_history.items():
            try:
                out[str(k)] = np.asarray(v, dtype=float)
            except (TypeError, ValueError):
                continue
        n = max((len(v) for v in out.values()), default=0)
        out = {k: v for k, v in out.items() if v.ndim == 1 and len(v) == n}
        return {"iteration": np.arange(n), **out} if out else {}
