"""Saving and opening sessions in the app (File ▸ Save session… / Open session…), and autosave.

The file itself (a versioned ZIP with ``session.json``, written atomically) is
:mod:`core.session.storage`; this module decides what goes in it and how a window is rebuilt
from it:

* ``session`` — :meth:`core.session.Session.to_dict`: the data source, the corruption with its
  seed, the regression tab's data choice, and every run (the subspace columns left to right, the
  regression tab's run) with its method, parameters and iteration;
* ``folder_hash`` — for a folder data source, :func:`core.session.storage.folder_hash` of the
  folder when saved (opening says so when the folder changed since);
* ``sweep`` — the rows of the sweep results shown in the Sweep dialog, if any, and
  ``sweep_spec`` — that sweep (:meth:`core.sweep.Sweep.to_dict`), so that its runs can be reopened.

The states are not stored: opening reads the session with :meth:`core.session.Session.from_dict`
(after :func:`core.session.payload.check_payload` checked every field) and hands it to every
workspace (:meth:`app.workspace.Workspace.restore`): each loads and corrupts the same data (same
seeds), starts each run with the same method and parameters and steps it to its saved iteration;
the solvers are deterministic given their seeds, so the same states (and metrics) come back.

Opening validates everything before changing anything: a file that is not a session, is broken,
or comes from a newer version raises :class:`~core.session.storage.SessionFileError` and the
window stays as it was. The workspaces are restored left to right: when the first one cannot load
its data nothing has changed and the open fails; a later one that cannot keeps what it had and
the open says so (a warning).
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session import FOLDER
from robust_subspace_lab.core.session import storage
from robust_subspace_lab.core.session.payload import Opened, check_payload
from robust_subspace_lab.core.session.storage import SessionFileError

# imported with the window, not on Tools ▸ Sweep…: its modules (core.sweep, sweep_io, the results
# browser) took 17 ms to import, in the same event-loop turn as building and showing the dialog
from .sweep_dialog import SweepDialog
from .sweep_open import open_sweep_run

__all__ = ["SessionActions", "session_payload", "save_session", "read_session", "open_session", "SessionFileError",
           "AUTOSAVE_ENV"]

#: environment variable naming the autosave file (tests); default :func:`storage.autosave_path`
AUTOSAVE_ENV = "ROBUST_SUBSPACE_LAB_AUTOSAVE"


def autosave_file() -> Path:
    """Where autosave writes: ``$ROBUST_SUBSPACE_LAB_AUTOSAVE`` if set, else :func:`storage.autosave_path`."""
    given = os.environ.get(AUTOSAVE_ENV)
    return Path(given) if given else storage.autosave_path()


def session_payload(win) -> dict:
    """The plain data saved for window ``win`` (see the module docstring)."""
    payload = {"session": win.session.to_dict()}
    data = win.session.data
    if data.kind == FOLDER and os.path.isdir(data.name):
        cached = win.folder_hash_cache          # hashed once per data source loaded
        if cached is None or cached[0] is not data:
            unhashed: list[tuple[str, str]] = []
            try:
                digest = storage.folder_hash(data.name, unhashed)
            except OSError as exc:                           # the folder itself cannot be listed
                digest, unhashed = None, [(".", f"folder cannot be read ({exc.strerror or exc})")]
            win.folder_hash_cache = cached = (data, digest, unhashed)
        if cached[1] is not None:
            payload["folder_hash"] = cached[1]
        if cached[2]:
            payload["folder_unhashed"] = [list(item) for item in cached[2]]
    rows = win.sweep_rows()
    if rows:
        payload["sweep"] = _plain(list(rows))
        spec = win.sweep_spec()
        if spec:
            payload["sweep_spec"] = _plain(spec)
    return payload


def _plain(value):
    from robust_subspace_lab.core.session.spec import plain
    return plain(value)


def save_session(win, path) -> Path:
    """Write ``win``'s session to ``path`` atomically. Raises :class:`SessionFileError`."""
    return storage.write_session_file(path, session_payload(win))


