"""The session file: one ``.rsl`` file that restores a session (format version :data:`FORMAT_VERSION`).

Format
------
A ZIP archive with

* ``session.json``: ``{"format": "robust-subspace-lab session", "version": 1,
  "app_version": "...", "saved_at": "2026-11-23T21:00:00Z", "session": {...}}``, where
  ``session`` is the plain data of :meth:`core.session.Session.to_dict` (data source and its
  options, the corruption with its parameters and seed, every run's method, parameters, seed and
  iteration, the sweep results);
* ``arrays.npz`` (optional): arrays stored with the session, named in ``session.json`` (the
  data when it is embedded rather than referred to by folder path; kept histories).

A folder is stored by its path and a content hash (:func:`folder_hash`, SHA-256 over every
file's relative path and bytes); opening checks the hash and says when the folder changed.

Writing is atomic: the file is written beside its destination under a temporary name, flushed
to disk, then renamed over it, so a crash never leaves half a file. Reading refuses, with a
:class:`SessionFileError` that says why and changes nothing: a file that is not a session file,
a broken one, and one written by a newer format version.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from ..errors import DataError

__all__ = ["FORMAT", "FORMAT_VERSION", "SUFFIX", "SessionFileError", "write_session_file",
           "read_session_file", "folder_hash", "autosave_path"]

FORMAT = "robust-subspace-lab session"
FORMAT_VERSION = 1
SUFFIX = ".rsl"
_JSON, _ARRAYS = "session.json", "arrays.npz"


class SessionFileError(DataError):
    """A session file could not be read (not one, broken, or from a newer version) or written."""


def _app_version() -> str:
    try:
        from importlib.metadata import version

        return version("robust-subspace-lab")
    except Exception:                      # a source checkout that was never installed
        return "unknown"


def write_session_file(path: str | os.PathLike, session: Mapping[str, Any],
                       arrays: Mapping[str, np.ndarray] | None = None) -> Path:
    """Write ``session`` (plain, JSON-ready data) and ``arrays`` to ``path`` atomically.

    Raises :class:`SessionFileError` naming the file when it cannot be written (the previous
    file at ``path``, if any, is left as it was)."""
    path = Path(path)
    header = {"format": FORMAT, "version": FORMAT_VERSION, "app_version": _app_version(),
              "saved_at": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "session": session}
    try:
        text = json.dumps(header, indent=1, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SessionFileError(f"the session cannot be saved as plain data: {exc}") from None
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as raw:
            with zipfile.ZipFile(raw, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(_JSON, text)
                if arrays:
                    buf = io.BytesIO()
                    np.savez_compressed(buf, **{k: np.asarray(v) for k, v in arrays.items()})
                    zf.writestr(_ARRAYS, buf.getvalue())
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise SessionFileError(f"could not save the session to {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return path


def read_session_file(path: str | os.PathLike) -> tuple[dict, dict[str, np.ndarray]]:
    """The session's plain data and its arrays, from ``path``.

    Raises :class:`SessionFileError` with the reason: missing or unreadable file, not a session
    file, broken (damaged archive or JSON), or written by a newer format version than this
    program reads."""
    path = Path(path)
    if not path.is_file():
        raise SessionFileError(f"no session file at {path}")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if _JSON not in names:
                raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file "
                                       f"(it has no {_JSON})")
            header = json.loads(zf.read(_JSON).decode("utf-8"))
            arrays = {}
            if _ARRAYS in names:
                with np.load(io.BytesIO(zf.read(_ARRAYS)), allow_pickle=False) as npz:
                    arrays = {k: npz[k] for k in npz.files}
    except zipfile.BadZipFile:
        raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file, or it is damaged "
                               "(not a readable archive)") from None
    except (ValueError, UnicodeDecodeError, KeyError, OSError) as exc:
        raise SessionFileError(f"{path.name} is damaged and cannot be read: {exc}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file")
    version = header.get("version")
    if not isinstance(version, int) or version < 1:
        raise SessionFileError(f"{path.name} is damaged: its format version {version!r} is not valid")
    if version > FORMAT_VERSION:
        raise SessionFileError(
            f"{path.name} was saved by a newer version of Robust Subspace Lab "
            f"({header.get('app_version', 'unknown')}, session format {version}); this version reads "
            f"format {FORMAT_VERSION} and older. Update the program to open it.")
    session = header.get("session")
    if not isinstance(session, dict):
        raise SessionFileError(f"{path.name} is damaged: it holds no session")
    return session, arrays


def folder_hash(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of a folder's content: every file's path relative to the folder and its
    bytes, in sorted order (hidden files skipped). The same files give the same hash wherever
    the folder is."""
    root = Path(path)
    digest = hashlib.sha256()
    files = sorted(p for p in root.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(root).parts))
    for p in files:
        digest.update(p.relative_to(root).as_posix().encode("utf-8") + b"\0")
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
        digest.update(b"\0")
    return digest.hexdigest()


def autosave_path() -> Path:
    """Where the app autosaves the session for recovery after a crash:
    ``$XDG_STATE_HOME/robust-subspace-lab/autosave.rsl`` (default ``~/.local/state``), or
    ``%LOCALAPPDATA%\\robust-subspace-lab\\autosave.rsl`` on Windows."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    else:
        base = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state"))
    return base / "robust-subspace-lab" / f"autosave{SUFFIX}"
