"""The regression workspace's widgets: the data, corruption and method controls on the left,
the views of the shown iteration, the Test section and the scrubber on the right (a mixin of
:class:`app.regression.workspace.RegressionWorkspace`, which holds the state they show)."""
from __future__ import annotations


from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, corruption

from ..layout import WrappedLabel
from .. import params as P
from ..views import ObjectiveView, ScalarHistoryView, keep_scenes_active
from . import sources as S
from .common import METRICS_TIP, MESSAGE_STYLE, NOTE_STYLE, PANEL_WIDTH, TEST_ROWS, make_label
from .views import (CoefficientsView, ConfusionView, InputImagesView, PredictionView, ProjectionView,
                    ResidualView, SingularValuesView, TestSamplesView, WeightImagesView)

__all__ = ["WorkspaceLayout"]


class _WrappedLabel(WrappedLabel):
    """A word-wrapping label inside :class:`_Fill` that its layout treats as a plain widget of the
    minimum height its text needs at its width (:class:`app.layout.WrappedLabel`): a box layout
    gives an item with height-for-width exactly that height and squeezes its other rows below
    their minimum heights (the views drawn over each other)."""

    def hasHeightForWidth(self) -> bool:
        return False


class _Fill(QtWidgets.QWidget):
    """Holds ``inner`` filling it, as small as ``inner``'s minimum size and no smaller. No
    height-for-width: a resizable scroll area gives it the viewport's height (the views stretch to
    fill the window), and scrolls only below the views' minimum heights; with the height-for-width
    of the wrapping labels inside, it would get the views' preferred heights (1,000 px and more)."""

    def __init__(self, inner: QtWidgets.QWidget):
        super().__init__()
        self.inner = inner
        #: the widget kept in view when the views are laid out again (a lesson's framed part)
        self.keep_visible: QtWidgets.QWidget | None = None
        inner.setParent(self)
        inner.installEventFilter(self)
        self._follow()

    def minimumSizeHint(self) -> QtCore.QSize:
        return self.inner.minimumSizeHint()

    def sizeHint(self) -> QtCore.QSize:
        return self.inner.minimumSizeHint()

    def resizeEvent(self, ev) -> None:
        self.inner.setGeometry(self.rect())
        super().resizeEvent(ev)
        self._follow()
        if self.keep_visible is not None:
            QtCore.QTimer.singleShot(0, self, self.show_kept)

    def show_kept(self) -> None:
        """Scroll the scroll area holding this widget so that :attr:`keep_visible` is seen."""
        area = self.parentWidget() and self.parentWidget().parentWidget()
        if self.keep_visible is not None and isinstance(area, QtWidgets.QScrollArea):
            self._follow()
            area.ensureWidgetVisible(self.keep_visible, 0, 8)

    def eventFilter(self, obj, ev) -> bool:
        if obj is self.inner and ev.type() == QtCore.QEvent.LayoutRequest:
            self._follow()
        return False

    def _follow(self) -> None:
        """Take ``inner``'s minimum size as this widget's own (which the scroll area honours) and
        tell the scroll area (it re-reads it on a layout request of its widget). A wrapping label
        keeps at least the height its text needs at its width now (a layout's minimum counts
        the label's minimum for any width: the views would be squeezed over each other)."""
        for label in self.inner.findChildren(QtWidgets.QLabel):
            if label.wordWrap() and label.isVisibleTo(self.inner) and label.width() > 0:
                need = label.heightForWidth(label.width()) if label.text() else 0
                if need > 0 and need != label.minimumHeight():
                    label.setMinimumHeight(need)
        size = self.inner.minimumSizeHint()
        if size != self.minimumSize():
            self.setMinimumSize(size)
            QtCore.QCoreApplication.postEvent(self, QtCore.QEvent(QtCore.QEvent.LayoutRequest))