def unhashed_note(win) -> str:
    """What the last save could not hash in the session's folder (names and reasons), or ""."""
    cached = win.folder_hash_cache
    if not cached or not cached[2]:
        return ""
    items = cached[2]
    shown = ", ".join(f"{os.fsencode(n).decode('utf-8', 'replace')} ({r})" for n, r in items[:3])
    more = f" and {len(items) - 3} more" if len(items) > 3 else ""
    return (f"{len(items)} file(s) of the folder could not be hashed: {shown}{more}; opening the session "
            "will not notice changes to them")


def read_session(path) -> Opened:
    """The session file ``path``, the whole file checked first
    (:func:`core.session.payload.check_payload`: every field's type, range and size, then
    :meth:`core.session.Session.from_dict`; the saved sweep through
    :meth:`core.sweep.Sweep.from_dict`). Raises :class:`SessionFileError` naming the field."""
    from robust_subspace_lab.core.sweep import Sweep

    payload, _arrays = storage.read_session_file(path)
    name = Path(path).name
    opened = check_payload(payload, name)
    if opened.sweep_spec is not None:
        try:
            Sweep.from_dict(opened.sweep_spec)
        except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as exc:
            raise SessionFileError(f"{name} is damaged: sweep_spec: {exc}") from None
    return opened


def open_session(win, path, timeout: float = 120.0) -> list[str]:
    """Rebuild ``win`` from the session file ``path``: every workspace takes its part
    (:meth:`app.workspace.Workspace.restore`: data and corruption in background jobs, waited
    for; the runs with their methods and parameters, each stepped to its saved iteration).
    Returns warnings (the folder changed since the session was saved; a workspace after the
    first could not load its data).

    Raises :class:`SessionFileError` (nothing changed) when the file cannot be read, or when the
    first workspace cannot load its data (the data shown are kept)."""
    opened = read_session(path)
    saved = opened.session
    warnings = []
    if saved.data.kind == FOLDER:
        if not os.path.isdir(saved.data.name):
            raise SessionFileError(f"the session's folder {saved.data.name} does not exist")
        if opened.folder_hash and storage.folder_hash(saved.data.name) != opened.folder_hash:
            warnings.append(f"the folder {saved.data.name} changed since the session was saved: "
                            "the results may differ")
    with contextlib.ExitStack() as paused:
        for recorder in win.undo_recorders:
            paused.enter_context(recorder.paused())
        for i, ws in enumerate(win.workspaces):
            problem = ws.restore(saved)
            if problem and i == 0:
                raise SessionFileError(f"could not load the session's data: {problem}")
            if problem:
                warnings.append(f"{ws.title}: could not load the session's data ({problem}); kept what it had")
        win.wait_idle(timeout)
    win.undo_stack.clear()                     # the opened session is the new starting point
    win.saved_sweep = (list(opened.sweep), opened.sweep_spec) if opened.sweep else None
    return warnings


