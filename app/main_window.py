"""The main window: one tab per workspace ("Subspace methods": the data panel on the left and one
column per method; "Regression": the workspace of paper 004, :mod:`app.regression`), run
controls on top that act on the tab shown.

The window holds the :class:`core.session.Session` (data, corruption, runs) and no data,
numerics or domain rules of its own: its toolbar, frame timer, status bar and menus talk to the
workspace shown through :class:`app.workspace.Workspace` only, and never test which kind of
task a tab holds. Adding a workspace is one entry of :data:`WORKSPACES`.

Threads: each run's solver runs in this window's QThreadPool (see :mod:`app.worker` and
:mod:`app.runner`); states arrive by queued signals. A 30 Hz frame timer asks the workspace shown
to draw what changed, so the GUI never waits on a solver and never draws more than ~30 frames a
second. Loading, resizing, corrupting and building data run in background data jobs
(:class:`app.worker.DataJobs`, one at a time; a newer request cancels the older), with a
progress bar and a Cancel button in the status bar; the data shown stay until the new arrive.

Quit (File ▸ Quit, Ctrl+Q on every platform) closes the dialogs open, cancels every job and waits
at most :data:`QUIT_WAIT_MS` for the solvers; ``__main__`` then ends the process at once.
"""
from __future__ import annotations

import os
import time
from typing import Callable, Iterable

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core import catalogue, corruption, presets
from robust_subspace_lab.core.session import FOLDER, CorruptionSpec, DataSpec, Run, Session

from .export_menu import ExportMenu
from .display import Display
from .frame_clock import FRAME_MS, FrameClock
from .help_menu import ABOUT_PAPERS, HelpActions
from .lessons_menu import LessonsMenu, choose_lesson_file
from .tab_widget import ShownPageTabs
from . import lesson_panel
from .session_io import SessionActions
from .regression import RegressionWorkspace
from .regression.workspace import REGRESSION_TAB
from .playground import PlaygroundWorkspace
from .subspace_workspace import COLUMN_MIN_WIDTH, SUBSPACE_TAB, SubspaceWorkspace
from . import give_way, help as app_help, memory
from .views import configure_pyqtgraph
from .worker import DataJobs

__all__ = ["MainWindow", "ABOUT_PAPERS", "DEFAULT_METHODS", "FRAME_MS", "SPEEDS", "SUBSPACE_TAB", "REGRESSION_TAB",
           "WORKSPACES", "COLUMN_MIN_WIDTH"]

DEFAULT_METHODS = ("pca", "pca-gm")
DEFAULT_SIZE = (1600, 1000)
#: threads of the data jobs' pool (one job at a time; a superseded one may still be ending)
DATA_THREADS = 2
#: Run speeds offered: (label, seconds per iteration at least)
SPEEDS = (("max", 0.0), ("30 it/s", 1 / 30), ("10 it/s", 0.1), ("5 it/s", 0.2), ("2 it/s", 0.5),
          ("1 it/s", 1.0))
DEFAULT_SPEED = "5 it/s"
#: seconds a workspace's message stays in the status bar
STATUS_SECONDS = 10
#: autosave period (ms) when the session changed
AUTOSAVE_MS = 60_000
#: how long closing the window waits for the solvers to reach a checkpoint (ms); a solver still
#: inside one long library call after that is left to the process's end (see ``__main__``)
QUIT_WAIT_MS = 300


#: the workspaces (tabs), left to right; each is built as
#: ``cls(pool, session=..., data_jobs=..., delay=...)`` and implements :class:`app.workspace.Workspace`
WORKSPACES = (SubspaceWorkspace, RegressionWorkspace, PlaygroundWorkspace)

#: the opening window: the "default-lesson" preset of paper 000 (its note says why these values)
LESSON = presets.get("default-lesson")


def _lesson_params(key: str) -> dict:
    """The default lesson's parameters for method ``key`` (those it has: k = 5, p = 0.3)."""
    given = dict(LESSON.methods)
    names = catalogue.get(key).defaults()
    merged = {**given.get("pca", {}), **given.get("pca-gm", {}), **given.get(key, {})}
    return {k: v for k, v in merged.items() if k in names}


