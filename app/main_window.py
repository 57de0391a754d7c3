"""The main window: two tabs, "Subspace methods" (data panel on the left, one column per method)
and "Regression" (the workspace of paper 004, :mod:`app.regression`), run controls on top that act
on the tab shown.

Threads: each column's solver runs in this window's QThreadPool (see :mod:`app.worker` and
:mod:`app.runner`); states arrive by queued signals. A 30 Hz frame timer redraws a column only
if it changed, so the GUI never waits on a solver and never draws more than ~30 frames a second.
Data loading and corruption are quick for the built-in set and ordinary folders and run in the
GUI thread, behind a busy cursor. The regression workspace shares the pool and the frame timer; it
loads nothing until its tab is first shown.
"""
from __future__ import annotations

import gc
import os
import time
from typing import Callable, Iterable

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core import catalogue, corruption, datasets, presets
from robust_subspace_lab.core.errors import DataError, ParameterError

from .column import MethodColumn
from .data_panel import FOLDER, TOY, TOYS, DataPanel
from .regression import RegressionWorkspace
from .views import configure_pyqtgraph
from .worker import error_message

__all__ = ["MainWindow", "DEFAULT_METHODS", "FRAME_MS", "SPEEDS", "SUBSPACE_TAB", "REGRESSION_TAB"]

DEFAULT_METHODS = ("pca", "pca-gm")
#: the papers the app implements (Help ▸ About)
ABOUT_PAPERS = (
    "J. Oh, N. Kwak, Generalized mean for robust principal component analysis, Pattern Recognition, 2016",
    "F. Nie, J. Yuan, H. Huang, Optimal Mean Robust Principal Component Analysis, ICML 2014",
    "Q. Zhao, D. Meng, Z. Xu, Robust sparse principal component analysis, Sci. China Inf. Sci., 2014",
    "N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, Truncated Cauchy Non-negative Matrix Factorization, "
    "IEEE TPAMI, 2019",
    "D. Huang, R. Cabral, F. De la Torre, Robust Regression, IEEE TPAMI, 2016",
)
#: submenus of the Presets menu, by the prefix of the preset keys
PAPER_MENU_TITLES = {
    "paper000": "Generalized-mean PCA (Oh && Kwak 2016)",
    "paper001": "Optimal-mean robust PCA (Nie, Yuan && Huang 2014)",
    "paper002": "Robust sparse PCA (Zhao, Meng && Xu 2014)",
    "paper003": "Truncated Cauchy NMF (Guan et al. 2019)",
    "paper004": "Robust regression (Huang, Cabral && De la Torre 2016)",
}
DEFAULT_SIZE = (1600, 1000)
#: frame timer period: at most ~30 redraws a second
FRAME_MS = 33
#: Run speeds offered: (label, seconds per iteration at least)
SPEEDS = (("max", 0.0), ("30 it/s", 1 / 30), ("10 it/s", 0.1), ("5 it/s", 0.2), ("2 it/s", 0.5),
          ("1 it/s", 1.0))
DEFAULT_SPEED = "5 it/s"
COLUMN_MIN_WIDTH = 600
SUBSPACE_TAB = "Subspace methods"
REGRESSION_TAB = "Regression"


class _Columns(QtWidgets.QWidget):
    """Container of the method columns. It reports no height-for-width (word-wrapped labels
    would otherwise make the scroll area size it by its preferred, not its available, height)."""

    def hasHeightForWidth(self) -> bool:
        return False

    def heightForWidth(self, width: int) -> int:
        return -1


#: the opening window: the "default-lesson" preset of paper 000 (its note says why these values)
LESSON = presets.get("default-lesson")


def _lesson_params(key: str) -> dict:
    """The default lesson's parameters for method ``key`` (those it has: k = 5, p = 0.3)."""
    given = dict(LESSON.methods)
    names = catalogue.get(key).defaults()
    merged = {**given.get("pca", {}), **given.get("pca-gm", {}), **given.get(key, {})}
    return {k: v for k, v in merged.items() if k in names}


