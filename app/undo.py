"""Undo and redo (Edit ▸ Undo / Redo) for the subspace workspace's changes: a column's method
or parameters, the data source and the corruption.

:class:`UndoRecorder` keeps a :class:`QtGui.QUndoStack`. Each change that took effect pushes a
command holding the old and the new value; undoing (redoing) applies the old (new) value again
through the same request path the controls use (``runner.set_method``, the workspace's
``set_corruption`` / data loading), so the run restarts and the controls show the value, exactly
as if the user had set it. Changes made while a command is applied, or while
:meth:`UndoRecorder.paused` (opening a session), are not recorded.

How changes are seen: the session's observers (:meth:`core.session.Session.subscribe`) for the
data and the corruption (the recorder keeps the last values to know the old one), and for a
column, its runner's ``set_method`` / ``set_params`` wrapped on the instance (the column calls
those when its controls change).
"""
from __future__ import annotations

import contextlib
import weakref

from PySide6 import QtGui

__all__ = ["UndoRecorder", "UNDO_LIMIT"]

#: changes kept on the stack (the oldest are dropped): random use pushed ~20 a minute for as long
#: as the window lived
UNDO_LIMIT = 200


class _Command(QtGui.QUndoCommand):
    """Apply ``apply(old)`` on undo, ``apply(new)`` on redo (not on the push itself: the change
    has already happened)."""

    def __init__(self, recorder: "UndoRecorder", text: str, apply, old, new):
        super().__init__(text)
        self._recorder, self._apply, self.old, self.new = recorder, apply, old, new
        self._pushed = False

    def undo(self) -> None:
        with self._recorder.paused():
            self._apply(self.old)

    def redo(self) -> None:
        if not self._pushed:
            self._pushed = True
            return
        with self._recorder.paused():
            self._apply(self.new)


class UndoRecorder:
    """Records the changes of ``workspace`` (a :class:`app.subspace_workspace.SubspaceWorkspace`)
    on ``stack`` (see the module docstring)."""

    def __init__(self, workspace, stack: QtGui.QUndoStack):
        self.workspace = workspace
        self.stack = stack
        if stack.count() == 0:                 # Qt takes a limit only on an empty stack
            stack.setUndoLimit(UNDO_LIMIT)
        self._paused = 0
        session = workspace.session
        self._data, self._corruption = session.data, session.corruption
        session.subscribe(self._on_session)
        for col in workspace.columns:
            self.track_column(col)
        workspace.column_added.connect(self.track_column)

    @contextlib.contextmanager
    def paused(self):
        """Changes made inside are not recorded (the values seen at the end become the baseline)."""
        self._paused += 1
        try:
            yield
        finally:
            self._paused -= 1
            session = self.workspace.session
            self._data, self._corruption = session.data, session.corruption

    # ------------------------------------------------------------------ data and corruption
    def _on_session(self, what: str) -> None:
        session = self.workspace.session
        if what == "data":
            old, new, self._data = self._data, session.data, session.data
            if not self._paused and old != new:
                what = f"precision {new.precision}" if old == new.with_(precision=old.precision) else f"data {new.name}"
                self.stack.push(_Command(self, what, self._apply_data, old, new))
        elif what == "corruption":
            old, new, self._corruption = self._corruption, session.corruption, session.corruption
            if not self._paused and old != new:
                self.stack.push(_Command(self, f"corruption {new.key}", self._apply_corruption, old, new))

    def _apply_data(self, spec) -> None:
        ws = self.workspace
        if spec.is_toy:
            ws.load_toy(spec.name, dict(spec.options), precision=spec.precision)
        elif ws.session.data.is_toy and spec.with_(size=None) == ws.session.data.with_(size=None):
            ws.session.set_data(spec)
        else:
            ws._load(spec)

    def _apply_corruption(self, spec) -> None:
        self.workspace.set_corruption(spec.key, dict(spec.params))

    # ------------------------------------------------------------------ columns
    def track_column(self, col) -> None:
        """Record the method and parameter changes of column ``col``.

        The commands and the wrappers hold the column and its runner weakly: the undo stack
        outlives removed columns, and a command holding one kept its widgets, states and data
        alive (each preset that removed columns leaked them)."""
        runner = col.runner
        col_ref, runner_ref = weakref.ref(col), weakref.ref(runner)
        cls = type(runner)

        def apply(setting):
            col = col_ref()
            if col is None or col not in self.workspace.columns:   # removed since: nothing to restore
                return
            key, params = setting
            col.runner.set_method(key, dict(params))   # the recorded wrapper; not recorded (paused)
            col._sync_controls()

        def recorded(fn):
            def wrapper(*args, **kwargs):
                runner, col = runner_ref(), col_ref()
                info, params = runner.setting()
                old = (info.key, dict(params))
                ok = fn(runner, *args, **kwargs)
                info, params = runner.setting()
                new = (info.key, dict(params))
                if ok and not self._paused and new != old and col is not None:
                    what = "method" if new[0] != old[0] else "parameters"
                    self.stack.push(_Command(self, f"column {col.index + 1} {what}", apply, old, new))
                return ok
            return wrapper

        runner.set_method = recorded(cls.set_method)
        runner.set_params = recorded(cls.set_params)
