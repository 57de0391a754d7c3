"""The "Subspace methods" workspace: one column per method side by side, and its Data panel.

It implements :class:`app.workspace.Workspace` (the one interface the main window asks of a
tab) and observes the window's :class:`core.session.Session`: the data panel asks for a data
set, a size, a precision, a corruption or a toy; the workspace updates the session's :class:`DataSpec` /
:class:`CorruptionSpec`, builds the data in a background data job (:class:`app.worker.DataJobs`:
loading, resizing and corrupting never run on the GUI thread, which keeps drawing, shows a
progress bar and takes a Cancel), and hands the result to every column. On any error or a
Cancel the data shown so far are kept and the message says why.
"""
from __future__ import annotations

import os
from typing import Callable

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import corruption
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.session import (BUILTIN, FOLDER, TOY, CorruptionSpec, DataSpec, Session, prepare,
                                              share_clean)

from .column import VIEWS_PER_TICK, MethodColumn, view_classes
from .column_defaults import next_column
from .column_help import show_focused_help
from .data_panel import FOLDER as PANEL_FOLDER, TOY as PANEL_TOY, TOYS, DataPanel
from .layout import share_width_equally
from .ui_queue import UiQueue
from .view_pool import ViewPool
from .worker import DataJobs, error_message
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


def _load_error(exc: BaseException) -> str:
    return error_message(exc) if not isinstance(exc, OSError) else f"Data problem: {exc}"