class MainWindow(QtWidgets.QMainWindow):
    """Robust Subspace Lab main window.

    Parameters
    ----------
    folder : open this folder instead of the built-in faces (if it fails, the built-in faces
        are shown with the reason).
    size : (height, width) to resize images to, or None for their own size.
    methods : catalogue keys of the columns, left to right.
    corruption_key, corruption_params : the corruption to start with (default: the default
        lesson's, rectangles of random dots with sides 50–80 % of the image on 20 % of the faces).
    method_params : catalogue key → parameters of its column (default: the default lesson's
        k = 5 and p = 0.3 where a method has them).
    speed : one of the labels of :data:`SPEEDS`.
    """

    def __init__(self, folder: str | None = None, size=None, methods: Iterable[str] = DEFAULT_METHODS,
                 corruption_key: str | None = None, corruption_params: dict | None = None,
                 speed: str = DEFAULT_SPEED, method_params: dict | None = None, parent=None):
        super().__init__(parent)
        configure_pyqtgraph()
        self.setWindowTitle("Robust Subspace Lab")
        self.resize(*DEFAULT_SIZE)

        self.pool = QtCore.QThreadPool(self)
        self.pool.setMaxThreadCount(max(4, QtCore.QThread.idealThreadCount()))
        self._seconds_per_step = dict(SPEEDS).get(speed, dict(SPEEDS)[DEFAULT_SPEED])
        self.columns: list[MethodColumn] = []
        self.imageset = None
        self.data = None
        self.source = ("builtin", next(iter(datasets.BUILTIN)))
        self.toy_params: dict = {}
        self.size_option = size
        self.corruption_key = corruption_key or LESSON.corruption
        spec = corruption.CORRUPTIONS[self.corruption_key]
        lesson = LESSON.corruption_params if corruption_key is None else {}
        self.corruption_params = {**spec.defaults(), **lesson, **(corruption_params or {})}
        self.last_error = ""
        self._closing = False
        self._skipped_box: QtWidgets.QMessageBox | None = None

        self._build_ui()
        for key in methods:
            self.add_column(key, (method_params or {}).get(key, _lesson_params(key)))
        self.data_panel.show_corruption(self.corruption_key, self.corruption_params)

        if folder is None or not self.open_folder(folder, interactive=False):
            failed = self.last_error
            self.load_builtin(self.source[1])
            if failed:
                self._error(failed + " — showing the built-in faces instead")

        self._next_column = 0
        self._frame_timer = QtCore.QTimer(self)
        self._frame_timer.setInterval(FRAME_MS)
        self._frame_timer.timeout.connect(self._frame)
        self._frame_timer.start()
        # The window's ~10⁵ Python objects (widgets, pyqtgraph items) live as long as it does. A
        # full pass of the cyclic garbage collector over them held the event loop for 50–75 ms
        # while solvers ran (benchmarks/bench_gui.py); frozen, they are skipped by those passes.
        gc.collect()
        gc.freeze()

    # ================================================================== UI
    def _build_ui(self) -> None:
        style = self.style()
        # ------------------------------------------------------------ run bar
        bar = QtWidgets.QToolBar("Run")
        bar.setObjectName("runBar")
        bar.setMovable(False)
        bar.setIconSize(QtCore.QSize(18, 18))
        self.addToolBar(QtCore.Qt.TopToolBarArea, bar)

        def button(text, icon, tip, slot):
            b = QtWidgets.QPushButton(style.standardIcon(icon), text)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            b.setMinimumWidth(84)
            bar.addWidget(b)
            return b

        SP = QtWidgets.QStyle.StandardPixmap
        self.step_button = button("Step", SP.SP_MediaSkipForward, "", self.step_all)
        self.run_button = button("Run", SP.SP_MediaPlay, "", self.run_all)
        self.pause_button = button("Pause", SP.SP_MediaPause, "Stop iterating (F6)", self.pause_all)
        self.reset_button = button("Reset", SP.SP_BrowserReload, "", self.reset_all)
        bar.addSeparator()
        bar.addWidget(QtWidgets.QLabel(" Speed "))
        self.speed_combo = QtWidgets.QComboBox()
        for label, sec in SPEEDS:
            self.speed_combo.addItem(label, sec)
        self.speed_combo.setToolTip("Iterations per second while running (max: as fast as the solver goes)")
        i = self.speed_combo.findData(self._seconds_per_step)
        self.speed_combo.setCurrentIndex(max(i, 0))
        self.speed_combo.currentIndexChanged.connect(
            lambda i: setattr(self, "_seconds_per_step", float(self.speed_combo.itemData(i))))
        bar.addWidget(self.speed_combo)
        spacer = QtWidgets.QWidget()
        spacer.setSizePolicy(QtWidgets.QSizePolicy.Expanding, QtWidgets.QSizePolicy.Preferred)
        bar.addWidget(spacer)
        self.activity_label = QtWidgets.QLabel("")
        bar.addWidget(self.activity_label)
        self.add_column_button = QtWidgets.QPushButton("+ Column")
        self.add_column_button.setToolTip("Add a method column")
        self.add_column_button.clicked.connect(lambda: self.add_column())
        self.add_column_action = bar.addWidget(self.add_column_button)

        # ------------------------------------------------------------ menus
        menu = self.menuBar()
        m_file = menu.addMenu("&File")
        act = m_file.addAction("&Open folder…", self.choose_folder)
        act.setShortcut(QtGui.QKeySequence.Open)
        act = m_file.addAction("&Save screenshot…", self.choose_screenshot)
        act.setShortcut(QtGui.QKeySequence.Save)
        m_file.addSeparator()
        act = m_file.addAction("&Quit", self.close)
        # QKeySequence.Quit is empty on Windows and some desktops: Ctrl+Q everywhere
        act.setShortcuts([QtGui.QKeySequence("Ctrl+Q")] +
                         [k for k in QtGui.QKeySequence.keyBindings(QtGui.QKeySequence.Quit)
                          if k != QtGui.QKeySequence("Ctrl+Q")])
        act.setShortcutContext(QtCore.Qt.ApplicationShortcut)
        self.quit_action = act
        m_run = menu.addMenu("&Run")
        for text, key, slot in (("Step", "F10", self.step_all), ("Run", "F5", self.run_all),
                                ("Pause", "F6", self.pause_all), ("Reset", "Ctrl+R", self.reset_all)):
            a = m_run.addAction(text, slot)
            a.setShortcut(QtGui.QKeySequence(key))
        self.presets_menu = m_pre = menu.addMenu("&Presets")
        papers: dict[str, QtWidgets.QMenu] = {}
        for pre in presets.PRESETS:
            paper = pre.key.split("-")[0]
            if paper in PAPER_MENU_TITLES and paper not in papers:
                papers[paper] = m_pre.addMenu(PAPER_MENU_TITLES[paper])
            where = papers.get(paper, m_pre)          # the opening lesson: at the top level
            act = where.addAction(pre.title, lambda k=pre.key: self.apply_preset(k))
            act.setToolTip(f"{pre.reproduces}\n{pre.note}")
            act.setStatusTip(pre.reproduces)
        m_pre.setToolTipsVisible(True)
        for sub in papers.values():
            sub.setToolTipsVisible(True)
        self.help_menu = m_help = menu.addMenu("&Help")
        m_help.addAction("&What you are seeing (each column's ?)", lambda: self.columns[0].show_help())
        act = m_help.addAction("&Keyboard shortcuts", self.show_shortcuts)
        act.setShortcut(QtGui.QKeySequence("F1"))
        m_help.addAction("&About Robust Subspace Lab", self.show_about)
        self.columns_menu = m_cols = menu.addMenu("&Columns")
        m_cols.addAction("&Add column", lambda: self.add_column())
        m_cols.addAction("&Remove last column",
                         lambda: self.remove_column(self.columns[-1]) if len(self.columns) > 1 else None)

        # ------------------------------------------------------------ data panel
        self.data_panel = DataPanel()
        self.data_panel.builtin_requested.connect(lambda name: self.load_builtin(name))
        self.data_panel.folder_requested.connect(self.choose_folder)
        self.data_panel.reload_folder_requested.connect(lambda p: self.open_folder(p))
        self.data_panel.size_requested.connect(self.set_image_size)
        self.data_panel.corruption_requested.connect(self.set_corruption)
        self.data_panel.toy_requested.connect(lambda key, params: self.load_toy(key, params))
        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        scroll.setWidget(self.data_panel)
        dock = QtWidgets.QDockWidget("Data", self)
        dock.setObjectName("dataDock")
        dock.setFeatures(QtWidgets.QDockWidget.DockWidgetMovable)
        dock.setWidget(scroll)
        dock.setTitleBarWidget(QtWidgets.QWidget())     # the panel has its own group titles
        dock.setMinimumWidth(270)
        self.addDockWidget(QtCore.Qt.LeftDockWidgetArea, dock)
        self.resizeDocks([dock], [285], QtCore.Qt.Horizontal)
        self.data_dock = dock
        m_view = menu.addMenu("&View")
        m_view.addAction(dock.toggleViewAction())

        # ------------------------------------------------------------ columns
        self.columns_widget = _Columns()
        self.columns_layout = QtWidgets.QHBoxLayout(self.columns_widget)
        self.columns_layout.setContentsMargins(4, 4, 4, 4)
        self.columns_layout.setSpacing(6)
        area = QtWidgets.QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QtWidgets.QFrame.NoFrame)
        area.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarAsNeeded)
        area.setWidget(self.columns_widget)
        self.columns_area = area

        # ------------------------------------------------------------ regression workspace
        self.regression = RegressionWorkspace(self.pool, delay=self._delay)
        self.regression.status.connect(self._on_regression_status)
        self.regression.activity.connect(self._update_buttons)

        self.tabs = QtWidgets.QTabWidget()
        self.tabs.setObjectName("workspaceTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(area, SUBSPACE_TAB)
        self.tabs.addTab(self.regression, REGRESSION_TAB)
        self.tabs.setTabToolTip(0, "Robust PCA, subspace and NMF methods side by side, one column each")
        self.tabs.setTabToolTip(1, "Robust regression and RLDA (paper 004): inputs with targets, "
                                   "cleaned inputs D, outliers E, the regressor T, test-time cleaning")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._dock_wanted = True      # the Data dock's visibility on the subspace tab
        self._dock_hidden_by_tab = False
        self.setCentralWidget(self.tabs)

        # ------------------------------------------------------------ status bar
        self.data_status = QtWidgets.QLabel("")
        self.statusBar().addPermanentWidget(self.data_status)
        self._set_run_tooltips()

    # ================================================================== tabs
    @property
    def regression_shown(self) -> bool:
        """The Regression tab is the one shown (the toolbar acts on it)."""
        return self.tabs.currentWidget() is self.regression

    def show_tab(self, name: str) -> None:
        """Show the tab titled ``name`` (:data:`SUBSPACE_TAB` or :data:`REGRESSION_TAB`)."""
        for i in range(self.tabs.count()):
            if self.tabs.tabText(i) == name:
                self.tabs.setCurrentIndex(i)
                return
        raise KeyError(name)

    def shortcuts_text(self) -> str:
        """Every menu action with a shortcut, as "key: action" lines."""
        lines = []
        for menu_action in self.menuBar().actions():
            menu = menu_action.menu()
            for act in (menu.actions() if menu else []):
                keys = ", ".join(k.toString(QtGui.QKeySequence.NativeText) for k in act.shortcuts())
                if keys:
                    lines.append(f"{keys}: {menu_action.text().replace('&', '')} ▸ {act.text().replace('&', '')}")
        return "\n".join(lines)

    def show_shortcuts(self) -> QtWidgets.QMessageBox:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Information, "Keyboard shortcuts",
                                    self.shortcuts_text(), parent=self)
        box.setModal(False)
        box.show()
        self._help_box = box
        return box

    def about_text(self) -> str:
        from importlib.metadata import PackageNotFoundError, version
        try:
            ver = version("robust-subspace-lab")
        except PackageNotFoundError:
            ver = "(source checkout)"
        papers = "".join(f"<li>{p}</li>" for p in ABOUT_PAPERS)
        return (f"<b>Robust Subspace Lab</b> {ver}<br>Watch robust subspace methods down-weight outliers, "
                f"one iteration at a time.<br><br>It implements:<ul>{papers}</ul>"
                "Faces: Labeled Faces in the Wild (through scikit-image); digits: MNIST (Y. LeCun, C. Cortes, "
                "C. J. C. Burges). Licence: MIT.")

    def show_about(self) -> QtWidgets.QMessageBox:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Information, "About Robust Subspace Lab", "", parent=self)
        box.setTextFormat(QtCore.Qt.RichText)
        box.setText(self.about_text())
        box.setModal(False)
        box.show()
        self._help_box = box
        return box

    def apply_preset(self, key: str) -> bool:
        """Set the data, corruption, methods and parameters of the paper preset ``key``
        (:mod:`core.presets`) and run it (``steps`` iterations, or to convergence). False, with
        a message, when its data cannot be loaded."""
        pre = presets.get(key)
        if pre.task == "regression":
            method, params = pre.methods[0]
            self.open_regression(source=pre.data[1], method=method,
                                 corruption_key=None if pre.corruption == "none" else pre.corruption,
                                 corruption_params=pre.corruption_params, params=params)
        else:
            self.show_tab(SUBSPACE_TAB)
            kind, name = pre.data
            if kind == "toy":
                ok = self.load_toy(name, dict(pre.data_params))
            else:
                options = {k: v for k, v in pre.data_params.items() if k != "size"}
                ok = self.load_builtin(name, size=pre.data_params.get("size", ...), **options) and \
                    self.set_corruption(pre.corruption, dict(pre.corruption_params))
            if not ok:
                return False
            old = list(self.columns)
            for method, params in pre.methods:
                self.add_column(method, dict(params))
            for col in old:
                self.remove_column(col)
        self.statusBar().showMessage(f"Preset: {pre.title}. {pre.note}", 30000)
        if pre.steps:
            self.step_all(pre.steps)
        else:
            self.run_all()
        return True

    def open_regression(self, source: str | None = None, method: str | None = None,
                        corruption_key: str | None = None, test_cleaning: bool = False,
                        corruption_params: dict | None = None, params: dict | None = None) -> None:
        """Show the Regression tab with ``source`` (``"synthetic"`` or ``"digits"``), ``method`` (a
        regression catalogue key, with ``params`` over its defaults) and ``corruption_key`` (for
        image data, with ``corruption_params`` over its defaults) chosen; ``None`` keeps the
        current choice."""
        ws = self.regression
        choice = ws.choice
        if source is not None:
            choice = choice.with_(source=source)
        if corruption_key is not None:
            choice = choice.with_(corruption=corruption_key,
                                  corruption_params={**corruption.CORRUPTIONS[corruption_key].defaults(),
                                                     **(corruption_params or {})})
        if not ws.started:
            ws.choice = choice                     # loaded when the tab is first shown
            if method is not None:
                ws.runner.set_method(method, catalogue.get(method).defaults())
                ws._sync_method_controls()
            self.show_tab(REGRESSION_TAB)
        else:
            self.show_tab(REGRESSION_TAB)
            if choice != ws.choice:
                ws.load(choice)
            if method is not None:
                ws.set_method(method)
        if params:
            ws.runner.set_params({**ws.runner.setting()[1], **params})
            ws._sync_method_controls()
        if test_cleaning:
            ws.set_test_cleaning(True)

    def _on_regression_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        self._show_data_status()

    def _on_tab_changed(self, index: int) -> None:
        """The Data dock belongs to the subspace tab (the workspace has its own data controls):
        hidden on the Regression tab, back as the user left it on the other."""
        regression = self.regression_shown
        if regression:
            if not self._dock_hidden_by_tab:
                self._dock_wanted = not self.data_dock.isHidden()
                self._dock_hidden_by_tab = True
            self.data_dock.setVisible(False)
            self.regression.ensure_started()
        elif self._dock_hidden_by_tab:
            self._dock_hidden_by_tab = False
            self.data_dock.setVisible(self._dock_wanted)
        self.data_dock.toggleViewAction().setEnabled(not regression)
        self.add_column_action.setVisible(not regression)
        self.columns_menu.setEnabled(not regression)
        self._set_run_tooltips()
        self._show_data_status()
        self._update_buttons()

    # ================================================================== columns
    def _delay(self) -> float:
        return self._seconds_per_step

    def add_column(self, key: str | None = None, params: dict | None = None) -> MethodColumn:
        """Add a method column (``key`` from the catalogue; default: a method not shown yet)."""
        if key is None:
            shown = {c.key for c in self.columns}
            keys = [m.key for m in catalogue.methods()]
            key = next((k for k in keys if k not in shown), keys[0])
        col = MethodColumn(self.pool, key, params, delay=self._delay, index=len(self.columns))
        col.setMinimumWidth(COLUMN_MIN_WIDTH)
        col.status.connect(lambda c, text: self.statusBar().showMessage(text, 10000))
        col.close_requested.connect(self.remove_column)
        self.columns.append(col)
        self.columns_layout.addWidget(col, 1)
        self._renumber()
        if self.data is not None:
            col.runner.set_data(self.data)
        return col

    def remove_column(self, col: MethodColumn) -> None:
        if col not in self.columns or len(self.columns) <= 1:
            return
        col.shutdown()
        self.columns.remove(col)
        self.columns_layout.removeWidget(col)
        col.setParent(None)
        col.deleteLater()
        self._renumber()

    def _renumber(self) -> None:
        for i, c in enumerate(self.columns):
            c.index = i
            c.close_button.setVisible(len(self.columns) > 1)

    # ================================================================== run controls
    def _set_run_tooltips(self) -> None:
        what = "the regression solver" if getattr(self, "tabs", None) is not None and self.regression_shown \
            else "every column"
        self.step_button.setToolTip(f"Advance {what} one iteration (F10)")
        self.run_button.setToolTip(f"Iterate {what} until it converges (F5)")
        self.reset_button.setToolTip(f"Back to iteration 0: {what} (Ctrl+R)")

    def step_all(self, n: int = 1) -> None:
        """Advance every column — or, on the Regression tab, the regression solver — ``n``
        iterations (from the newest state)."""
        n = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1
        if self.regression_shown:
            self.regression.step(n)
            self._update_buttons()
            return
        for c in self.columns:
            c.follow_live()
            c.runner.step(n)
        self._update_buttons()

    def run_all(self) -> None:
        """Iterate every column (or the regression solver) until its stopping rule holds."""
        if self.regression_shown:
            self.regression.run()
            self._update_buttons()
            return
        for c in self.columns:
            c.follow_live()
            c.runner.run()
        self._update_buttons()

    def pause_all(self) -> None:
        if self.regression_shown:
            self.regression.pause()
            self._update_buttons()
            return
        for c in self.columns:
            c.runner.pause()
        self._update_buttons()

    def reset_all(self) -> None:
        if self.regression_shown:
            self.regression.reset()
            self._update_buttons()
            return
        for c in self.columns:
            c.runner.reset()
            c.follow_live()
        self._update_buttons()

    @property
    def running(self) -> bool:
        """The tab shown has a run (until converged) in flight."""
        if self.regression_shown:
            return self.regression.running
        return any(c.runner.running for c in self.columns)

    @property
    def busy(self) -> bool:
        """Some solver (of either tab) has work in flight or queued."""
        return any(c.runner.busy or c.runner.pending for c in self.columns) or self.regression.busy

    def _update_buttons(self) -> None:
        running = self.running
        if self.regression_shown:
            finished, busy = self.regression.finished, self.regression.busy
        else:
            finished = all(c.runner.finished for c in self.columns)
            busy = any(c.runner.busy or c.runner.pending for c in self.columns)
        self.step_button.setEnabled(not running)
        self.run_button.setEnabled(not running and not finished)
        self.pause_button.setEnabled(running)
        if running:
            self.activity_label.setText("running…  ")
        elif busy:
            self.activity_label.setText("working…  ")
        else:
            self.activity_label.setText("")

    def _frame(self) -> None:
        """Frame timer: redraw the next column that changed (round robin), update the buttons.

        The timer ticks ``len(columns)`` times per frame period, and each tick draws at most one
        column, so every column is drawn at most ~30 times a second and the event loop is never
        held for more than one column's redraw. On the Regression tab only the workspace is drawn
        (once per period, if it changed); the columns catch up when their tab is shown again."""
        if self.regression_shown:
            self.regression.refresh()
            if self._frame_timer.interval() != FRAME_MS:
                self._frame_timer.setInterval(FRAME_MS)
            self._update_buttons()
            return
        n = len(self.columns)
        if n:
            for k in range(n):
                c = self.columns[(self._next_column + k) % n]
                if c.refresh():
                    self._next_column = (self._next_column + k + 1) % n
                    break
        interval = max(FRAME_MS // max(n, 1), 5)
        if self._frame_timer.interval() != interval:
            self._frame_timer.setInterval(interval)
        self._update_buttons()

    def redraw_now(self) -> None:
        if self.regression_shown:
            self.regression.refresh(force=True)
        else:
            for c in self.columns:
                c.refresh(force=True)
        self._update_buttons()

    # ================================================================== data
    def _error(self, text: str) -> None:
        self.last_error = text
        self.data_panel.show_message(text)
        self.statusBar().showMessage(text)

    def _info(self, text: str) -> None:
        self.statusBar().showMessage(text, 10000)

    def _load(self, loader: Callable, source, size, interactive: bool = False) -> bool:
        """Load with ``loader(size)``, corrupt with the current corruption, and hand the result to
        every column. On any error keep everything as it was and say why."""
        QtWidgets.QApplication.setOverrideCursor(QtCore.Qt.WaitCursor)
        try:
            try:
                imageset = loader(size)
            except (DataError, ParameterError, OSError) as exc:
                self._error(error_message(exc) if not isinstance(exc, OSError) else f"Data problem: {exc}")
                return False
            try:
                data = corruption.corrupt(imageset, self.corruption_key, **self.corruption_params)
            except (DataError, ParameterError) as exc:
                self._error(f"{error_message(exc)} (corruption '{self.corruption_key}' on the new data)")
                return False
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        self.imageset, self.data, self.source, self.size_option = imageset, data, source, size
        self.last_error = ""
        self.data_panel.show_message("")
        self.data_panel.show_data(imageset, source if source[0] == FOLDER else source[1], size)
        self.data_panel.show_corruption(self.corruption_key, self.corruption_params, data.description)
        self._show_data_status()
        msg = f"Loaded {len(imageset.images)} images ({imageset.shape[0]} × {imageset.shape[1]} px)"
        if imageset.skipped:
            msg += f"; {len(imageset.skipped)} file(s) skipped: " + ", ".join(
                p for p, _ in imageset.skipped[:3]) + ("…" if len(imageset.skipped) > 3 else "")
            if interactive:
                self._show_skipped_dialog(imageset)
        self._info(msg)
        for c in self.columns:
            c.runner.set_data(data)
            c.follow_live()
        return True

    def _show_data_status(self) -> None:
        if getattr(self, "tabs", None) is not None and self.regression_shown:
            data = self.regression.data
            self.data_status.setText(f"{data.description}  " if data is not None else "")
        elif self.data is not None:
            self.data_status.setText(f"{self.data.description}  ")

    def _show_skipped_dialog(self, imageset) -> None:
        box = QtWidgets.QMessageBox(self)
        box.setIcon(QtWidgets.QMessageBox.Warning)
        box.setWindowTitle("Some files were skipped")
        box.setText(f"{len(imageset.images)} images loaded; {len(imageset.skipped)} file(s) could not be used.")
        first = "\n".join(f"{p}: {r}" for p, r in imageset.skipped[:3])
        more = f"\n… and {len(imageset.skipped) - 3} more" if len(imageset.skipped) > 3 else ""
        box.setInformativeText(first + more)
        box.setDetailedText("\n".join(f"{p}: {r}" for p, r in imageset.skipped))
        box.setStandardButtons(QtWidgets.QMessageBox.Ok)
        box.setModal(False)
        box.open()          # not exec(): never block the event loop
        self._skipped_box = box

    def load_toy(self, key: str, params: dict | None = None) -> bool:
        """Use the papers' toy example ``key`` (``core.toys``) with ``params`` over its defaults.
        A toy already contains its planted outliers: the corruption is not applied (and its
        panel is disabled) until an image set is chosen again."""
        spec = TOYS.get(key)
        if spec is None:
            self._error(f"Data problem: unknown toy example {key!r}")
            return False
        values = {**spec.defaults(), **(params or {})}
        QtWidgets.QApplication.setOverrideCursor(QtCore.Qt.WaitCursor)
        try:
            from robust_subspace_lab.core import toys
            data = toys.make_toy(key, **values)
        except (DataError, ParameterError) as exc:
            self._error(error_message(exc) + (f" — kept: {self.data.description}" if self.data else ""))
            if self.source[0] == TOY and self.source[1] == key:
                self.data_panel.show_toy(key, self.toy_params)
            return False
        finally:
            QtWidgets.QApplication.restoreOverrideCursor()
        self.data, self.source, self.toy_params = data, (TOY, key), values
        self.last_error = ""
        self.data_panel.show_message("")
        self.data_panel.show_toy(key, values)
        self.data_panel.show_toy_data(data)
        self._show_data_status()
        self._info(f"Toy example: {data.description}")
        for c in self.columns:
            c.runner.set_data(data)
            c.follow_live()
        return True

    def load_builtin(self, name: str, size=..., **options) -> bool:
        """Load the built-in set ``name`` (keeps the current size unless ``size`` is given), with
        the loader's ``options`` (e.g. ``digits=[6]``)."""
        size = self.size_option if size is ... else size
        return self._load(lambda s: datasets.load_builtin(name, size=s, **options), ("builtin", name), size)

    def open_folder(self, path: str, size=..., interactive: bool = False) -> bool:
        """Load every image of ``path``; skipped files are listed in the Data panel and the status
        bar (and a dialog when ``interactive``). Returns False (and keeps the data) on error."""
        size = self.size_option if size is ... else size
        path = os.fspath(path)
        return self._load(lambda s: datasets.load_folder(path, size=s), (FOLDER, path), size, interactive)

    def choose_folder(self) -> None:
        start = self.source[1] if self.source[0] == FOLDER else os.getcwd()
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Open a folder of images", start)
        if path:
            self.open_folder(path, interactive=True)

    def set_image_size(self, size) -> bool:
        """Reload the current data at ``size`` ((height, width) or None)."""
        if self.source[0] == TOY:           # points, not images: nothing to resize
            self.size_option = size
            return True
        if self.source[0] == FOLDER:
            ok = self.open_folder(self.source[1], size=size)
        else:
            ok = self.load_builtin(self.source[1], size=size)
        if not ok:
            self.data_panel.show_data(self.imageset, self.source if self.source[0] == FOLDER else self.source[1],
                                      self.size_option)
        return ok

    def set_corruption(self, key: str, params: dict | None = None) -> bool:
        """Corrupt the current images with ``key`` (``params`` over its defaults); every column
        restarts. On an invalid value the previous corruption is kept and the message names it."""
        spec = corruption.CORRUPTIONS.get(key)
        values = {**(spec.defaults() if spec else {}), **(params or {})}
        if self.source[0] == TOY:
            # a toy has its own outliers; the choice is kept for the next image set
            self.corruption_key, self.corruption_params = key, values
            return True
        try:
            data = corruption.corrupt(self.imageset, key, **values)
        except (DataError, ParameterError) as exc:
            self._error(error_message(exc) + f" — kept: {self.data.description}")
            self.data_panel.show_corruption(self.corruption_key, self.corruption_params, self.data.description)
            return False
        self.corruption_key, self.corruption_params, self.data = key, values, data
        self.last_error = ""
        self.data_panel.show_message("")
        self.data_panel.show_corruption(key, values, data.description)
        self._show_data_status()
        self._info(f"Corruption: {data.description}")
        for c in self.columns:
            c.runner.set_data(data)
            c.follow_live()
        return True

    # ================================================================== headless helpers
    def wait_for(self, predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
        """Run the event loop until ``predicate()`` holds or ``timeout`` seconds pass."""
        if predicate():
            return True
        deadline = time.monotonic() + timeout
        loop = QtCore.QEventLoop()
        timer = QtCore.QTimer()
        timer.setInterval(5)
        timer.timeout.connect(lambda: loop.quit() if predicate() or time.monotonic() > deadline else None)
        timer.start()
        loop.exec()
        timer.stop()
        return predicate()

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no column has a job in flight or queued."""
        return self.wait_for(lambda: not self.busy, timeout)

    def save_screenshot(self, path: str) -> bool:
        self.redraw_now()
        QtWidgets.QApplication.processEvents()
        return self.grab().save(os.fspath(path))

    def choose_screenshot(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save a screenshot", "robust-subspace-lab.png",
                                                        "PNG images (*.png)")
        if path:
            ok = self.save_screenshot(path)
            self._info(f"Saved {path}" if ok else f"Could not save {path}")

    # ================================================================== closing
    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self, wait_ms: int = 2000) -> None:
        """Cancel every solver and wait briefly for the pool."""
        if self._closing:
            return
        self._closing = True
        gc.unfreeze()                  # the window's objects may be collected again
        self._frame_timer.stop()
        for c in self.columns:
            c.shutdown()
        self.regression.shutdown()
        self.pool.waitForDone(wait_ms)