class WorkspaceLayout:
    """Builds the workspace's widgets (see the module docstring)."""

    # ================================================================== layout
    def _build(self) -> None:
        outer = QtWidgets.QHBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        outer.setSpacing(6)
        panel = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(panel)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(6)

        # ------------------------------------------------------------ data
        box = QtWidgets.QGroupBox("Data (inputs and targets)")
        v = QtWidgets.QVBoxLayout(box)
        v.setSpacing(4)
        self.source_combo = QtWidgets.QComboBox()
        for src in S.SOURCES:
            self.source_combo.addItem(S.SOURCE_TITLES[src], src)
        self.source_combo.setToolTip("The paper's synthetic 3-D example, the built-in digits (class labels), "
                                     "or a folder you opened")
        self.source_combo.activated.connect(self._on_source)
        v.addWidget(self.source_combo)
        row = QtWidgets.QHBoxLayout()
        self.open_button = QtWidgets.QPushButton("Open folder…")
        self.open_button.setToolTip("A folder of images: one subfolder per class, or any layout with a CSV "
                                    "of numeric targets")
        self.open_button.clicked.connect(self.choose_folder)
        self.csv_button = QtWidgets.QPushButton("Targets CSV…")
        self.csv_button.setToolTip("A CSV 'file,target_1,...' with numeric targets for the folder's images "
                                   "(regression); without one, the subfolder names are the classes")
        self.csv_button.clicked.connect(self.choose_csv)
        self.no_csv_button = QtWidgets.QPushButton("No CSV")
        self.no_csv_button.setToolTip("Use the subfolder names as classes again")
        self.no_csv_button.clicked.connect(lambda: self.set_targets_csv(None))
        v.addWidget(self.open_button)          # a row of three buttons: wider than the panel
        for b in (self.csv_button, self.no_csv_button):
            row.addWidget(b)
        v.addLayout(row)
        self.csv_label = make_label("")
        self.csv_label.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.csv_label)
        self.options_tree = P.make_tree(None)
        v.addWidget(self.options_tree)
        self.data_info = make_label("")
        self.data_info.setStyleSheet("color: #333; font-size: 8pt;")
        self.data_info.setTextInteractionFlags(QtCore.Qt.TextSelectableByMouse)
        v.addWidget(self.data_info)
        lay.addWidget(box)

        # ------------------------------------------------------------ corruption
        self.corruption_box = QtWidgets.QGroupBox("Corruption of the inputs")
        v = QtWidgets.QVBoxLayout(self.corruption_box)
        v.setSpacing(4)
        self.corruption_combo = QtWidgets.QComboBox()
        for key, spec in corruption.CORRUPTIONS.items():
            self.corruption_combo.addItem(spec.name, key)
            self.corruption_combo.setItemData(self.corruption_combo.count() - 1, spec.summary,
                                              QtCore.Qt.ToolTipRole)
        self.corruption_combo.activated.connect(self._on_corruption_combo)
        v.addWidget(self.corruption_combo)
        self.corruption_summary = make_label("")
        self.corruption_summary.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.corruption_summary)
        self.corruption_tree = P.make_tree(None)
        v.addWidget(self.corruption_tree)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Corrupt"))
        self.scope_combo = QtWidgets.QComboBox()
        for key, text in S.SCOPES.items():
            self.scope_combo.addItem(text, key)
        self.scope_combo.setToolTip("Which inputs the corruption hits (the same images are chosen either way)")
        self.scope_combo.activated.connect(self._on_scope)
        row.addWidget(self.scope_combo, 1)
        v.addLayout(row)
        lay.addWidget(self.corruption_box)

        self.data_message = make_label("", MESSAGE_STYLE)
        self.data_message.setObjectName("regressionDataMessage")
        self.data_message.setVisible(False)
        lay.addWidget(self.data_message)

        # ------------------------------------------------------------ method
        box = QtWidgets.QGroupBox("Method")
        v = QtWidgets.QVBoxLayout(box)
        v.setSpacing(4)
        self.method_combo = QtWidgets.QComboBox()
        for info in catalogue.methods("regression"):
            self.method_combo.addItem(info.name, info.key)
            self.method_combo.setItemData(self.method_combo.count() - 1, f"{info.summary}\n\n{info.reference}",
                                          QtCore.Qt.ToolTipRole)
        f = self.method_combo.font()
        f.setBold(True)
        self.method_combo.setFont(f)
        self.method_combo.activated.connect(self._on_method_combo)
        v.addWidget(self.method_combo)
        self.summary_label = make_label("")
        self.summary_label.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.summary_label)
        self.slider_box = QtWidgets.QVBoxLayout()
        self.slider_box.setSpacing(2)
        v.addLayout(self.slider_box)
        self.method_tree = P.make_tree(None)
        v.addWidget(self.method_tree)
        self.method_note = make_label("", NOTE_STYLE)
        self.method_note.setObjectName("regressionMethodNote")
        self.method_note.setVisible(False)
        v.addWidget(self.method_note)
        self.method_message = make_label("", MESSAGE_STYLE)
        self.method_message.setObjectName("regressionMethodMessage")
        self.method_message.setVisible(False)
        v.addWidget(self.method_message)
        lay.addWidget(box)

        help_box = QtWidgets.QGroupBox("Reading the views")
        hv = QtWidgets.QVBoxLayout(help_box)
        text = make_label(
            "<b>X = D + E</b>: the method splits the training inputs X into cleaned inputs D (low rank) and "
            "sparse outliers E, and learns the regressor T from D (Huang et al. 2016, eq. 3).<br>"
            "<b>3-D example</b>: × inputs (orange: in-plane error, violet: out-of-plane, grey: none), "
            "red rings the cleaned D, blue dots the clean truth, segments the displacement.<br>"
            "<b>T</b>: one weight image per class/output (blue −, red +).<br>"
            "<b>Test</b>: T applied to the test inputs as they are, or after cleaning them against D "
            "(Alg. 2).")
        text.setStyleSheet("color: #333; font-size: 8pt;")
        hv.addWidget(text)
        lay.addWidget(help_box)
        lay.addStretch(1)
        # a combo as wide as its longest entry would widen the panel past its scroll area
        for combo in (self.source_combo, self.corruption_combo, self.method_combo, self.scope_combo):
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)

        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        scroll.setWidget(panel)
        scroll.setFixedWidth(PANEL_WIDTH)
        outer.addWidget(scroll)

        # ------------------------------------------------------------ views
        # built when the tab is first shown or drawn (:meth:`ensure_views`): a window whose
        # regression tab is never opened does not pay for its twelve charts (0.2-0.3 s of the
        # window's 1 s build); the scrubber's widgets exist from the start (the run controls
        # move them)
        self._scrub_box = QtWidgets.QWidget(self)
        row = self._build_scrubber("0000 / 0000 (live)  ")
        row.setContentsMargins(0, 0, 0, 0)
        self._scrub_box.setLayout(row)
        self._scrub_box.hide()              # shown in the views' layout
        self.views_scroll = QtWidgets.QScrollArea()
        self.views_scroll.setWidgetResizable(True)
        self.views_scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        self.views_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        outer.addWidget(self.views_scroll, 1)

    @property
    def views_built(self) -> bool:
        """The charts and the Test section exist (:meth:`ensure_views`)."""
        return self.views_scroll.widget() is not None

    def ensure_views(self) -> None:
        """Build the views (the header, the charts, the Test section and the scrubber's row) once:
        on the tab's first show, or when something draws or reads them first."""
        if self.views_built:
            return
        # the views scroll up and down when the window is lower than their minimum heights (a
        # 1280×720 screen with the lesson panel) rather than being squeezed until titles, axis
        # labels and legends no longer fit; they never scroll sideways
        host = QtWidgets.QWidget()
        right = QtWidgets.QVBoxLayout(host)
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(4)
        # the header: status, scalars and metrics one under the other, each wrapping, so that
        # none of them sets the tab's minimum width (a 593 px metrics table beside a 260 px
        # status line made the window 1,645 px wide at 1280×720)
        big = self.font()
        big.setPointSizeF(big.pointSizeF() * 1.25)
        big.setBold(True)
        self.iteration_label = _WrappedLabel("iteration –")
        self.iteration_label.setFont(big)
        right.addWidget(self.iteration_label)
        self.scalars_label = _WrappedLabel("")
        self.scalars_label.setTextFormat(QtCore.Qt.RichText)
        self.scalars_label.setStyleSheet("color: #333;")
        right.addWidget(self.scalars_label)
        self.metrics_label = _WrappedLabel("")
        self.metrics_label.setObjectName("regressionMetrics")
        self.metrics_label.setTextFormat(QtCore.Qt.RichText)
        self.metrics_label.setToolTip(METRICS_TIP)
        right.addWidget(self.metrics_label)

        self.inputs_view = InputImagesView(n_rows=3)
        self.proj_xy = ProjectionView((0, 1), "x₁–x₂ (the plane)")
        self.proj_xz = ProjectionView((0, 2), "x₁–x₃ (across the plane)")
        points = QtWidgets.QWidget()
        pv = QtWidgets.QVBoxLayout(points)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.setSpacing(1)
        pl = QtWidgets.QHBoxLayout()
        pl.setSpacing(4)
        pl.addWidget(self.proj_xy, 1)
        pl.addWidget(self.proj_xz, 1)
        pv.addLayout(pl, 1)
        self.points_legend = _WrappedLabel("")
        self.points_legend.setTextFormat(QtCore.Qt.RichText)
        self.points_legend.setStyleSheet("color: #333; font-size: 8pt;")
        pv.addWidget(self.points_legend)
        self.inputs_stack = QtWidgets.QStackedWidget()
        self.inputs_stack.addWidget(self.inputs_view)
        self.inputs_stack.addWidget(points)
        self.points_page = points

        self.objective_view = ObjectiveView()
        self.residual_view = ResidualView()
        self.sv_view = SingularValuesView()
        self.scalar_view = ScalarHistoryView()
        curves = QtWidgets.QGridLayout()
        curves.setSpacing(4)
        curves.addWidget(self.objective_view, 0, 0)
        curves.addWidget(self.residual_view, 0, 1)
        curves.addWidget(self.sv_view, 1, 0)
        curves.addWidget(self.scalar_view, 1, 1)
        curves.setColumnStretch(0, 1)       # equal columns: the scalar chart's combos are wide
        curves.setColumnStretch(1, 1)

        top = QtWidgets.QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(self.inputs_stack, 5)
        top.addLayout(curves, 6)

        self.weights_view = WeightImagesView()
        self.coef_view = CoefficientsView()
        self.T_stack = QtWidgets.QStackedWidget()
        self.T_stack.addWidget(self.weights_view)
        self.T_stack.addWidget(self.coef_view)

        self.test_box = self._build_test()
        bottom = QtWidgets.QHBoxLayout()
        bottom.setSpacing(4)
        bottom.addWidget(self.T_stack, 5)
        bottom.addWidget(self.test_box, 7)

        for w in (self.objective_view, self.residual_view, self.sv_view, self.scalar_view):
            w.setMinimumHeight(170)       # a title, a caption of three lines and the curve
        self.inputs_stack.setMinimumHeight(300)
        self.T_stack.setMinimumHeight(220)
        right.addLayout(top, 5)
        right.addLayout(bottom, 4)

        right.addWidget(self._scrub_box)
        self._scrub_box.show()
        self.views_scroll.setWidget(_Fill(host))
        keep_scenes_active(self.views_scroll)

    def bring_into_view(self, widget: QtWidgets.QWidget | None) -> None:
        """Scroll the views (when the window is too low for all of them) so that ``widget``, the
        part a lesson step frames, is seen whole (as far as it fits), also after the views are
        laid out again at another height; None: no more."""
        if widget is None and not self.views_built:
            return                              # nothing framed in views not yet built
        self.ensure_views()
        fill = self.views_scroll.widget()
        fill.keep_visible = widget if widget is not None and fill.isAncestorOf(widget) else None
        fill.show_kept()

    def _build_test(self) -> QtWidgets.QGroupBox:
        box = QtWidgets.QGroupBox("Test set: the model applied to the held-out inputs")
        v = QtWidgets.QVBoxLayout(box)
        v.setContentsMargins(4, 4, 4, 4)
        v.setSpacing(3)
        row = QtWidgets.QHBoxLayout()
        self.test_checkbox = QtWidgets.QCheckBox("Test-time cleaning (Alg. 2)")
        self.test_checkbox.setToolTip(
            "Off: T is applied to the test inputs as they are.\nOn: each test input is first cleaned "
            "against the cleaned training inputs D (Huang et al. 2016 Alg. 2 / eq. 8: xₜₑ = z D + e with z of "
            "small nuclear norm and e sparse), then T is applied to z D. Runs in the background.")
        self.test_checkbox.toggled.connect(self.set_test_cleaning)
        row.addWidget(self.test_checkbox)
        self.test_status = _WrappedLabel("")
        self.test_status.setObjectName("regressionTestStatus")
        self.test_status.setStyleSheet("color: #555;")
        row.addWidget(self.test_status, 1)
        v.addLayout(row)
        self.test_metrics = _WrappedLabel("")
        self.test_metrics.setObjectName("regressionTestMetrics")
        self.test_metrics.setTextFormat(QtCore.Qt.RichText)
        f = self.test_metrics.font()
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.test_metrics.setFont(f)
        v.addWidget(self.test_metrics)
        self.confusion_view = ConfusionView()
        self.prediction_view = PredictionView()
        self.test_plot_stack = QtWidgets.QStackedWidget()
        self.test_plot_stack.addWidget(self.confusion_view)
        self.test_plot_stack.addWidget(self.prediction_view)
        self.test_samples_view = TestSamplesView(n_rows=TEST_ROWS)
        # room for its title, axes and legend, and for ten classes' names apart (the matrix was
        # 70 px across at 1280 × 720 and its names ran over each other)
        self.test_plot_stack.setMinimumSize(*ConfusionView.MIN_SIZE)
        row = QtWidgets.QHBoxLayout()
        row.setSpacing(4)
        row.addWidget(self.test_plot_stack, 5)
        row.addWidget(self.test_samples_view, 4)
        v.addLayout(row, 1)
        return box
