"""The "Subspace methods" workspace: one column per method side by side, and presets of them.

It implements :class:`app.workspace.Workspace` (the one interface the main window asks of a
tab) and observes the window's :class:`core.session.Session`, whose subspace runs are its
columns' (added, removed, set by a preset, restored from a saved session). Its data side (the
Data panel, loading, corrupting, toys: every column runs on the same data) is
:class:`app.subspace_data.SubspaceData`.
"""
from __future__ import annotations

from typing import Callable

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core.session import TOY, Session

from .column import VIEWS_PER_TICK, MethodColumn, view_classes
from .column_defaults import next_column
from .column_help import show_focused_help
from .layout import ScrollRangesOnChange, share_width_equally
from .scroll_cue import ColumnsCue
from .subspace_data import SubspaceData
from .ui_queue import UiQueue
from .undo import UndoRecorder
from .view_pool import ViewPool
from .worker import DataJobs
from .workspace import Workspace

__all__ = ["SubspaceWorkspace", "COLUMN_MIN_WIDTH", "MAX_COLUMNS", "SUBSPACE_TAB"]

COLUMN_MIN_WIDTH = 330      # three columns beside the Data dock at 1366 × 768
#: columns the "+ Column" button and Columns ▸ Add column add at most: five fit beside the Data
#: dock at 1920 px, eight scroll at 2,640 px; each one more solver sharing the cores and its own
#: snapshot cache (presets and saved sessions are not limited: they never have more than six)
MAX_COLUMNS = 8
SUBSPACE_TAB = "Subspace methods"


class _Columns(QtWidgets.QWidget):
    """Container of the method columns. It reports no height-for-width (word-wrapped labels
    would otherwise make the scroll area size it by its preferred, not its available, height)."""

    def hasHeightForWidth(self) -> bool:
        return False

    def heightForWidth(self, width: int) -> int:
        return -1