class SessionActions:
    """The main window's session, autosave and sweep actions (a mixin of :class:`app.main_window.MainWindow`:
    it uses the window's ``session``, ``workspaces``, ``undo_recorders``, ``statusBar``, ``busy``, ``wait_idle``,
    ``frame_clock``)."""

    # ================================================================== menus
    def _add_session_actions(self, m_file) -> None:
        """File ▸ Open session… (Ctrl+Shift+O) and Save session… (Ctrl+Shift+S)."""
        act = m_file.addAction("Open s&ession…", self.choose_open_session)
        act.setShortcut(QtGui.QKeySequence("Ctrl+Shift+O"))
        act = m_file.addAction("Save sessio&n…", self.choose_save_session)
        act.setShortcut(QtGui.QKeySequence("Ctrl+Shift+S"))
        m_file.addSeparator()

    def _build_edit_menu(self, menu) -> None:
        """Edit ▸ Undo (Ctrl+Z) / Redo (Ctrl+Shift+Z, Ctrl+Y) of :attr:`undo_stack` (see :mod:`app.undo`)."""
        self.undo_stack = QtGui.QUndoStack(self)
        m_edit = menu.addMenu("&Edit")
        self.undo_action = act = self.undo_stack.createUndoAction(self, "&Undo")
        act.setShortcut(QtGui.QKeySequence.Undo)
        m_edit.addAction(act)
        self.redo_action = act = self.undo_stack.createRedoAction(self, "&Redo")
        act.setShortcuts([QtGui.QKeySequence("Ctrl+Shift+Z"), QtGui.QKeySequence("Ctrl+Y")])
        m_edit.addAction(act)

    # ================================================================== autosave timer
    def _start_autosave(self, enabled: bool, period_ms: int) -> None:
        """Claim this window's own autosave slot (:func:`core.session.storage.claim_autosave`:
        a file and a lock no other window takes), offer to recover what a crashed window left
        in it, and autosave ``period_ms`` after the window comes alive (its frame clock starts:
        something runs or changed), again every ``period_ms`` while it stays so. A single-shot
        timer: an idle window has no autosave tick."""
        self.autosave_enabled = enabled
        self._autosaved = None            # the payload last autosaved (JSON text)
        self._autosave_failure = ""       # the last autosave failure shown in a box
        self.recover_box = None
        self.autosave_slot = None
        self._autosave_timer = QtCore.QTimer(self)
        self._autosave_timer.setSingleShot(True)
        self._autosave_timer.setInterval(period_ms)
        self._autosave_timer.timeout.connect(self._autosave_due)
        if enabled:
            try:
                self.autosave_slot = storage.claim_autosave(autosave_file())
            except SessionFileError as exc:
                self.autosave_enabled = False
                self._session_message(f"Autosave is off: {exc}", warning=True)
                return
            self._offer_recovery()
            self._autosave_timer.start()
            self.frame_clock.lively.connect(self._arm_autosave)

    def _arm_autosave(self, lively: bool) -> None:
        if lively and self.autosave_slot is not None and not self._autosave_timer.isActive():
            self._autosave_timer.start()

    def _autosave_due(self) -> None:
        self.autosave()
        if self.autosave_slot is not None and (self.frame_clock.timer.isActive() or self.busy
                                               or self.recover_box is not None):
            self._autosave_timer.start()        # more may change (or it had to wait): a period later

    def _stop_autosave(self) -> None:
        self._autosave_timer.stop()
        if self.autosave_slot is not None:      # a clean exit: nothing to recover
            self.autosave_slot.release(remove=True)
            self.autosave_slot = None

    # ================================================================== sessions
    def save_session(self, path) -> bool:
        """Save the session to ``path`` (see :mod:`app.session_io`); False, with a message, on error."""
        try:
            save_session(self, path)
        except (SessionFileError, OSError, ValueError) as exc:
            self._session_message(str(exc) if isinstance(exc, SessionFileError)
                                  else f"could not save the session to {path}: {exc}")
            return False
        note = unhashed_note(self)
        if note:
            self._session_message(f"Saved the session to {path}; {note}", warning=True)
        else:
            self.statusBar().showMessage(f"Saved the session to {path}", 10000)
        return True

    def open_session(self, path, interactive: bool = True) -> bool:
        """Open the session file ``path``; on error say why (a message box when ``interactive``,
        always the status bar and :attr:`session_error`) and change nothing."""
        self.session_error = ""
        try:
            warnings = open_session(self, path)
        except SessionFileError as exc:
            self.session_error = str(exc)
            self._session_message(str(exc), interactive)
            return False
        if warnings:
            self._session_message("; ".join(warnings), interactive, warning=True)
        else:
            self.statusBar().showMessage(f"Opened the session {path}", 10000)
        self._session_saved_state = None
        return True

    def _session_message(self, text: str, interactive: bool = True, warning: bool = False) -> None:
        self.statusBar().showMessage(text, 15000)
        if interactive:
            icon = QtWidgets.QMessageBox.Warning if warning else QtWidgets.QMessageBox.Critical
            box = QtWidgets.QMessageBox(icon, "Session", text, parent=self)
            box.setModal(False)
            box.show()
            self.session_box = box

    def choose_save_session(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save the session", "session.rsl",
                                                        "Robust Subspace Lab sessions (*.rsl)")
        if path:
            self.save_session(path)

    def choose_open_session(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Open a session", "",
                                                        "Robust Subspace Lab sessions (*.rsl);;All files (*)")
        if path:
            self.open_session(path)

    # ================================================================== autosave
    def autosave(self) -> bool:
        """Save the session to :func:`autosave_file` if it changed since the last
        autosave (atomically). True if written."""
        import json

        slot = self.autosave_slot
        if self._closing or self.busy or slot is None or self.recover_box is not None:
            return False                 # (a crashed window's autosave waits for Recover / Discard)
        try:
            text = json.dumps(session_payload(self), sort_keys=True, default=str)
            if text == self._autosaved:
                return False
            save_session(self, slot.path)
        except (SessionFileError, OSError, ValueError) as exc:
            message = f"Autosave failed: {exc}"
            self.statusBar().showMessage(message, 30000)
            if message != self._autosave_failure:           # a box once per new failure
                self._autosave_failure = message
                self._session_message(message, warning=True)
            return False
        self._autosave_failure = ""
        self._autosaved = text
        return True

    def _offer_recovery(self) -> None:
        """An autosave exists only after a crash (a clean exit removes it): offer to recover it
        (a non-blocking box with Recover / Discard)."""
        slot = self.autosave_slot
        if slot is None or not slot.orphan:
            return
        path = slot.path
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Question, "Recover the last session?",
                                    "Robust Subspace Lab did not close cleanly last time. Recover the "
                                    "session it autosaved?", parent=self)
        self.recover_button = box.addButton("Recover", QtWidgets.QMessageBox.AcceptRole)
        self.discard_button = box.addButton("Discard", QtWidgets.QMessageBox.RejectRole)
        box.setModal(False)
        box.buttonClicked.connect(lambda b, p=path: self._recovery_chosen(b, p))
        box.show()
        self.recover_box = box

    def _recovery_chosen(self, button, path) -> None:
        self.recover_box = None                     # autosave may write to the slot again
        if button is self.recover_button:
            self.open_session(path)
        else:
            path.unlink(missing_ok=True)

    # ================================================================== sweeps
    def open_sweep(self):
        """Tools ▸ Sweep…: the sweep dialog on the current data and corruption, with the
        columns' methods and parameters; a run opened from its results browser opens as a new
        column (:func:`app.sweep_open.open_sweep_run`)."""
        columns = self.session.runs_of("subspace")          # the method columns' runs, left to right
        methods = tuple(dict.fromkeys(r.method for r in columns))
        settings = [(r.method, dict(r.params)) for r in columns]
        dlg = SweepDialog(self.session.data, self.session.corruption, methods=methods, parent=self)
        dlg.set_context(self.session.data, self.session.corruption, methods, settings)
        dlg.browser.open_run_requested.connect(lambda row, d=dlg: self.open_sweep_run(d, row))
        saved = self.saved_sweep
        if saved:                       # the results of an opened session
            from robust_subspace_lab.core.sweep import Sweep

            rows, spec = saved
            try:
                sweep = Sweep.from_dict(spec) if spec else None
            except (KeyError, TypeError, ValueError, ParameterError):
                sweep = None
            dlg.browser.set_rows(rows, sweep=sweep)
        dlg.setModal(False)
        dlg.show()
        self.sweep_dialog = dlg
        return dlg

    def sweep_rows(self) -> list:
        """The rows of the sweep dialog's results (saved with the session), if any."""
        rows = self.sweep_dialog.browser.rows if self.sweep_dialog is not None else None
        saved = self.saved_sweep
        return list(rows or (saved[0] if saved else []))

    def sweep_spec(self) -> dict | None:
        """The sweep behind :meth:`sweep_rows` (plain data), if known."""
        sweep = self.sweep_dialog.browser.sweep if self.sweep_dialog is not None else None
        if sweep is not None:
            return sweep.to_dict()
        saved = self.saved_sweep
        return saved[1] if saved else None

    def open_sweep_run(self, dlg, row: dict):
        """Open the sweep run ``row`` as a new column (:func:`app.sweep_open.open_sweep_run`: its
        method and parameters on its own data and corruption seed; the other columns stay)."""
        return open_sweep_run(self, dlg, row)
