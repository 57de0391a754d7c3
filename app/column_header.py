"""A method column's header: the method combo, its citation, the slider and the parameter tree
(the controls), and the labels of the frame shown (status, error, scalars, collapse note,
metrics), with the fixed heights that keep the views of all columns aligned.

:class:`ColumnHeader` is a mixin of :class:`app.column.MethodColumn` (as
:class:`app.scrubbing.FollowsIterations` is): the column provides ``runner`` (an
:class:`app.runner.ColumnRunner`), ``close_requested``, ``_on_method_combo`` and
``_on_param_changed``; the header builds its widgets as the column's attributes
(``column.method_combo``, ``column.tree``, ``column.iteration_label``, …) and keeps the controls
in step with the runner's setting (:meth:`ColumnHeader._sync_controls`).
"""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core import catalogue

from . import params as P
from .column_help import CollapseNote, show_method_help
from .layout import wrapped_height
from .method_combo import CITATIONS as _CITATIONS, LONGEST_COLLAPSE as _LONGEST_COLLAPSE
from .method_combo import LONGEST_STATUS as _LONGEST_STATUS, citation, fill_method_combo
from .snapshot_text import ERROR_TIP, METRICS_TIP, MeasuresText
from .views.scaling import scaled

__all__ = ["ColumnHeader", "NARROWEST", "TREE_ROWS"]

#: the narrowest a column gets (px, unzoomed: subspace_workspace.COLUMN_MIN_WIDTH); see fit_to_font
NARROWEST = 330
#: rows of the parameter tree shown (more scroll); the same in every column, so views align
TREE_ROWS = 3


