"""Checking a session file's content, field by field, before anything is rebuilt from it.

:func:`core.session.storage.read_session_file` gives plain data (bounded in size); this module
checks that data as the app will use it, and every problem is a
:class:`~core.session.storage.SessionFileError` naming the field (``session.runs[0].iteration``,
``session.data.size``, ``session.regression.scope``, ``sweep``): types (an integer is an integer, not ``1e300`` or ``true``),
ranges (an iteration count up to :data:`MAX_ITERATION`), sizes (lists, strings, nesting), every
number finite (``Infinity``, ``1e999``) and every integer of a sane magnitude (``10**400``),
method parameters through their :class:`~core.params.ParamSpec`. The checked session is then
read by :meth:`core.session.Session.from_dict`, the one reader of a session's plain data.

The app's payload (see :mod:`app.session_io`) is ``{"session": Session.to_dict(),
"folder_hash"?, "folder_unhashed"?, "sweep"?, "sweep_spec"?}``: the session holds the data, the
corruption, the regression tab's data choice and every run (the subspace columns left to
right, the regression tab's run) with its method, parameters and iteration. Files written
before this carry a ``"columns"`` list besides, which repeated the subspace runs: it is checked
as plain data and otherwise ignored.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from .. import catalogue
from ..datasets import MAX_SIDE
from ..errors import DataError, ParameterError
from . import choice as _choice
from .run import REGRESSION, SUBSPACE, validated
from .session import FORMAT_VERSION, Session
from .spec import DATA_KINDS, PRECISION_CHOICES, CorruptionSpec, DOUBLE
from .storage import SessionFileError

__all__ = ["MAX_ITERATION", "MAX_COLUMNS", "MAX_ROWS", "MAX_DEPTH", "Opened", "check_payload", "check_plain"]

#: the largest iteration count a column may be stepped to on opening
MAX_ITERATION = 1_000_000
#: the most method columns a session may hold (and at most one regression run besides)
MAX_COLUMNS = 64
#: the most sweep result rows a session may hold
MAX_ROWS = 200_000
#: the deepest nesting of lists and mappings accepted anywhere in the file
MAX_DEPTH = 24
#: the longest string accepted (a folder path, a method key, a row's text)
MAX_TEXT = 4096
#: integers beyond ±2**63 are refused wherever they are (no field needs them)
_INT_LIMIT = 2 ** 63


@dataclass(frozen=True)
class Opened:
    """A checked payload: what a window is rebuilt from (``session``: its runs have no states
    yet; each one's :attr:`~core.session.Run.saved_iteration` says how far it had got)."""

    session: Session
    folder_hash: str | None
    sweep: tuple[dict, ...]
    sweep_spec: dict | None


class _Bad(Exception):
    def __init__(self, where: str, problem: str):
        super().__init__(f"{where}: {problem}")


def check_plain(value: Any, where: str = "session", depth: int = 0) -> None:
    """Walk plain data (as :func:`json.loads` gives it): every float finite, every integer within
    ±2**63, every string at most :data:`MAX_TEXT` long, nesting at most :data:`MAX_DEPTH`.
    Raises ``_Bad`` naming the first offending field."""
    if depth > MAX_DEPTH:
        raise _Bad(where, f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not -_INT_LIMIT < value < _INT_LIMIT:
            raise _Bad(where, f"an integer of {len(str(abs(value)))} digits is out of range")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise _Bad(where, f"{value!r} is not a finite number")
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise _Bad(where, f"a text of {len(value):,} characters is too long")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_plain(v, f"{where}.{k}"[:200], depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_plain(v, f"{where}[{i}]", depth + 1)
    else:
        raise _Bad(where, f"a {type(value).__name__} is not plain data")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(where, f"must be an integer, got {value!r}"[:160])
    if not low <= value <= high:
        raise _Bad(where, f"must be in [{low}, {high:,}], got {value!r}"[:160])
    return value


def _typed(value: Any, kind: type, where: str, what: str):
    if not isinstance(value, kind):
        raise _Bad(where, f"must be {what}, got {type(value).__name__} {value!r}"[:160])
    return value


def _list(value: Any, where: str, most: int) -> list:
    _typed(value, list, where, "a list")
    if len(value) > most:
        raise _Bad(where, f"holds {len(value):,} entries, more than {most:,}")
    return value


def _data(d: Any) -> None:
    where = "session.data"
    _typed(d, dict, where, "a mapping")
    kind = d.get("kind", "builtin")
    if kind not in DATA_KINDS:
        raise _Bad(f"{where}.kind", f"must be one of {', '.join(DATA_KINDS)}, got {kind!r}"[:160])
    _typed(d.get("name", "faces"), str, f"{where}.name", "a text")
    size = d.get("size")
    if size is not None:
        _list(size, f"{where}.size", 2)
        if len(size) != 2:
            raise _Bad(f"{where}.size", f"must be [height, width], got {size!r}")
        for i, v in enumerate(size):
            _int(v, f"{where}.size[{i}]", 1, MAX_SIDE)
    _typed(d.get("options") or {}, dict, f"{where}.options", "a mapping")
    precision = d.get("precision") or DOUBLE
    if precision not in PRECISION_CHOICES:
        raise _Bad(f"{where}.precision", f"must be one of {', '.join(PRECISION_CHOICES)}, got {precision!r}"[:160])


def _corruption(d: Any) -> None:
    where = "session.corruption"
    _typed(d, dict, where, "a mapping")
    key = d.get("key")
    if key is not None and not isinstance(key, str):
        raise _Bad(f"{where}.key", f"must be a text, got {key!r}"[:160])
    _typed(d.get("params") or {}, dict, f"{where}.params", "a mapping")
    try:
        CorruptionSpec.from_dict(d).validated()
    except ParameterError as exc:
        raise _Bad(where, str(exc)) from None


def _regression(d: Any) -> None:
    """The regression tab's data choice (:class:`core.session.choice.DataChoice`)."""
    where = "session.regression"
    _typed(d, dict, where, "a mapping")
    source = d.get("source", _choice.SYNTHETIC)
    if not isinstance(source, str) or source not in (*_choice.SOURCES, _choice.FOLDER):
        raise _Bad(f"{where}.source", f"must be one of {', '.join((*_choice.SOURCES, _choice.FOLDER))}, "
                                      f"got {source!r}"[:160])
    options = _typed(d.get("options") or {}, dict, f"{where}.options", "a mapping")
    for spec in _choice.OPTION_SPECS[source]:
        if spec.name in options:
            try:
                spec.validate(options[spec.name])
            except ParameterError as exc:
                raise _Bad(f"{where}.options.{spec.name}", str(exc)) from None
    for name in ("path", "targets_csv"):
        if d.get(name) is not None:
            _typed(d[name], str, f"{where}.{name}", "a text")
    key = _typed(d.get("corruption", "black_square"), str, f"{where}.corruption", "a corruption key")
    params = _typed(d.get("corruption_params") or {}, dict, f"{where}.corruption_params", "a mapping")
    try:
        CorruptionSpec(key, params).validated()
    except ParameterError as exc:
        raise _Bad(f"{where}.corruption", str(exc)) from None
    scope = d.get("scope", "both")
    if not isinstance(scope, str) or scope not in _choice.SCOPES:
        raise _Bad(f"{where}.scope", f"must be one of {', '.join(_choice.SCOPES)}, got {scope!r}"[:160])


def _runs(value: Any) -> None:
    """The runs: each a known method of its task with valid parameters and a sane iteration; one
    subspace run (a method column) at least, at most :data:`MAX_COLUMNS`, and at most one
    regression run."""
    counts = {SUBSPACE: 0, REGRESSION: 0}
    for i, r in enumerate(_list(value, "session.runs", MAX_COLUMNS + 1)):
        where = f"session.runs[{i}]"
        _typed(r, dict, where, "a mapping")
        key = _typed(r.get("method"), str, f"{where}.method", "a method key")
        try:
            info = catalogue.get(key)
        except (KeyError, ValueError, ParameterError) as exc:
            raise _Bad(f"{where}.method", str(exc.args[0] if exc.args else exc)) from None
        if info.task not in counts or r.get("task", info.task) != info.task:
            raise _Bad(f"{where}.method", f"{key!r} is a {info.task} method, not one of a "
                                          f"{r.get('task', 'subspace or regression')!r} run"[:160])
        params = _typed(r.get("params") or {}, dict, f"{where}.params", "a mapping")
        try:
            validated(info, params)
        except ParameterError as exc:
            raise _Bad(f"{where}.params", str(exc)) from None
        _int(r.get("iteration", -1), f"{where}.iteration", -1, MAX_ITERATION)
        counts[info.task] += 1
    if not counts[SUBSPACE]:
        raise _Bad("session.runs", "the session holds no method column")
    if counts[SUBSPACE] > MAX_COLUMNS:
        raise _Bad("session.runs", f"holds {counts[SUBSPACE]} method columns, more than {MAX_COLUMNS}")
    if counts[REGRESSION] > 1:
        raise _Bad("session.runs", f"holds {counts[REGRESSION]} regression runs; the regression tab has one")


def check_payload(payload: Mapping[str, Any], name: str) -> Opened:
    """The checked content of the session file ``name`` (its plain data ``payload``).

    Raises :class:`SessionFileError` ``"<name> is damaged: <field>: <problem>"``."""
    try:
        check_plain(payload)
        sess = _typed(payload.get("session"), dict, "session", "a mapping")
        if sess.get("version") != FORMAT_VERSION:
            raise _Bad("session.version", f"this version reads session format {FORMAT_VERSION}, "
                                          f"got {sess.get('version')!r}"[:160])
        _data(sess.get("data") or {})
        _corruption(sess.get("corruption") or {})
        _regression(sess.get("regression") or {})
        _runs(sess.get("runs"))
        folder_hash = payload.get("folder_hash")
        if folder_hash is not None:
            _typed(folder_hash, str, "folder_hash", "a text")
        rows = payload.get("sweep") or []
        for i, row in enumerate(_list(rows, "sweep", MAX_ROWS)):
            _typed(row, dict, f"sweep[{i}]", "a mapping (one result row)")
        spec = payload.get("sweep_spec")
        if spec is not None:
            _typed(spec, dict, "sweep_spec", "a mapping")
        session = Session.from_dict(sess)
    except _Bad as exc:
        raise SessionFileError(f"{name} is damaged: {exc}") from None
    except (ParameterError, DataError) as exc:
        raise SessionFileError(f"{name} is damaged: {exc}") from None
    return Opened(session=session, folder_hash=folder_hash, sweep=tuple(rows), sweep_spec=spec)