class MainWindow(SessionActions, HelpActions, QtWidgets.QMainWindow):
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
    autosave : save the session every :data:`AUTOSAVE_MS` when it changed (to
        :func:`app.session_io.autosave_file`), offer to recover an autosave left by a crash on
        start, and remove it on a clean exit (the command line turns it on, not ``--screenshot``).
    """

    #: the workspace's last status message, the time.monotonic() it ends and the text shown for it
    #: (cut to the room there was: _fit_status_message)
    _status_message: tuple[str, float, str] = ("", 0.0, "")

    def __init__(self, folder: str | None = None, size=None, methods: Iterable[str] = DEFAULT_METHODS,
                 corruption_key: str | None = None, corruption_params: dict | None = None,
                 speed: str = DEFAULT_SPEED, method_params: dict | None = None, autosave: bool = False,
                 parent=None):
        super().__init__(parent)
        configure_pyqtgraph()
        # the process-wide settings the latency targets rely on (BLAS threads, GC in
        # this thread, memory trimming, thread priorities) are the program's, not the window's:
        # app.process.configure(), called by __main__.main(); a window leaves the process alone
        self.setWindowTitle("Robust Subspace Lab")
        # the workers wait while this thread's event loop is late (app.give_way)
        self._heartbeat = give_way.Heartbeat(self)
        give_way.install(self._heartbeat)
        # draws the tab shown (app.frame_clock); started once the window is built
        # ticks only while something runs or changes, and so do the collector and the trimming
        self.frame_clock = FrameClock(lambda: self.current_workspace, self._update_buttons,
                                      busy=lambda: self.busy, parent=self)
        self.frame_clock.lively.connect(memory.set_lively)
        self.resize(*DEFAULT_SIZE)

        self.pool = QtCore.QThreadPool(self)
        self.pool.setMaxThreadCount(max(4, QtCore.QThread.idealThreadCount()))
        self._seconds_per_step = dict(SPEEDS).get(speed, dict(SPEEDS)[DEFAULT_SPEED])
        key = corruption_key or LESSON.corruption
        spec = corruption.CORRUPTIONS[key]
        lesson = LESSON.corruption_params if corruption_key is None else {}
        corr = CorruptionSpec(key, {**spec.defaults(), **lesson, **(corruption_params or {})})
        self.session = Session(DataSpec(size=size), corr)
        # data jobs have threads of their own: with every solver thread running a column to
        # convergence, a data request queued behind them waited until one finished
        self.data_pool = QtCore.QThreadPool(self)
        self.data_pool.setMaxThreadCount(DATA_THREADS)
        self.data_jobs = DataJobs(self.data_pool, self)
        self._closing = False
        #: Tools ▸ Sweep…'s dialog once opened, and the sweep results of an opened session
        #: (rows, sweep spec) shown in it (app.session_io)
        self.sweep_dialog = None
        self.saved_sweep: tuple[list, dict | None] | None = None
        #: (data spec, digest, unhashed files) of the last folder hashed for a session file
        self.folder_hash_cache: tuple | None = None
        #: where the last lesson file was opened (File ▸ Open lesson…; "" for none yet)
        self.lesson_dir = ""
        #: Help ▸ Methods's window once opened
        self.methods_help = None
        #: the tab widget and the Data dock (set by _build_ui; None while it builds them)
        self.tabs: QtWidgets.QTabWidget | None = None
        self.data_dock: QtWidgets.QDockWidget | None = None
        self.session_error = ""          # why the last Open session failed ("" if it did not)
        self.session_box = None          # the last session message box

        self.workspaces = [cls(self.pool, session=self.session, data_jobs=self.data_jobs, delay=self._delay)
                           for cls in WORKSPACES]
        #: the workspaces of the two tasks (scripts, presets and the command line address them)
        self.subspace = self.workspace_for("subspace")
        self.regression = self.workspace_for("regression")
        self._build_ui()
        # the opening state is restored as an opened session is (Workspace.restore): the data,
        # the corruption and one run per method; a folder that cannot be loaded gives way to the
        # built-in data, and the tab says why
        runs = [Run(k, (method_params or {}).get(k, _lesson_params(k))) for k in methods]
        opening = Session(DataSpec(FOLDER, folder, size=size) if folder is not None else DataSpec(size=size),
                          corr, runs=runs)
        for ws in self.workspaces:
            failed = ws.restore(opening)
            if failed:
                ws.restore(Session(DataSpec(size=size), corr, runs=runs))
                ws.show_error(failed + " — showing the built-in data instead")

        self.frame_clock.start()

        #: Edit ▸ Undo / Redo of parameter, method, data and corruption changes (from here on)
        self.undo_recorders = [r for ws in self.workspaces
                               if (r := ws.undo_recorder(self.undo_stack)) is not None]
        self._start_autosave(autosave, AUTOSAVE_MS)

    @property
    def last_error(self) -> str:
        """Why the last data request of the tab shown failed ("" if it did not)."""
        return self.current_workspace.last_error

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
        #: per workspace: its toolbar actions (shown only with its tab)
        self._tool_actions = {id(ws): [bar.addWidget(w) for w in ws.toolbar_widgets()]
                              for ws in self.workspaces}

        # ------------------------------------------------------------ menus
        menu = self.menuBar()
        m_file = menu.addMenu("&File")
        #: File ▸ Open folder… acts on the tab shown (enabled when it opens folders)
        self.open_folder_action = act = m_file.addAction("&Open folder…", lambda: self.current_workspace.choose_folder())
        act.setShortcut(QtGui.QKeySequence.Open)
        act = m_file.addAction("&Save screenshot…", self.choose_screenshot)
        act.setShortcut(QtGui.QKeySequence.Save)
        self.open_lesson_action = m_file.addAction("Open &lesson…", lambda: choose_lesson_file(self))
        m_file.addSeparator()
        self._add_session_actions(m_file)
        act = m_file.addAction("&Quit", self.quit)
        # QKeySequence.Quit is empty on Windows and some desktops: Ctrl+Q everywhere
        act.setShortcuts([QtGui.QKeySequence("Ctrl+Q")] +
                         [k for k in QtGui.QKeySequence.keyBindings(QtGui.QKeySequence.Quit)
                          if k != QtGui.QKeySequence("Ctrl+Q")])
        act.setShortcutContext(QtCore.Qt.ApplicationShortcut)
        self.quit_action = act
        self._build_edit_menu(menu)
        m_run = menu.addMenu("&Run")
        for text, key, slot in (("Step", "F10", self.step_all), ("Run", "F5", self.run_all),
                                ("Pause", "F6", self.pause_all), ("Reset", "Ctrl+R", self.reset_all)):
            a = m_run.addAction(text, slot)
            a.setShortcut(QtGui.QKeySequence(key))
        self.export_menu = ExportMenu(self)
        menu.addMenu(self.export_menu)
        m_tools = menu.addMenu("&Tools")
        m_tools.addAction("&Sweep…", self.open_sweep)
        self.lessons_menu = menu.addMenu(LessonsMenu(self.open_lesson, self)).menu()
        self.help_menu = m_help = menu.addMenu("&Help")
        act = m_help.addAction("&What you are seeing (the method shown, or the focused column's ?)",
                               lambda: self.current_workspace.show_help())
        act.setShortcut(QtGui.QKeySequence("F1"))
        m_help.addAction("&Methods", lambda: app_help.show_methods_help(self))
        m_help.addAction("&Keyboard shortcuts", self.show_shortcuts)
        m_help.addAction("&About Robust Subspace Lab", self.show_about)
        #: per workspace: its own menu (enabled only with its tab)
        self._menus = {id(ws): menu.addMenu(ws.menu()) for ws in self.workspaces if ws.menu() is not None}

        # ------------------------------------------------------------ docks
        m_view = menu.addMenu("&View")
        self._docks: dict[int, QtWidgets.QDockWidget] = {}
        for ws in self.workspaces:
            widget = ws.dock_widget()
            if widget is None:
                continue
            dock = QtWidgets.QDockWidget("Data", self)
            dock.setObjectName(f"dataDock{len(self._docks) or ''}")
            dock.setFeatures(QtWidgets.QDockWidget.DockWidgetMovable)
            dock.setWidget(widget)
            dock.setTitleBarWidget(QtWidgets.QWidget())     # the panel has its own group titles
            dock.setMinimumWidth(300)
            self.addDockWidget(QtCore.Qt.LeftDockWidgetArea, dock)
            self.resizeDocks([dock], [310], QtCore.Qt.Horizontal)
            m_view.addAction(dock.toggleViewAction())
            dock.visibilityChanged.connect(lambda _v, w=ws: self._remember_dock(w))
            self._docks[id(ws)] = dock
        self.lesson_panel = lesson_panel.install(self, m_view)
        self._dock_wanted = {k: True for k in self._docks}    # visibility the user left, per dock
        self._switching = False
        self._dock_held = False         # the Data dock hidden while the lesson panel is shown
        #: the Data dock (the first workspace's that has one; the lesson panel holds it)
        self.data_dock = next(iter(self._docks.values()), None)
        self.display = Display(self, m_view)        # presentation mode, zoom, one view large

        # ------------------------------------------------------------ workspaces
        self.tabs = ShownPageTabs()
        self.tabs.setObjectName("workspaceTabs")
        self.tabs.setDocumentMode(True)
        for ws in self.workspaces:
            i = self.tabs.addTab(ws, ws.title)
            self.tabs.setTabToolTip(i, ws.tooltip)
            ws.status.connect(self._on_workspace_status)
            ws.activity.connect(self._update_buttons)
            ws.activity.connect(lambda ws=ws: self.frame_clock.wake(ws))
            if hasattr(ws, "frame_due"):
                ws.frame_due.connect(lambda ws=ws: self.frame_clock.wake(ws))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.setCentralWidget(self.tabs)

        # ------------------------------------------------------------ status bar
        self.data_status = QtWidgets.QLabel("")
        self.progress_bar = QtWidgets.QProgressBar()
        self.progress_bar.setMaximumWidth(180)
        self.progress_bar.setTextVisible(True)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop loading: the data shown so far are kept")
        self.cancel_button.clicked.connect(self.data_jobs.cancel)
        for w in (self.progress_bar, self.cancel_button):
            w.setVisible(False)
            self.statusBar().addPermanentWidget(w)
        self.statusBar().addPermanentWidget(self.data_status)
        self.data_jobs.activity.connect(self._on_data_activity)
        self.data_jobs.activity.connect(lambda: self.frame_clock.wake(None))
        self.data_jobs.progress.connect(self._on_data_progress)
        self._on_tab_changed(self.tabs.currentIndex())

    # ================================================================== workspaces
    @property
    def current_workspace(self):
        """The workspace shown (the toolbar, the frame timer and the status bar act on it)."""
        tabs = self.tabs
        return tabs.currentWidget() if tabs is not None and tabs.count() else self.workspaces[0]

    def workspace_for(self, task: str):
        """The workspace whose runs are of ``task`` (``"subspace"``, ``"regression"``)."""
        for ws in self.workspaces:
            if ws.task == task:
                return ws
        raise KeyError(task)

    def show_tab(self, name: str) -> None:
        """Show the tab titled ``name`` (:data:`SUBSPACE_TAB` or :data:`REGRESSION_TAB`)."""
        for i in range(self.tabs.count()):
            if self.tabs.tabText(i) == name:
                self.tabs.setCurrentIndex(i)
                return
        raise KeyError(name)

    def _remember_dock(self, ws) -> None:
        dock = self._docks[id(ws)]
        if not self._switching and ws is self.current_workspace:
            self._dock_wanted[id(ws)] = not dock.isHidden()
            self._dock_held = self._dock_held and dock.isHidden()      # shown by the user: no longer held

    def hold_data_dock(self, hold: bool) -> None:
        """Hide the Data dock while the lesson panel is shown (three columns fit beside the panel
        at 1280 px); released, it is shown as the user left it (View ▸ Data shows it meanwhile)."""
        dock = self.data_dock
        if dock is None or hold == self._dock_held:
            return
        self._dock_held = hold
        self._switching = True
        shown = self.current_workspace
        dock.setVisible(not hold and self._docks.get(id(shown)) is dock and self._dock_wanted[id(shown)])
        self._switching = False

    def _on_tab_changed(self, index: int) -> None:
        """Each workspace's dock, toolbar widgets and menu are shown only with its tab (its dock as
        the user left it there); the workspace shown is told (it loads lazily)."""
        shown = self.current_workspace
        self._switching = True
        for ws in self.workspaces:
            mine = ws is shown
            dock = self._docks.get(id(ws))
            if dock is not None:
                held = self._dock_held and dock is self.data_dock
                dock.setVisible(mine and self._dock_wanted[id(ws)] and not held)
                dock.toggleViewAction().setEnabled(mine)
            for act in self._tool_actions[id(ws)]:
                act.setVisible(mine)
            if id(ws) in self._menus:
                self._menus[id(ws)].setEnabled(mine)
        self._switching = False
        self.open_folder_action.setEnabled(shown.opens_folders)
        shown.activated()
        self._set_run_tooltips()
        self._show_data_status()
        self._update_buttons()
        self.frame_clock.wake(shown)          # the tab shown catches up

    def _on_workspace_status(self, text: str) -> None:
        self._show_data_status()
        self._status_message = (text, time.monotonic() + STATUS_SECONDS, "")
        self._fit_status_message()

    def _fit_status_message(self) -> None:
        """Show the workspace's last message for what is left of its time, ending with "…" where
        the permanent texts on the right begin (a long one, "Corruption: 30 outlier images … added
        to 100 ima", ran under the data line); again at each resize of the window, so that a
        message shown before the window had its size ("Loaded 10…" at start) is whole once it
        has room."""
        text, until, _ = self._status_message
        left = until - time.monotonic()
        if not text or left <= 0:
            return
        bar = self.statusBar()
        right = sum(w.sizeHint().width() + 8 for w in (self.progress_bar, self.cancel_button, self.data_status)
                    if not w.isHidden())
        room = max(bar.width() - right - 24, 80)
        shown = bar.fontMetrics().elidedText(text, QtCore.Qt.ElideRight, room)
        self._status_message = (text, until, shown)
        bar.showMessage(shown, max(int(left * 1000), 1))

    def resizeEvent(self, event) -> None:  # noqa: D401 - Qt API
        super().resizeEvent(event)
        shown = self._status_message[2]
        if shown and self.statusBar().currentMessage() == shown:   # (not a later message of another part)
            self._fit_status_message()

    def apply_preset(self, key, run: bool = True) -> bool:
        """Set the data, corruption, methods and parameters of the preset ``key`` (a key of
        :mod:`core.presets`, or a :class:`core.presets.Preset`, e.g. a lesson step's
        ``Setup.as_preset(seed)``) in the workspace of its task, and, if ``run``, run it
        (``steps`` iterations, or to convergence). False, with a message, when its data cannot be
        loaded."""
        pre = presets.get(key) if isinstance(key, str) else key
        ws = self.workspace_for(pre.task)
        ok = ws.apply_preset(pre)
        self.show_tab(ws.title)
        if not ok:
            return False
        if run and pre.steps:
            self.step_all(pre.steps)
        elif run:
            self.run_all()
        return True

    def open_lesson(self, lesson, seed: int | None = None) -> None:
        """Open ``lesson`` (a :class:`core.lessons.Lesson`) in the lesson panel on its first step,
        with corruption seed ``seed`` (default: the lesson's); the step's setup is applied and run."""
        self.lesson_panel.open(lesson, seed)

    # ================================================================== run controls
    def _delay(self) -> float:
        return self._seconds_per_step

    def _set_run_tooltips(self) -> None:
        what = self.current_workspace.run_target
        self.step_button.setToolTip(f"Advance {what} one iteration (F10)")
        self.run_button.setToolTip(f"Iterate {what} until it converges (F5)")
        self.reset_button.setToolTip(f"Back to iteration 0: {what} (Ctrl+R)")

    def step_all(self, n: int = 1) -> None:
        """Advance every run of the tab shown ``n`` iterations (from the newest state)."""
        n = n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1
        if self.current_workspace.finished:        # Step does not count on past the stopping rule
            self.statusBar().showMessage("Every run has ended (converged or stopped: see each status line); "
                                         "Step does not count on. Reset starts again.", 8000)
        self.current_workspace.step(n)
        self._update_buttons()

    def run_all(self) -> None:
        """Iterate every run of the tab shown until its stopping rule holds."""
        self.current_workspace.run()
        self._update_buttons()

    def pause_all(self) -> None:
        self.lesson_panel.driver.hold()
        self.current_workspace.pause()
        self._update_buttons()

    def reset_all(self) -> None:
        self.current_workspace.reset()
        self._update_buttons()

    @property
    def running(self) -> bool:
        """The tab shown has a run (until converged) in flight."""
        return self.current_workspace.running

    @property
    def busy(self) -> bool:
        """A data job or some solver (of any tab) has work in flight or queued."""
        return self.data_jobs.busy or any(ws.busy for ws in self.workspaces)

    def _update_buttons(self) -> None:
        ws = self.current_workspace
        running = ws.running
        self.step_button.setEnabled(not running)
        self.run_button.setEnabled(not running and not ws.finished)
        self.pause_button.setEnabled(running)
        if running:
            self.activity_label.setText("running…  ")
        elif ws.busy or self.data_jobs.busy:
            self.activity_label.setText("working…  ")
        else:
            self.activity_label.setText("")

    def redraw_now(self) -> None:
        self.current_workspace.refresh(force=True)
        self._update_buttons()

    # ================================================================== data jobs
    def _on_data_activity(self) -> None:
        busy = self.data_jobs.busy
        if busy:
            self.progress_bar.setRange(0, 0)          # busy until the first report
            self.progress_bar.setFormat(self.data_jobs.label)
            self.cancel_button.setEnabled(True)
        self.progress_bar.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self._show_data_status()
        self._update_buttons()

    def _on_data_progress(self, done: int, total: int, what: str) -> None:
        if total > 0:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)
            self.progress_bar.setFormat(f"{self.data_jobs.label}: {what} %v/%m")

    def _show_data_status(self) -> None:
        text = self.current_workspace.data_text()
        self.data_status.setText(f"{text}  " if text else "")

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
        """Wait until no data job and no solver (of any workspace) is in flight or queued."""
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
            self.statusBar().showMessage(f"Saved {path}" if ok else f"Could not save {path}", 10000)

    # ================================================================== closing
    def quit(self) -> None:
        """File ▸ Quit (Ctrl+Q): close the dialogs open (a file dialog's own event loop ends with
        them), stop every job and close the window; ``__main__`` then ends the process."""
        for w in QtWidgets.QApplication.topLevelWidgets():
            if w is self or not w.isVisible():
                continue
            if isinstance(w, QtWidgets.QDialog) and not getattr(w, "running", False):
                w.reject()
            else:            # a running sweep's dialog (its thread is cancelled by shutdown)
                w.hide()
        self.close()

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown(QUIT_WAIT_MS)
        super().closeEvent(event)

    def shutdown(self, wait_ms: int = 2000) -> None:
        """Cancel every data job, solver and sweep, and wait at most ``wait_ms`` for the pool."""
        if self._closing:
            return
        self._closing = True
        self.frame_clock.stop()
        give_way.uninstall(self._heartbeat)     # nobody waits for a closing window
        self._stop_autosave()
        self.data_jobs.shutdown()
        self.lesson_panel.driver.close()
        for ws in self.workspaces:
            ws.shutdown()
        sweep = self.sweep_dialog
        if sweep is not None and sweep.running:
            sweep.cancel()
        start = time.monotonic()
        self.pool.waitForDone(wait_ms)
        self.data_pool.waitForDone(max(0, wait_ms - int(1000 * (time.monotonic() - start))))