class SubspaceWorkspace(SubspaceData, Workspace, QtWidgets.QScrollArea):
    """See the module docstring.

    Parameters
    ----------
    pool : the QThreadPool the columns' solvers run in.
    session : the window's session (this workspace edits its data, corruption and subspace runs).
    data_jobs : the window's background data jobs.
    delay : callable giving the seconds per iteration while running (the toolbar's speed).
    """

    title = SUBSPACE_TAB
    tooltip = "Robust PCA, subspace and NMF methods side by side, one column each"
    task = "subspace"
    uses_data_dock = True
    opens_folders = True
    run_target = "every column"

    status = QtCore.Signal(str)
    activity = QtCore.Signal()
    frame_due = QtCore.Signal()             # a column has something new to draw (app.frame_clock)
    column_added = QtCore.Signal(object)    # a column was added (the undo recorder tracks its changes)

    def __init__(self, pool: QtCore.QThreadPool, session: Session | None = None,
                 data_jobs: DataJobs | None = None, delay: Callable[[], float] | None = None, parent=None):
        super().__init__(parent)
        self.pool = pool
        self.session = session if session is not None else Session()
        self.data_jobs = data_jobs if data_jobs is not None else DataJobs(pool, self)
        self._delay = delay or (lambda: 0.0)
        self.columns: list[MethodColumn] = []
        self._next_column = 0
        self._closed = False
        # widgets built a few ms per event-loop turn (new columns, their views); views built ahead while idle
        self.build_queue = UiQueue(self)
        self.view_pool = ViewPool([c for c in view_classes() if c.default_visible], parent=self, idle=lambda: not (
            self.build_queue.pending or self.data_jobs.busy or self.drawing
            or any(c.runner.busy for c in self.columns)))
        # what Step/Run asked while a preset's columns are being added: ("step", n), ("run",) or
        # None; each column added then does the same
        self._then: tuple | None = None
        self._slots: list[QtWidgets.QWidget] = []     # places of a preset's columns still to add

        self.columns_widget = _Columns()
        self.columns_layout = QtWidgets.QHBoxLayout(self.columns_widget)
        self.columns_layout.setContentsMargins(4, 4, 4, 4)
        self.columns_layout.setSpacing(6)
        self.setWidgetResizable(True)
        self.setFrameShape(QtWidgets.QFrame.NoFrame)
        self.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarAsNeeded)
        self.setWidget(self.columns_widget)
        ScrollRangesOnChange(self)        # (no scroll-bar repaint at each frame's relayout)
        self.columns_cue = ColumnsCue(self, lambda: self.columns)    # which columns are in view, when not all
        self._build_data_panel()

        self.add_column_button = QtWidgets.QPushButton("+ Column")
        self.add_column_button.setToolTip("Add a method column")
        self.add_column_button.clicked.connect(self.request_column)
        self._menu = QtWidgets.QMenu("&Columns")
        self._add_action = self._menu.addAction("&Add column", self.request_column)
        self._menu.addAction("&Remove last column",
                             lambda: self.remove_column(self.columns[-1]) if len(self.columns) > 1 else None)

    # ================================================================== what the window shows

    def menu(self) -> QtWidgets.QMenu:
        return self._menu

    def toolbar_widgets(self) -> list:
        return [self.add_column_button]

    def undo_recorder(self, stack) -> UndoRecorder:
        """Records data, corruption, method and parameter changes (:class:`app.undo.UndoRecorder`)."""
        return UndoRecorder(self, stack)

    def show_help(self):                   # the focused column's "?" (F1, Help ▸ What you are seeing)
        return show_focused_help(self.columns)

    # ================================================================== columns
    def add_column(self, key: str | None = None, params: dict | None = None,
                   placeholder: QtWidgets.QWidget | None = None) -> MethodColumn:
        """Add a method column (``key`` from the catalogue; default: a method not shown yet, with
        the columns' k: :func:`app.column_defaults.next_column`), at the end or in place of
        ``placeholder`` (a widget of the columns' layout)."""
        if key is None:                   # the first method not shown, with the columns' k
            key, params = next_column(self.columns, params)
        # in a shown window the new column's views are built one per job of the build queue
        col = MethodColumn(self.pool, key, params, delay=self._delay, index=len(self.columns),
                           build_queue=self.build_queue if self.isVisible() else None,
                           ui_queue=self.build_queue, view_pool=self.view_pool)
        share_width_equally(col, COLUMN_MIN_WIDTH)
        col.status.connect(lambda c, text: self.status.emit(text))
        col.close_requested.connect(self.remove_column)
        col.runner.activity.connect(self.activity)
        col.runner.changed.connect(self.frame_due)
        self.columns.append(col)
        if placeholder is not None:
            self.columns_layout.replaceWidget(placeholder, col)
            placeholder.hide()
            placeholder.deleteLater()
        else:
            self.columns_layout.addWidget(col, 1)
        # shown now, not when the layout gets to it: else the layout first shares the width among
        # the other columns, then again with this one, and every view of every column is resized
        # (and redrawn) twice; the others shrink to make room: their views are repainted one per
        # event-loop turn (not in a preset: its slots took their places already)
        if self.columns_widget.isVisible():
            if placeholder is None:
                for other in self.columns[:-1]:
                    other.repaint_views_in_parts()
            col.show()
        self._renumber()
        if self.data is not None:
            col.runner.set_data(self.data)
        self.session.attach(col.runner.model)
        self.column_added.emit(col)
        return col

    def request_column(self) -> MethodColumn | None:
        """The "+ Column" button and Columns ▸ Add column: a new column, or None with a message
        once :data:`MAX_COLUMNS` are shown."""
        if len(self.columns) >= MAX_COLUMNS:
            self.status.emit(f"At most {MAX_COLUMNS} columns: remove one (✕) to add another")
            return None
        return self.add_column()

    def remove_column(self, col: MethodColumn) -> None:
        """Remove ``col`` (not the last column): the other columns widen into its room, their
        views repainted one per event-loop turn."""
        if col not in self.columns or len(self.columns) <= 1:
            return
        for other in self.columns:
            if other is not col:
                other.repaint_views_in_parts()      # (views already waiting for a repaint are left)
        col.shutdown()
        self.build_queue.discard(col)         # jobs posted for it (a preset's repaints, its controls)
        self.session.remove_run(col.runner.model)
        self.columns.remove(col)
        self.columns_layout.removeWidget(col)
        col.hide()
        # deleted in a turn of its own: a column's ~3,000 Qt objects took 8-15 ms to delete, and a
        # preset that removed four deleted them all in one turn (with their garbage: 90-100 ms)
        self.build_queue.post(col.deleteLater, end_turn=True)
        self._renumber()

    def _renumber(self) -> None:
        for i, c in enumerate(self.columns):
            c.index = i
            c.close_button.setVisible(len(self.columns) > 1)
        room = len(self.columns) < MAX_COLUMNS
        self.add_column_button.setEnabled(room)
        self._add_action.setEnabled(room)
        self.add_column_button.setToolTip("Add a method column" if room else
                                          f"At most {MAX_COLUMNS} columns: remove one (✕) to add another")

    # ================================================================== run controls
    def step(self, n: int = 1) -> None:
        self._then = ("step", n) if self._adding else None
        for c in self.columns:
            self._go(c, ("step", n))

    def run(self) -> None:
        self._then = ("run",) if self._adding else None
        for c in self.columns:
            self._go(c, ("run",))

    @staticmethod
    def _go(col: MethodColumn, what: tuple) -> None:
        """Step (``("step", n)``) or run (``("run",)``) ``col`` from its newest state."""
        col.follow_live()
        if what[0] == "run":
            col.runner.run()
        else:
            col.runner.step(what[1])

    def pause(self) -> None:
        self._then = None
        for c in self.columns:
            c.runner.pause()

    def reset(self) -> None:
        self._then = None
        for c in self.columns:
            c.runner.reset()
            c.follow_live()

    @property
    def running(self) -> bool:
        return any(c.runner.running for c in self.columns)

    @property
    def _adding(self) -> bool:
        """Columns of a preset are still to be added (jobs of the build queue)."""
        return bool(self._slots)

    @property
    def busy(self) -> bool:
        """A solver has work in flight or queued, or columns or views are still being built."""
        return bool(self.build_queue.pending) or any(c.runner.busy or c.runner.pending for c in self.columns)

    @property
    def finished(self) -> bool:
        return all(c.runner.finished for c in self.columns)

    def refresh(self, force: bool = False) -> bool:
        """Draw the next part of the next column that changed (round robin, a column's frame in
        parts of :data:`app.column.VIEWS_PER_TICK` views; all of them at once when ``force``)."""
        if force:
            drawn = [c.refresh(force=True) for c in self.columns]
            return any(drawn)
        n = len(self.columns)
        for k in range(n):
            c = self.columns[(self._next_column + k) % n]
            if c.refresh(budget=VIEWS_PER_TICK):
                self._next_column = (self._next_column + k + 1) % n
                return True
        return False

    def frame_share(self) -> int:
        return max(len(self.columns), 1)

    @property
    def drawing(self) -> bool:
        """A column's frame is partly drawn (the next part is due at once)."""
        return any(c.drawing for c in self.columns)

    def shutdown(self) -> None:
        self._closed = True
        self._drop_slots()
        for c in self.columns:
            c.shutdown()

    def errors(self) -> list[str]:
        """One line per run that failed (for the command line)."""
        return [f"column {c.index + 1} ({c.runner.info.name}): {c.runner.error}"
                for c in self.columns if c.runner.error]

    def summary(self) -> str:
        return ", ".join(f"{c.runner.info.name}: iteration {c.runner.iteration}" for c in self.columns)

    # ================================================================== sessions
    def restore(self, saved) -> str:
        """The data and corruption of the opened session ``saved`` (loaded as the Data panel
        would), then one column per subspace run, left to right, with its method and parameters,
        stepped to the iteration it had reached (the solvers are deterministic given their seeds:
        the same states come back). "" or why the data could not be loaded (the data, corruption
        and columns are then kept)."""
        data, corr = saved.data, saved.corruption
        old_corr = self.session.corruption
        if data.kind == TOY:                # a toy carries its own outliers: the corruption is kept for later
            ok = self.load_toy(data.name, dict(data.options), precision=data.precision)
            if ok:
                self.session.set_corruption(corr)
                self.data_panel.show_corruption(corr.key, corr.values())
        else:
            self.session.set_corruption(corr)
            ok = self._load(data)
            if not ok:
                self.session.set_corruption(old_corr)
        if not ok:
            return self.last_error or "loading cancelled"
        self._drop_slots()
        old = list(self.columns)
        runs = saved.runs_of(self.task)
        new = [self.add_column(run.method, dict(run.params)) for run in runs]
        for col in old:
            self.remove_column(col)
        for col, run in zip(new, runs):
            if run.saved_iteration > 0:
                self._go(col, ("step", run.saved_iteration))
        return ""

    # ================================================================== presets
    def apply_preset(self, pre) -> bool:
        """Data, corruption, methods and parameters of the preset ``pre`` (:mod:`core.presets`).
        The columns there compute nothing until their new methods are set (ColumnRunner.hold)."""
        held = list(self.columns)
        for col in held:
            col.runner.hold()
        try:
            return self._apply_preset(pre)
        finally:
            for col in held:
                col.runner.release()

    def _apply_preset(self, pre) -> bool:
        kind, name = pre.data
        if kind == TOY:
            ok = self.load_toy(name, dict(pre.data_params))
        else:
            options = {k: v for k, v in pre.data_params.items() if k != "size"}
            ok = self.load_builtin(name, size=pre.data_params.get("size", ...), **options) and \
                self.set_corruption(pre.corruption, dict(pre.corruption_params))
        if not ok:
            return False
        # the columns there are take the preset's first methods; new ones are added by jobs of
        # the build queue (building a column holds the GUI thread 0.1–0.25 s: one job builds
        # its controls, one job each of its views), so the window keeps drawing in between. A
        # Step or Run asked before they are all there applies to each as it is added.
        self._drop_slots()                      # columns of an earlier preset not added yet
        kept = list(self.columns)
        self.columns_layout.setEnabled(False)     # one relayout for all the places (below)
        if len(pre.methods) != len(kept):
            # the columns that stay shrink to make room or widen into the room left: their views
            # are repainted one per turn (a repaint of every view at once held the event loop
            # ~50 ms for four new columns, 130-400 ms for six columns becoming three or four)
            for col in kept[:len(pre.methods)]:
                col.repaint_views_in_parts()
        for col in kept[len(pre.methods):]:
            self.remove_column(col)
        self._scrollbar_for(len(pre.methods))
        for i, (method, params) in enumerate(pre.methods):
            if i < len(kept):
                kept[i].set_method(method, dict(params), queue=self.build_queue, keep_current=False)
            else:
                # an empty frame holds the column's place: the window's layout changes once
                # here, not once per column added
                slot = QtWidgets.QFrame()
                slot.setFrameShape(QtWidgets.QFrame.StyledPanel)
                share_width_equally(slot, COLUMN_MIN_WIDTH)
                self.columns_layout.addWidget(slot, 1)
                if self.columns_widget.isVisible():
                    slot.show()                                       # now (see add_column)
                self._slots.append(slot)
                self.build_queue.post(lambda m=method, p=dict(params), w=slot: self._add_queued(m, p, w),
                                      owner=self)
        self.columns_layout.setEnabled(True)      # laid out in the next event-loop turn, not in this one
        return True

    def _scrollbar_for(self, n_columns: int) -> None:
        """Show the horizontal scroll bar now if ``n_columns`` will not fit side by side: when it
        appears only after the columns are placed, the columns lose its height in a second
        relayout (every view resized again). Back to "as needed" once they are all there."""
        margins = self.columns_layout.contentsMargins()
        needed = n_columns * COLUMN_MIN_WIDTH + (n_columns - 1) * self.columns_layout.spacing() \
            + margins.left() + margins.right()
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOn if needed > self.viewport().width()
                                          else QtCore.Qt.ScrollBarAsNeeded)

    def _drop_slots(self) -> None:
        """Forget the preset columns not added yet (their jobs and their places)."""
        self.build_queue.discard(self)
        for slot in self._slots:
            self.columns_layout.removeWidget(slot)
            slot.deleteLater()
        self._slots.clear()

    def _add_queued(self, method: str, params: dict, slot: QtWidgets.QWidget) -> None:
        """A column of a preset, added from the build queue in place of ``slot``; it does what
        Step/Run asked."""
        self._slots.remove(slot)
        if self._closed:
            return
        col = self.add_column(method, params, placeholder=slot)
        if self._then is not None:
            self._go(col, self._then)
        if not self._adding:
            self._then = None
            self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAsNeeded)