class SubspaceWorkspace(Workspace, QtWidgets.QScrollArea):
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
        self.imageset = None
        self.data = None
        self.last_error = ""
        self._skipped_box: QtWidgets.QMessageBox | None = None
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

        self.data_panel = DataPanel()
        self.data_panel.builtin_requested.connect(lambda name: self.load_builtin(name))
        self.data_panel.folder_requested.connect(self.choose_folder)
        self.data_panel.reload_folder_requested.connect(lambda p: self.open_folder(p))
        self.data_panel.size_requested.connect(self.set_image_size)
        self.data_panel.precision_requested.connect(self.set_precision)
        self.data_panel.corruption_requested.connect(self.set_corruption)
        self.data_panel.toy_requested.connect(lambda key, params: self.load_toy(key, params))
        self._dock_scroll = QtWidgets.QScrollArea()
        self._dock_scroll.setWidgetResizable(True)
        self._dock_scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        self._dock_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        self._dock_scroll.setWidget(self.data_panel)

        self.add_column_button = QtWidgets.QPushButton("+ Column")
        self.add_column_button.setToolTip("Add a method column")
        self.add_column_button.clicked.connect(self.request_column)
        self._menu = QtWidgets.QMenu("&Columns")
        self._add_action = self._menu.addAction("&Add column", self.request_column)
        self._menu.addAction("&Remove last column",
                             lambda: self.remove_column(self.columns[-1]) if len(self.columns) > 1 else None)

    # ================================================================== what the window shows
    def dock_widget(self) -> QtWidgets.QWidget:
        """The Data panel (the window puts it in its left dock)."""
        return self._dock_scroll

    def menu(self) -> QtWidgets.QMenu:
        return self._menu

    def toolbar_widgets(self) -> list:
        return [self.add_column_button]

    def show_help(self) -> None:           # the focused column's "?" (F1, Help ▸ What you are seeing)
        show_focused_help(self.columns)

    # ================================================================== session values
    @property
    def source(self) -> tuple[str, str]:
        """``(kind, name)`` of the session's data as the Data panel names them
        (``("builtin", "faces")``, ``(data_panel.FOLDER, path)``, ``(data_panel.TOY, key)``)."""
        kind = {FOLDER: PANEL_FOLDER, TOY: PANEL_TOY}.get(self.session.data.kind, self.session.data.kind)
        return kind, self.session.data.name

    @property
    def size_option(self):
        return self.session.data.size

    @property
    def precision(self) -> str:
        """The session data's precision, "double" or "single" (:attr:`DataSpec.precision`)."""
        return self.session.data.precision

    @property
    def toy_params(self) -> dict:
        return dict(self.session.data.options) if self.session.data.is_toy else {}

    @property
    def corruption_key(self) -> str:
        return self.session.corruption.key

    @property
    def corruption_params(self) -> dict:
        return dict(self.session.corruption.params)

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
        # (and redrawn) twice
        if self.columns_widget.isVisible():
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
        if col not in self.columns or len(self.columns) <= 1:
            return
        col.shutdown()
        self.build_queue.discard(col)         # jobs posted for it (a preset's repaints, its controls)
        self.session.remove_run(col.runner.model)
        self.columns.remove(col)
        self.columns_layout.removeWidget(col)
        col.setParent(None)
        col.deleteLater()
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

    def data_text(self) -> str:
        return self.data.description if self.data is not None else ""

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
        for col in kept[len(pre.methods):]:
            self.remove_column(col)
        self.columns_layout.setEnabled(False)     # one relayout for all the places (below)
        self._scrollbar_for(len(pre.methods))
        if len(pre.methods) > len(kept):
            # the columns there shrink to make room: their views are repainted one per turn (a
            # repaint of every view at once held the event loop ~50 ms)
            for col in kept:
                for view in col.views():
                    view.setUpdatesEnabled(False)
                    self.build_queue.post(lambda v=view: v.setUpdatesEnabled(True), owner=col, end_turn=True)
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
        self.columns_layout.setEnabled(True)
        self.columns_layout.activate()
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

    # ================================================================== data
    def show_error(self, text: str) -> None:
        """Say why a request failed (Data panel and status bar)."""
        self.last_error = text
        self.data_panel.show_message(text)
        self.status.emit(text)

    def _hand_over(self, data) -> None:
        self.data = data
        self.last_error = ""
        self.data_panel.show_message("")
        for c in self.columns:
            c.runner.set_data(data)
            c.follow_live()

    def _load(self, spec: DataSpec, interactive: bool = False) -> bool:
        """Load ``spec`` and corrupt it with the session's corruption in a background data job,
        then hand the result to every column. On any error or a Cancel keep everything as it
        was and say why."""
        corr = self.session.corruption
        what = os.path.basename(spec.name) if spec.kind == FOLDER else spec.name

        def work():
            images = spec.load()
            try:
                data = prepare(spec, corr, images)
            except (DataError, ParameterError) as exc:
                raise type(exc)(f"{exc} (corruption '{corr.key}' on the new data)") from exc
            return share_clean(images, data), data       # the images kept once, as X_clean

        outcome, value = self.data_jobs.call(work, f"Loading {what}")
        if outcome == "superseded":
            return False
        if outcome == "cancelled":
            if not self._closed:
                self.show_error(f"Loading {what} cancelled — kept: {self.data_text() or 'no data'}")
            return False
        if outcome == "error":
            self.show_error(_load_error(value))
            return False
        imageset, data = value
        self.imageset = imageset
        self.session.set_data(spec)
        self.data_panel.show_data(imageset, spec.name if spec.kind != FOLDER else (PANEL_FOLDER, spec.name), spec.size)
        self.data_panel.show_precision(spec.precision)
        self.data_panel.show_corruption(corr.key, dict(corr.params), data.description)
        msg = f"Loaded {len(imageset.images)} images ({imageset.shape[0]} × {imageset.shape[1]} px)"
        if imageset.skipped:
            msg += f"; {len(imageset.skipped)} file(s) skipped: " + ", ".join(
                p for p, _ in imageset.skipped[:3]) + ("…" if len(imageset.skipped) > 3 else "")
            if interactive:
                self._show_skipped_dialog(imageset)
        self._hand_over(data)
        self.status.emit(msg)
        return True

    def load_builtin(self, name: str, size=..., **options) -> bool:
        """Load the built-in set ``name`` (keeps the current size unless ``size`` is given), with
        the loader's ``options`` (e.g. ``digits=[6]``)."""
        size = self.size_option if size is ... else size
        return self._load(DataSpec(BUILTIN, name, size=size, options=options, precision=self.precision))

    def open_folder(self, path: str, size=..., interactive: bool = False) -> bool:
        """Load every image of ``path``; skipped files are listed in the Data panel and the status
        bar (and a dialog when ``interactive``). Returns False (and keeps the data) on error."""
        size = self.size_option if size is ... else size
        return self._load(DataSpec(FOLDER, os.fspath(path), size=size, precision=self.precision), interactive)

    def choose_folder(self) -> None:
        start = self.session.data.name if self.session.data.kind == FOLDER else os.getcwd()
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Open a folder of images", start)
        if path:
            self.open_folder(path, interactive=True)

    def set_image_size(self, size) -> bool:
        """Reload the current data at ``size`` ((height, width) or None)."""
        spec = self.session.data
        if spec.is_toy:           # points, not images: nothing to resize (kept for the next images)
            self.session.set_data(spec.with_(size=size))
            return True
        ok = self._load(spec.with_(size=size))
        if not ok and self.imageset is not None:
            self.data_panel.show_data(self.imageset, spec.name if spec.kind != FOLDER else (PANEL_FOLDER, spec.name),
                                      spec.size)
        return ok

    def set_precision(self, precision: str) -> bool:
        """Rebuild the current data in ``precision`` ("double" or "single", see
        :attr:`core.session.DataSpec.precision`) in the background data job, as a size change
        does; every column restarts on the one new array. On an error or a Cancel the data and
        the precision shown are kept and the message says why."""
        spec = self.session.data
        if precision == spec.precision:
            return True
        if spec.is_toy:
            ok = self.load_toy(spec.name, dict(spec.options), precision=precision)
        else:
            try:
                new = spec.with_(precision=precision)
            except ParameterError as exc:
                self.show_error(_load_error(exc))
                ok = False
            else:
                ok = self._load(new)
        if not ok:
            self.data_panel.show_precision(self.precision)
        return ok

    def set_corruption(self, key: str, params: dict | None = None) -> bool:
        """Corrupt the current images with ``key`` (``params`` over its defaults); every column
        restarts. On an invalid value the previous corruption is kept and the message names it."""
        spec = corruption.CORRUPTIONS.get(key)
        values = {**(spec.defaults() if spec else {}), **(params or {})}
        new = CorruptionSpec(key, values)
        if self.session.data.is_toy or self.imageset is None:
            # a toy has its own outliers; the choice is kept for the next image set
            self.session.set_corruption(new)
            return True
        # no local reference to the images: this call may wait (nested) while newer ones replace them
        outcome, value = self.data_jobs.call(lambda d=self.session.data, im=self.imageset: prepare(d, new, im),
                                             f"Corrupting ({key})")
        if outcome == "superseded":
            return False
        if outcome != "ok":
            text = _load_error(value) if outcome == "error" else "Corruption cancelled"
            kept = self.data.description if self.data is not None else "no data"
            if not self._closed:
                self.show_error(text + f" — kept: {kept}")
                self.data_panel.show_corruption(self.corruption_key, self.corruption_params, kept)
            return False
        self.imageset = share_clean(self.imageset, value)     # the newest request's images, kept once as X_clean
        self.session.set_corruption(new)
        self.data_panel.show_corruption(key, values, value.description)
        self._hand_over(value)
        self.status.emit(f"Corruption: {value.description}")
        return True

    def load_toy(self, key: str, params: dict | None = None, precision: str | None = None) -> bool:
        """Use the papers' toy example ``key`` (``core.toys``) with ``params`` over its defaults,
        in ``precision`` (default: the session's). A toy already contains its planted outliers:
        the corruption is not applied (and its panel is disabled) until an image set is chosen
        again."""
        tspec = TOYS.get(key)
        if tspec is None:
            self.show_error(f"Data problem: unknown toy example {key!r}")
            return False
        values = {**tspec.defaults(), **(params or {})}
        spec = DataSpec(TOY, key, size=self.size_option, options=values, precision=precision or self.precision)
        outcome, value = self.data_jobs.call(spec.load, f"Building the toy {key}")     # in spec.precision
        if outcome == "superseded":
            return False
        if outcome != "ok":
            text = _load_error(value) if outcome == "error" else f"Toy {key} cancelled"
            self.show_error(text + (f" — kept: {self.data.description}" if self.data else ""))
            if self.session.data.kind == TOY and self.session.data.name == key:
                self.data_panel.show_toy(key, self.toy_params)
            return False
        self.imageset = None
        self.session.set_data(spec)
        self.data_panel.show_toy(key, values)
        self.data_panel.show_toy_data(value)
        self.data_panel.show_precision(spec.precision)
        self._hand_over(value)
        self.status.emit(f"Toy example: {value.description}")
        return True

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
