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
import stat
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from .. import image_files
from ..errors import DataError

try:                                   # POSIX: locks that die with their process
    import fcntl
except ImportError:                    # pragma: no cover - Windows
    fcntl = None                       # type: ignore[assignment]

__all__ = ["FORMAT", "FORMAT_VERSION", "SUFFIX", "SessionFileError", "write_session_file",
           "read_session_file", "folder_hash", "autosave_path", "AutosaveSlot", "claim_autosave",
           "MAX_JSON_BYTES", "MAX_ARRAY_BYTES"]

FORMAT = "robust-subspace-lab session"
FORMAT_VERSION = 1
SUFFIX = ".rsl"
_JSON, _ARRAYS = "session.json", "arrays.npz"
#: the largest ``session.json`` read (decompressed): a session with a 10,000-run sweep is ~10 MB
MAX_JSON_BYTES = 64 * 2 ** 20
#: the largest total of the arrays read (decompressed)
MAX_ARRAY_BYTES = 2 * 2 ** 30


class SessionFileError(DataError):
    """A session file could not be read (not one, broken, or from a newer version) or written."""


def _app_version() -> str:
    try:
        from importlib.metadata import version

        return version("robust-subspace-lab")
    except Exception:                      # a source checkout that was never installed
        return "unknown"


def _new_file_mode() -> int:
    """The permissions a new file gets here (0666 less the process's umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _lock(fd: int) -> bool:
    """Take an exclusive lock on ``fd`` without waiting; True if taken (always True without
    ``fcntl``). The lock ends with the descriptor or the process."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


#: a temporary file younger than this (seconds) is never taken for a crashed save's: a save in
#: progress creates its file a moment before it locks it
STALE_SECONDS = 30.0


def _remove_stale_temps(path: Path) -> None:
    """Remove the temporary files a crashed save of ``path`` left beside it (``.<name>.*.tmp``):
    a save in progress holds a lock on its temporary file (and a fresh one is left alone), so
    only dead saves' files go."""
    import time

    try:
        now = time.time()
        candidates = [p for p in path.parent.glob(f".{path.name}.*.tmp")
                      if p.is_file() and now - p.stat().st_mtime > STALE_SECONDS]
    except OSError:
        return
    for tmp in candidates:
        try:
            fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            if _lock(fd):
                tmp.unlink(missing_ok=True)
        except OSError:
            pass
        finally:
            os.close(fd)


