"""Saving and opening sessions in the app (File ▸ Save session… / Open session…), and autosave.

The file itself (a versioned ZIP with ``session.json``, written atomically) is
:mod:`core.session.storage`; this module decides what goes in it and how a window is rebuilt
from it:

* ``session`` — :meth:`core.session.Session.to_dict` (data source, corruption with its seed,
  every run's method, parameters and iteration);
* ``columns`` — the subspace columns left to right: ``{"method", "params", "iteration"}``;
* ``folder_hash`` — for a folder data source, :func:`core.session.storage.folder_hash` of the
  folder when saved (opening says so when the folder changed since);
* ``sweep`` — the rows of the sweep results shown in the Sweep dialog, if any, and
  ``sweep_spec`` — that sweep (:meth:`core.sweep.Sweep.to_dict`), so that its runs can be reopened.

The states are not stored: opening loads and corrupts the same data (same seeds), starts each
column with the same method and parameters and steps it to the saved iteration; the solvers are
deterministic given their seeds, so the same states (and metrics) come back.

Opening validates everything before changing anything: a file that is not a session, is broken,
or comes from a newer version raises :class:`~core.session.storage.SessionFileError` and the
window stays as it was.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.session import FOLDER, TOY, CorruptionSpec, DataSpec
from robust_subspace_lab.core.session import storage
from robust_subspace_lab.core.session.run import validated
from robust_subspace_lab.core.session.storage import SessionFileError

__all__ = ["session_payload", "save_session", "read_session", "open_session", "SessionFileError",
           "AUTOSAVE_ENV"]

#: environment variable naming the autosave file (tests); default :func:`storage.autosave_path`
AUTOSAVE_ENV = "ROBUST_SUBSPACE_LAB_AUTOSAVE"


def autosave_file() -> Path:
    """Where autosave writes: ``$ROBUST_SUBSPACE_LAB_AUTOSAVE`` if set, else :func:`storage.autosave_path`."""
    given = os.environ.get(AUTOSAVE_ENV)
    return Path(given) if given else storage.autosave_path()


def session_payload(win) -> dict:
    """The plain data saved for window ``win`` (see the module docstring)."""
    ws = win.subspace
    payload = {"session": win.session.to_dict(),
               "columns": [{"method": c.runner.setting()[0].key, "params": _plain(c.runner.setting()[1]),
                            "iteration": int(c.runner.iteration)} for c in ws.columns]}
    data = win.session.data
    if data.kind == FOLDER and os.path.isdir(data.name):
        cached = getattr(win, "_folder_hash", None)          # hashed once per data source loaded
        if cached is None or cached[0] is not data:
            win._folder_hash = cached = (data, storage.folder_hash(data.name))
        payload["folder_hash"] = cached[1]
    rows = getattr(win, "sweep_rows", None)
    rows = rows() if callable(rows) else rows
    if rows:
        payload["sweep"] = _plain(list(rows))
        spec = getattr(win, "sweep_spec", None)
        spec = spec() if callable(spec) else spec
        if spec:
            payload["sweep_spec"] = _plain(spec)
    return payload


def _plain(value):
    from robust_subspace_lab.core.session.spec import _plain as plain
    return plain(value)


def save_session(win, path) -> Path:
    """Write ``win``'s session to ``path`` atomically. Raises :class:`SessionFileError`."""
    return storage.write_session_file(path, session_payload(win))


def read_session(path) -> tuple[DataSpec, CorruptionSpec, list[tuple[str, dict, int]], dict]:
    """``(data, corruption, columns, payload)`` from the session file ``path``, every part
    checked (known method keys, valid specs). Raises :class:`SessionFileError` saying why."""
    payload, _arrays = storage.read_session_file(path)
    name = Path(path).name
    try:
        sess = payload["session"]
        data = DataSpec.from_dict(sess.get("data") or {})
        corr = CorruptionSpec.from_dict(sess.get("corruption") or {})
        corr.spec                                  # unknown corruption → ParameterError
        columns = []
        for c in payload.get("columns") or ():
            info = catalogue.get(c["method"])
            if info.task != "subspace":
                raise ParameterError(f"method {c['method']!r} is not a subspace method")
            params = validated(info, dict(c.get("params") or {}))      # ParameterError names a bad value
            columns.append((info.key, params, int(c.get("iteration", -1))))
    except (KeyError, TypeError, AttributeError, ValueError, ParameterError, DataError) as exc:
        raise SessionFileError(f"{name} is damaged: {exc}") from None
    if not columns:
        raise SessionFileError(f"{name} is damaged: it holds no method column")
    return data, corr, columns, payload


def open_session(win, path, timeout: float = 120.0) -> list[str]:
    """Rebuild ``win`` from the session file ``path``: data and corruption (background jobs,
    waited for), the columns with their methods and parameters, each stepped to its saved
    iteration. Returns warnings (e.g. the folder changed since the session was saved).

    Raises :class:`SessionFileError` (nothing changed) when the file cannot be read, or when its
    data cannot be loaded (the data shown are kept)."""
    data, corr, columns, payload = read_session(path)
    warnings = []
    if data.kind == FOLDER:
        if not os.path.isdir(data.name):
            raise SessionFileError(f"the session's folder {data.name} does not exist")
        saved = payload.get("folder_hash")
        if saved and storage.folder_hash(data.name) != saved:
            warnings.append(f"the folder {data.name} changed since the session was saved: "
                            "the results may differ")
    recorder = getattr(win, "undo_recorder", None)
    with recorder.paused() if recorder is not None else contextlib.nullcontext():
        _rebuild(win, data, corr, columns, timeout)
    if recorder is not None:
        recorder.stack.clear()                 # the opened session is the new starting point
    rows = payload.get("sweep")
    win.saved_sweep = (list(rows), payload.get("sweep_spec")) if rows else None
    return warnings


def _rebuild(win, data, corr, columns, timeout) -> None:
    ws = win.subspace
    old_corr = win.session.corruption
    if data.kind == TOY:
        ok = ws.load_toy(data.name, dict(data.options))
        if ok:
            win.session.set_corruption(corr)
            ws.data_panel.show_corruption(corr.key, corr.values())
    else:
        win.session.set_corruption(corr)
        ok = ws._load(data)
        if not ok:
            win.session.set_corruption(old_corr)
    if not ok:
        raise SessionFileError(f"could not load the session's data: {ws.last_error or 'cancelled'}")
    old = list(ws.columns)
    new = [ws.add_column(key, params) for key, params, _ in columns]
    for col in old:
        ws.remove_column(col)
    win.wait_idle(timeout)
    for col, (_, _, iteration) in zip(new, columns):
        if iteration > col.runner.iteration:
            col.follow_live()
            col.runner.step(iteration - max(col.runner.iteration, 0))
    win.wait_idle(timeout)