class ColumnHeader:
    """Mixin: the header of a method column (see the module docstring)."""

    _group = None                       # the pyqtgraph Parameter group of the shown method
    _group_key: str | None = None       # the method key of ``_group``
    _slider: P.SpecSlider | None = None
    _syncing = False                    # the controls are being set from the runner: no echo

    def _build_header(self) -> QtWidgets.QVBoxLayout:
        """Build the header's widgets; returns its layout (the column places it on top)."""
        self._slider_choice: dict[str, str] = {}   # method key -> parameter the slider drives

        # header: method, main slider, status and metrics, then the parameter tree (three rows,
        # scrolling): stacked so that a column works at about 340 px wide (3 columns at 1366 × 768)
        header = QtWidgets.QVBoxLayout()
        header.setSpacing(2)
        left = QtWidgets.QVBoxLayout()
        left.setSpacing(3)
        row = QtWidgets.QHBoxLayout()
        lab = QtWidgets.QLabel("Method")
        self.method_combo = QtWidgets.QComboBox()
        fill_method_combo(self.method_combo, catalogue.methods())
        self.method_combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToContents)
        self.method_combo.currentIndexChanged.connect(self._on_method_combo)
        f = self.method_combo.font()
        f.setBold(True)
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.method_combo.setFont(f)
        self.help_button = QtWidgets.QToolButton()
        self.help_button.setText("?")
        self.help_button.setToolTip("What you are seeing: this method's formula, its weights, its views")
        self.help_button.setAutoRaise(True)
        self.help_button.clicked.connect(self.show_help)
        self.help_box: QtWidgets.QMessageBox | None = None
        self.close_button = QtWidgets.QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip("Remove this column")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(lambda: self.close_requested.emit(self))
        row.addWidget(lab)
        row.addWidget(self.method_combo)
        row.addWidget(self.help_button)
        row.addStretch(1)
        row.addWidget(self.close_button)
        left.addLayout(row)
        # Fixed heights in the header keep the views of all columns aligned side by side.
        self.reference_label = QtWidgets.QLabel()
        self.reference_label.setWordWrap(True)
        self.reference_label.setTextFormat(QtCore.Qt.PlainText)
        small = self.reference_label.font()
        small.setPointSizeF(max(small.pointSizeF() - 1.0, 7.0))
        self.reference_label.setFont(small)
        self.reference_label.setStyleSheet("color: #555;")
        self.reference_label.setAlignment(QtCore.Qt.AlignLeft | QtCore.Qt.AlignTop)
        left.addWidget(self.reference_label)
        slider_box = QtWidgets.QWidget()
        slider_row = QtWidgets.QHBoxLayout(slider_box)
        slider_row.setContentsMargins(0, 0, 0, 0)
        self.slider_combo = QtWidgets.QComboBox()
        self.slider_combo.setToolTip("The parameter the slider drives")
        self.slider_combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToContents)
        self.slider_combo.currentIndexChanged.connect(self._on_slider_combo)
        slider_row.addWidget(self.slider_combo)
        self.slider_holder = QtWidgets.QVBoxLayout()
        self.slider_holder.setContentsMargins(0, 0, 0, 0)
        slider_row.addLayout(self.slider_holder, 1)
        self.slider_box = slider_box
        left.addWidget(slider_box)
        self.iteration_label = QtWidgets.QLabel("iteration –")
        self.iteration_label.setObjectName("iterationLabel")
        self.iteration_label.setWordWrap(True)          # "⚠ stopped at max_iter (100) without converging"
        self.error_label = QtWidgets.QLabel("")
        self.error_label.setObjectName("errorLabel")
        self.error_label.setToolTip(ERROR_TIP)
        big = self.error_label.font()
        big.setPointSizeF(big.pointSizeF() * 1.1)
        big.setBold(True)
        for label in (self.iteration_label, self.error_label):
            # a fixed height (fit_to_font): empty, a label is 1 px shorter, and every view of the column
            # moved (and was repainted, 20-40 ms) when the error came or went (a folder without clean data)
            label.setFont(big)
        left.addWidget(self.iteration_label)
        left.addWidget(self.error_label)
        self.scalars_label = QtWidgets.QLabel("")
        self.scalars_label.setWordWrap(True)
        self.scalars_label.setStyleSheet("color: #333;")
        self.scalars_label.setFont(QtGui.QFont(self.font().family(), self.font().pointSizeF() * 0.95))
        self.scalars_label.setAlignment(QtCore.Qt.AlignLeft | QtCore.Qt.AlignTop)
        left.addWidget(self.scalars_label)
        self.collapse_note = CollapseNote()        # "weights collapsed: …", only while they are
        self.collapse_note.setWordWrap(True)
        left.addWidget(self.collapse_note)
        self.metrics_label = QtWidgets.QLabel("")
        self.metrics_label.setObjectName("metricsLabel")
        self.metrics_label.setTextFormat(QtCore.Qt.RichText)
        self.metrics_label.setAlignment(QtCore.Qt.AlignLeft | QtCore.Qt.AlignTop)
        self.metrics_label.setToolTip(METRICS_TIP)
        self.metrics_label.setWordWrap(True)
        left.addWidget(self.metrics_label)
        self._measures_text = MeasuresText(self.error_label, self.metrics_label)
        header.addLayout(left)

        self.tree = P.make_tree(None)
        self.tree.setMinimumWidth(0)
        header.addWidget(self.tree)
        return header

    def fit_to_font(self) -> None:
        """The header's fixed heights for the fonts its labels have now (built, and after each
        zoom, :mod:`app.display`): each label as high as the longest text it can show (every
        method's citation, the longest status line, three lines of scalars, four of metrics)
        wraps to in the narrowest column (:data:`NARROWEST`, zoomed). The same in every column
        and at every width: the views of all columns stay aligned, and neither a new text nor a
        new column beside it moves them (a relayout repaints every view of the column)."""
        margins = self.layout().contentsMargins()
        width = scaled(NARROWEST) - 2 * self.frameWidth() - margins.left() - margins.right()
        self.reference_label.setFixedHeight(wrapped_height(self.reference_label.font(), _CITATIONS, width, 2))
        self.iteration_label.setFixedHeight(wrapped_height(self.iteration_label.font(), [_LONGEST_STATUS], width))
        self.error_label.setFixedHeight(wrapped_height(self.error_label.font(), ["Ag"], width))
        self.scalars_label.setFixedHeight(wrapped_height(self.scalars_label.font(), [], width, 3))
        self.metrics_label.setFixedHeight(wrapped_height(self.metrics_label.font(), [], width, 4, 6))
        self.collapse_note.setFixedHeight(wrapped_height(self.collapse_note.font(), [_LONGEST_COLLAPSE],
                                                         width - 10, 1, 6))
        self.slider_box.setFixedHeight(max(QtWidgets.QSlider(QtCore.Qt.Horizontal).sizeHint().height(), self.fontMetrics().height()) + 6)

    def _sync_controls(self, queue=None) -> None:
        """Show the runner's setting (the one being tried, else the current one) in the controls.
        ``queue`` (an :class:`app.ui_queue.UiQueue`): a new parameter tree's rows are built
        there, a row per job (:func:`app.params.tree_group_steps`), not all now."""
        info, values = self.runner.setting()
        self._syncing = True
        try:
            self.reference_label.setText(citation(info.reference))
            self.reference_label.setToolTip(f"{info.reference}\n\n{info.summary}")
            P.show_method(self.method_combo, info, values, self._group, self._group_key,
                          lambda info, values: self._rebuild_params(info, values, queue))
        finally:
            self._syncing = False

    def _rebuild_params(self, info, values: dict, queue=None) -> None:
        self._group = P.rebuild_group(self._group, info.key, info.params, values, self._on_param_changed)
        self._group_key = info.key
        if queue is None:
            P.set_tree_group(self.tree, self._group, rows_visible=TREE_ROWS, fixed_rows=True)
        else:
            steps = P.tree_group_steps(self.tree, self._group, rows_visible=TREE_ROWS, fixed_rows=True)
            next(steps, None)               # cleared and sized now; the rows follow
            queue.post_steps(steps, owner=self)
        specs = P.slider_specs(info.params)
        main = P.main_spec(info.params)
        chosen = self._slider_choice.get(info.key, main.name if main is not None else None)
        self.slider_combo.blockSignals(True)
        self.slider_combo.clear()
        symbols = [spec.symbol for spec in specs]
        for spec in specs:
            # a symbol two parameters share (k) is told apart by the keyword name
            label = spec.symbol if symbols.count(spec.symbol) == 1 else f"{spec.symbol} ({spec.name})"
            self.slider_combo.addItem(label, spec.name)
            self.slider_combo.setItemData(self.slider_combo.count() - 1, P.spec_tooltip(spec),
                                          QtCore.Qt.ToolTipRole)
        self.slider_combo.setCurrentIndex(max(self.slider_combo.findData(chosen), 0))
        self.slider_combo.blockSignals(False)
        self.slider_combo.setVisible(len(specs) > 1)
        self._show_slider(self.slider_combo.currentData())

    def _show_slider(self, name: str | None) -> None:
        """Drive parameter ``name`` of the current method with the slider (None: no slider)."""
        if self._slider is not None:
            self._slider.discard()
            self._slider = None
        info = catalogue.get(self._group_key) if self._group_key else None
        if name is None or info is None:
            return
        spec = info.spec(name)
        self._slider = P.SpecSlider(spec, self._group.child(spec.name))
        self._slider.name_label.setVisible(self.slider_combo.count() <= 1)  # else the combo names it
        self.slider_holder.addWidget(self._slider)

    def _on_slider_combo(self, index: int) -> None:
        name = self.slider_combo.itemData(index) if index >= 0 else None
        if name is None or self._group_key is None:
            return
        self._slider_choice[self._group_key] = name
        self._show_slider(name)

    def show_help(self) -> QtWidgets.QMessageBox:
        """Show the "what you are seeing" text of the column's method (non-modal)."""
        return show_method_help(self)