def write_session_file(path: str | os.PathLike, session: Mapping[str, Any],
                       arrays: Mapping[str, np.ndarray] | None = None) -> Path:
    """Write ``session`` (plain, JSON-ready data) and ``arrays`` to ``path`` atomically.

    The file keeps the permissions of the file it replaces (a new file gets the umask's). The
    temporary file is locked while it is written; temporary files left by a crashed save of the
    same path (unlocked) are removed first.

    Raises :class:`SessionFileError` naming the file when it cannot be written (the previous
    file at ``path``, if any, is left as it was)."""
    path = Path(os.path.abspath(os.path.expanduser(path)))
    header = {"format": FORMAT, "version": FORMAT_VERSION, "app_version": _app_version(),
              "saved_at": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "session": session}
    try:
        text = json.dumps(header, indent=1, allow_nan=False)     # ASCII: undecodable names escaped
    except (TypeError, ValueError, RecursionError) as exc:
        raise SessionFileError(f"the session cannot be saved as plain data: {exc}") from None
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(path)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = _new_file_mode()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        _lock(fd)
        with os.fdopen(fd, "wb") as raw:
            with zipfile.ZipFile(raw, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(_JSON, text)
                if arrays:
                    buf = io.BytesIO()
                    np.savez_compressed(buf, **{k: np.asarray(v) for k, v in arrays.items()})  # type: ignore[arg-type]
                    zf.writestr(_ARRAYS, buf.getvalue())
            raw.flush()
            os.fchmod(raw.fileno(), mode) if hasattr(os, "fchmod") else os.chmod(tmp, mode)
            os.fsync(raw.fileno())
            os.replace(tmp, path)          # while still locked: no cleaner takes it meanwhile
        tmp = None
    except OSError as exc:
        raise SessionFileError(f"could not save the session to {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    return path


def _member(zf: zipfile.ZipFile, name: str, limit: int, path: Path) -> bytes:
    """The decompressed bytes of ``name``, refused when its declared size is over ``limit``
    (zipfile stops at the declared size, so a lying header cannot give more)."""
    size = zf.getinfo(name).file_size
    if size > limit:
        raise SessionFileError(f"{path.name} is damaged or hostile: its {name} would take {size:,} bytes "
                               f"decompressed, over the limit of {limit:,}")
    return zf.read(name)


def _arrays(blob: bytes, path: Path) -> dict[str, np.ndarray]:
    """The arrays of ``arrays.npz``, each member's decompressed size checked before it is read."""
    out = {}
    with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
        total = sum(info.file_size for info in npz.zip.infolist())
        if total > MAX_ARRAY_BYTES:
            raise SessionFileError(f"{path.name} is damaged or hostile: its arrays would take {total:,} "
                                   f"bytes, over the limit of {MAX_ARRAY_BYTES:,}")
        for k in npz.files:
            out[k] = npz[k]
    return out


def read_session_file(path: str | os.PathLike) -> tuple[dict, dict[str, np.ndarray]]:
    """The session's plain data and its arrays, from ``path``.

    Bounded: ``session.json`` is read only up to :data:`MAX_JSON_BYTES` decompressed and the
    arrays up to :data:`MAX_ARRAY_BYTES` (a zip bomb is refused before it is inflated), numbers
    longer than Python's integer digit limit and nesting deeper than the parser's are refused.
    The content's fields are the caller's to check (:mod:`core.session.payload`).

    Raises :class:`SessionFileError` with the reason: missing or unreadable file, not a session
    file, broken (damaged archive or JSON), too large, or written by a newer format version
    than this program reads."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        raise SessionFileError(f"no session file at {path}") from None
    if not stat.S_ISREG(mode):
        raise SessionFileError(f"{path} is not a session file ({image_files.kind_of(mode)})")
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if _JSON not in names:
                raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file "
                                       f"(it has no {_JSON})")
            header = json.loads(_member(zf, _JSON, MAX_JSON_BYTES, path).decode("utf-8"))
            arrays = {}
            if _ARRAYS in names:
                arrays = _arrays(_member(zf, _ARRAYS, MAX_ARRAY_BYTES, path), path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error):
        raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file, or it is damaged "
                               "(not a readable archive)") from None
    except RecursionError:
        raise SessionFileError(f"{path.name} is damaged: its data are nested too deeply") from None
    except (ValueError, UnicodeDecodeError, KeyError, OSError, NotImplementedError, RuntimeError) as exc:
        # (RuntimeError: zipfile's "encrypted, password required" for a flipped flag bit)
        if isinstance(exc, SessionFileError):
            raise
        raise SessionFileError(f"{path.name} is damaged and cannot be read: {str(exc)[:200]}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SessionFileError(f"{path.name} is not a Robust Subspace Lab session file")
    version = header.get("version")
    if type(version) is not int or version < 1:
        raise SessionFileError(f"{path.name} is damaged: its format version {version!r} is not valid")
    if version > FORMAT_VERSION:
        raise SessionFileError(
            f"{path.name} was saved by a newer version of Robust Subspace Lab "
            f"({str(header.get('app_version', 'unknown'))[:40]}, session format {version}); this version "
            f"reads format {FORMAT_VERSION} and older. Update the program to open it.")
    session = header.get("session")
    if not isinstance(session, dict):
        raise SessionFileError(f"{path.name} is damaged: it holds no session")
    return session, arrays


def folder_hash(path: str | os.PathLike, unhashed: list[tuple[str, str]] | None = None) -> str:
    """SHA-256 (hex) of a folder's content: every regular file's path relative to the folder
    (its bytes, :func:`os.fsencode`: names that are not UTF-8 hash too) and its bytes, in sorted
    order (hidden files and folders skipped). The same files give the same hash wherever the
    folder is.

    Never fails on one entry: named pipes, devices, sockets, broken links, and files and
    subfolders that cannot be read are left out of the hash and appended to ``unhashed`` (if
    given) as ``(relative name, reason)``. Raises :class:`OSError` only when the folder itself
    cannot be listed."""
    root = Path(path)
    files, skipped = image_files.list_files(root, recursive=True)
    digest = hashlib.sha256()
    for parts, p in files:
        trial = digest.copy()              # kept only when the whole file was read
        trial.update(os.fsencode("/".join(parts)) + b"\0")
        try:
            with image_files.open_regular(p) as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    trial.update(chunk)
        except (OSError, ValueError) as exc:
            reason = f"cannot be read ({image_files.os_reason(exc)})" if isinstance(exc, OSError) else str(exc)
            skipped.append(("/".join(parts), reason))
            continue
        trial.update(b"\0")
        digest = trial
    if unhashed is not None:
        unhashed.extend(sorted(skipped))
    return digest.hexdigest()


def autosave_path() -> Path:
    """Where the app autosaves the session for recovery after a crash:
    ``$XDG_STATE_HOME/robust-subspace-lab/autosave.rsl`` (default ``~/.local/state``), or
    ``%LOCALAPPDATA%\\robust-subspace-lab\\autosave.rsl`` on Windows. Each window autosaves to
    a slot of its own beside it (:func:`claim_autosave`)."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    else:
        base = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state"))
    return base / "robust-subspace-lab" / f"autosave{SUFFIX}"


#: the most windows that autosave at once (slots ``autosave.rsl``, ``autosave-1.rsl``, ...)
AUTOSAVE_SLOTS = 32


class AutosaveSlot:
    """One window's autosave file, held by a lock (``<file>.lock``, :func:`fcntl.flock`) for as
    long as the window lives: no other window (process) takes, offers or deletes it. A file found
    in the slot when it is claimed was left by a window that died (``orphan``): offer to recover it.

    Attributes: ``path`` (the autosave file), ``orphan`` (a crashed window's autosave is there)."""

    def __init__(self, path: Path, fd: int | None):
        self.path, self._fd = path, fd
        self.orphan = path.is_file()

    def release(self, remove: bool = True) -> None:
        """Give the slot up (a clean exit): remove the autosave file (``remove``), then the lock."""
        if remove:
            try:
                self.path.unlink(missing_ok=True)
            except OSError:                # an exit never fails on its autosave
                pass
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def claim_autosave(base: str | os.PathLike | None = None) -> AutosaveSlot:
    """The first free autosave slot beside ``base`` (default :func:`autosave_path`): ``base``
    itself, else ``<stem>-1<suffix>``, ``<stem>-2<suffix>``, ... (up to :data:`AUTOSAVE_SLOTS`).
    A slot is free when no living process holds its lock.

    Raises :class:`SessionFileError` when the folder cannot be written or every slot is taken."""
    base = Path(base) if base is not None else autosave_path()
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SessionFileError(f"cannot autosave in {base.parent}: {exc.strerror or exc}") from None
    for i in range(AUTOSAVE_SLOTS):
        path = base if i == 0 else base.with_name(f"{base.stem}-{i}{base.suffix}")
        try:
            fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise SessionFileError(f"cannot autosave in {base.parent}: {exc.strerror or exc}") from None
        if _lock(fd):
            if fcntl is None:              # no locks here: the first slot, as before
                os.close(fd)
                fd = None
            return AutosaveSlot(path, fd)
        os.close(fd)
    raise SessionFileError(f"cannot autosave: {AUTOSAVE_SLOTS} windows are autosaving in {base.parent}")
