"""Hostile session files and folders (issue 29): saving never fails on a name or a file it can
skip, keeps the target's permissions and cleans a crashed save's temporary files; reading checks
the whole file, bounded, and names the field of every problem (a SessionFileError, never a
foreign exception)."""
from __future__ import annotations

import copy
import io
import json
import os
import stat
import threading
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from robust_subspace_lab.core.session import Session, storage
from robust_subspace_lab.core.session.payload import MAX_ITERATION, check_payload
from robust_subspace_lab.core.session.spec import DataSpec
from robust_subspace_lab.core.session.storage import SessionFileError

fcntl = pytest.importorskip("fcntl") if os.name != "nt" else None


def _payload() -> dict:
    sess = Session(data=DataSpec(kind="builtin", name="faces", size=(16, 16)))
    sess.add_run("rr", {"lam_scale": 0.5})
    sess.add_run("pca-gm", {"p": 0.5, "n_components": 3})
    sess.add_run("pca", {})
    d = sess.to_dict()
    d["runs"][0]["iteration"] = 2                 # how far each run had got when saved
    d["runs"][1]["iteration"] = 4
    return {"session": d, "sweep": [{"method": "pca", "seed": 0, "reconstruction_error": 1.5}]}


def _run(payload: dict, i: int) -> dict:
    return payload["session"]["runs"][i]


def _raw_file(path, text: str | bytes):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("session.json", text)
    return path


def _wrapped(payload) -> str:
    return json.dumps({"format": storage.FORMAT, "version": 1, "session": payload}, allow_nan=True)


def _open(path):
    payload, _ = storage.read_session_file(path)
    return check_payload(payload, os.path.basename(path))


def test_a_valid_payload_opens_as_the_session_it_saved():
    payload = _payload()
    opened = check_payload(payload, "s.rsl")
    runs = opened.session.runs
    assert [(r.method, r.task, r.saved_iteration) for r in runs] == \
        [("rr", "regression", 2), ("pca-gm", "subspace", 4), ("pca", "subspace", -1)]
    assert runs[1].params["p"] == 0.5 and not runs[1].states          # the states are recomputed
    assert opened.session.data.size == (16, 16) and len(opened.sweep) == 1
    assert opened.session.to_dict() == payload["session"]              # opened and saved again: the same


def test_files_written_with_a_columns_list_open_from_their_session():
    """Files saved before the session held every run also carried ``"columns"``; it repeated the
    subspace runs and is ignored (checked as plain data only)."""
    payload = {**_payload(), "columns": [{"method": "pca", "params": {}, "iteration": 9}]}
    assert [r.method for r in check_payload(payload, "s.rsl").session.runs_of("subspace")] == ["pca-gm", "pca"]


@pytest.mark.parametrize("mutate, field", [
    (lambda p: _run(p, 1).__setitem__("iteration", float("inf")), "session.runs[1].iteration"),
    (lambda p: _run(p, 1).__setitem__("iteration", 1e300), "session.runs[1].iteration"),
    (lambda p: _run(p, 1).__setitem__("iteration", 10 ** 400), "session.runs[1].iteration"),
    (lambda p: _run(p, 1).__setitem__("iteration", MAX_ITERATION + 1), "session.runs[1].iteration"),
    (lambda p: _run(p, 1).__setitem__("iteration", True), "session.runs[1].iteration"),
    (lambda p: _run(p, 1)["params"].__setitem__("n_components", 50.0), "n_components"),
    (lambda p: _run(p, 1)["params"].__setitem__("n_components", 10 ** 30), "n_components"),
    (lambda p: _run(p, 2).__setitem__("method", "nope"), "session.runs[2].method"),
    (lambda p: _run(p, 2).__setitem__("method", ["pca"]), "session.runs[2].method"),
    (lambda p: _run(p, 2).__setitem__("task", "regression"), "session.runs[2].method"),
    (lambda p: _run(p, 0)["params"].__setitem__("lam_scale", -1.0), "session.runs[0].params"),
    (lambda p: _run(p, 0).__setitem__("iteration", -7), "session.runs[0].iteration"),
    (lambda p: p["session"].__setitem__("runs", "abc"), "session.runs"),
    (lambda p: p["session"].__setitem__("runs", [_run(p, 0)]), "session.runs"),     # no method column
    (lambda p: p["session"]["runs"].append(dict(_run(p, 0))), "session.runs"),      # two regression runs
    (lambda p: p["session"].__setitem__("version", 2), "session.version"),
    (lambda p: p["session"]["regression"].__setitem__("source", "nowhere"), "session.regression.source"),
    (lambda p: p["session"]["regression"].__setitem__("scope", 3), "session.regression.scope"),
    (lambda p: p["session"]["regression"].__setitem__("path", ["a"]), "session.regression.path"),
    (lambda p: p["session"]["regression"]["options"].__setitem__("noise", -2.0),
     "session.regression.options.noise"),
    (lambda p: p["session"]["regression"].__setitem__("corruption", "nope"), "session.regression.corruption"),
    (lambda p: p["session"]["regression"].__setitem__("corruption_params", {"share": 5.0}),
     "session.regression.corruption"),
    (lambda p: p.__setitem__("sweep", 5), "sweep"),
    (lambda p: p.__setitem__("sweep", "abc"), "sweep"),
    (lambda p: p.__setitem__("sweep", [1, 2]), "sweep[0]"),
    (lambda p: p.__setitem__("sweep_spec", "abc"), "sweep_spec"),
    (lambda p: p["session"]["data"].__setitem__("size", [16, float("inf")]), "session.data.size"),
    (lambda p: p["session"]["data"].__setitem__("size", [16, 10 ** 400]), "session.data.size"),
    (lambda p: p["session"]["data"].__setitem__("size", "abc"), "session.data.size"),
    (lambda p: p["session"]["data"].__setitem__("kind", 5), "session.data.kind"),
    (lambda p: p["session"]["corruption"].__setitem__("params", {"seed": 1e999}), "session.corruption"),
    (lambda p: p["session"]["corruption"].__setitem__("key", 7), "session.corruption.key"),
    (lambda p: p.__setitem__("folder_hash", 12), "folder_hash"),
    (lambda p: p.__setitem__("session", []), "session"),
])
def test_every_bad_field_is_named(mutate, field, tmp_path):
    payload = _payload()
    mutate(payload)
    path = _raw_file(tmp_path / "bad.rsl", _wrapped(payload))    # Infinity / 1e999 as JSON writes them
    with pytest.raises(SessionFileError, match="bad.rsl is damaged") as err:
        _open(path)
    assert field in str(err.value)


@pytest.mark.parametrize("text", ['{"iteration": Infinity}', '{"x": 1e999}', '{"x": -Infinity}', '{"x": NaN}'])
def test_json_constants_are_refused_wherever_they_are(text, tmp_path):
    payload = json.loads(text)
    with pytest.raises(SessionFileError, match="not a finite number"):
        check_payload({**_payload(), "extra": payload}, "s.rsl")


def test_deep_nesting_is_a_clear_refusal(tmp_path):
    deep = "[" * 200_000 + "]" * 200_000
    path = _raw_file(tmp_path / "deep.rsl", '{"format": "%s", "version": 1, "session": {"x": %s}}'
                     % (storage.FORMAT, deep))
    with pytest.raises(SessionFileError, match="nested"):
        _open(path)
    moderate = "[" * 100 + "]" * 100                  # within the parser, beyond the checker's depth
    payload = {**_payload(), "extra": json.loads(moderate)}
    with pytest.raises(SessionFileError, match="nested"):
        check_payload(payload, "s.rsl")


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    path = tmp_path / "bomb.rsl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("session.json", "w", force_zip64=True) as f:
            block = b" " * (1 << 20)
            for _ in range(storage.MAX_JSON_BYTES // len(block) + 2):
                f.write(block)
    assert path.stat().st_size < 1_000_000
    with pytest.raises(SessionFileError, match="limit"):
        storage.read_session_file(path)


def test_a_fifo_named_like_a_session_is_refused_without_opening(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("POSIX only")
    os.mkfifo(tmp_path / "s.rsl")
    with pytest.raises(SessionFileError, match="named pipe"):
        storage.read_session_file(tmp_path / "s.rsl")


# ------------------------------------------------------------------ property-based: mutated files
def _valid_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("session.json", json.dumps({"format": storage.FORMAT, "version": 1, "session": _payload()}))
    return buf.getvalue()


VALID = _valid_bytes()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])   # examples: the profile's (tests/conftest.py)
@given(cut=st.integers(0, len(VALID)), flips=st.lists(st.tuples(st.integers(0, len(VALID) - 1),
                                                                 st.integers(0, 255)), max_size=4))
def test_truncated_or_flipped_files_are_read_or_refused(tmp_path, cut, flips):
    data = bytearray(VALID[:cut] if cut < len(VALID) else VALID)
    for pos, value in flips:
        if pos < len(data):
            data[pos] = value
    path = tmp_path / "m.rsl"
    path.write_bytes(bytes(data))
    try:
        _open(path)
    except SessionFileError:
        pass


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)
_PATHS = [("session", "runs"), ("session", "runs", 1), ("session", "runs", 1, "iteration"),
          ("session", "runs", 1, "params"), ("session", "runs", 1, "params", "p"), ("session", "runs", 1, "method"),
          ("session", "runs", 0, "task"), ("session", "regression"), ("session", "regression", "options"),
          ("session", "regression", "scope"), ("session",), ("session", "data"),
          ("session", "data", "size"), ("session", "data", "kind"), ("session", "corruption"),
          ("session", "corruption", "params"), ("sweep",), ("sweep", 0), ("sweep_spec",), ("folder_hash",)]


@given(where=st.sampled_from(_PATHS), value=_JSONISH)
def test_any_value_in_any_field_is_accepted_checked_or_refused_by_name(where, value):
    payload = copy.deepcopy(_payload())
    node = payload
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    try:
        opened = check_payload(payload, "s.rsl")
    except SessionFileError as exc:
        assert "s.rsl is damaged" in str(exc)
        return
    assert all(type(r.saved_iteration) is int and -1 <= r.saved_iteration <= MAX_ITERATION
               for r in opened.session.runs)


# ------------------------------------------------------------------ saving
@pytest.mark.skipif(os.name == "nt", reason="POSIX names and modes")
def test_folder_hash_skips_what_it_cannot_read_and_names_it(tmp_path, monkeypatch):
    (tmp_path / "a.png").write_bytes(b"a")
    (tmp_path / os.fsdecode(b"\xff.png")).write_bytes(b"b")
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "locked.png").write_bytes(b"c")
    before = storage.folder_hash(tmp_path)          # (the FIFO is never opened: no hang)
    real_open = os.open

    def deny(path, *args, **kw):
        if os.fspath(path).endswith("locked.png"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kw)
    monkeypatch.setattr(os, "open", deny)
    unhashed = []
    after = storage.folder_hash(tmp_path, unhashed)
    names = dict(unhashed)
    assert "named pipe" in names["pipe.png"] and names["locked.png"] == "cannot be read (permission denied)"
    assert after != before                             # the unreadable file is left out
    monkeypatch.undo()
    (tmp_path / "a.png").write_bytes(b"changed")
    assert storage.folder_hash(tmp_path) != before     # content still counts, undecodable name included


def test_a_folder_hash_is_the_same_as_before_for_plain_names(tmp_path):
    """Sessions saved before keep matching: same bytes hashed in the same order."""
    import hashlib

    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "b.png").write_bytes(b"bb")
    (tmp_path / "a.png").write_bytes(b"a")
    digest = hashlib.sha256()
    for rel, content in (("a.png", b"a"), ("s/b.png", b"bb")):
        digest.update(rel.encode() + b"\0" + content + b"\0")
    assert storage.folder_hash(tmp_path) == digest.hexdigest()


@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_saving_keeps_the_targets_permissions(tmp_path):
    path = tmp_path / "s.rsl"
    storage.write_session_file(path, {"x": 1})
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    for mode in (0o644, 0o640, 0o600):
        path.chmod(mode)
        storage.write_session_file(path, {"x": 2})
        assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(fcntl is None, reason="POSIX locks")
def test_a_crashed_saves_temporary_files_go_on_the_next_save_a_live_ones_stay(tmp_path):
    path = tmp_path / "s.rsl"
    dead = tmp_path / ".s.rsl.abc123.tmp"              # as a kill -9 mid-save leaves it
    dead.write_bytes(b"half")
    live = tmp_path / ".s.rsl.live99.tmp"              # another save in progress holds its lock
    live.write_bytes(b"writing")
    fresh = tmp_path / ".s.rsl.new000.tmp"             # a save that has not locked it yet
    fresh.write_bytes(b"")
    old = dead.stat().st_mtime - 2 * storage.STALE_SECONDS
    os.utime(dead, (old, old))
    os.utime(live, (old, old))
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        storage.write_session_file(path, {"x": 1})
        assert not dead.exists() and live.exists() and fresh.exists()
    finally:
        os.close(fd)
    os.utime(fresh, (old, old))
    storage.write_session_file(path, {"x": 2})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.rsl"]
    assert storage.read_session_file(path)[0] == {"x": 2}


@pytest.mark.skipif(os.name == "nt", reason="POSIX names")
def test_undecodable_folder_names_save_and_reopen(tmp_path):
    folder = tmp_path / os.fsdecode(b"d\xe9j\xe0")
    folder.mkdir()
    spec = DataSpec(kind="folder", name=str(folder))
    payload = _payload()
    payload["session"]["data"] = spec.to_dict()
    storage.write_session_file(tmp_path / "s.rsl", payload)
    opened = _open(tmp_path / "s.rsl")
    assert os.fsencode(opened.session.data.name) == os.fsencode(folder)


def test_relative_folders_are_stored_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert DataSpec(kind="folder", name="faces").name == str(tmp_path / "faces")
    from robust_subspace_lab.core.session.choice import DataChoice
    assert DataChoice(source="folder", path="imgs").path == str(tmp_path / "imgs")


@pytest.mark.skipif(fcntl is None, reason="POSIX locks")
def test_each_window_claims_its_own_autosave_slot(tmp_path):
    base = tmp_path / "autosave.rsl"
    first = storage.claim_autosave(base)
    second = storage.claim_autosave(base)
    assert first.path == base and second.path != base and not first.orphan
    first.path.write_bytes(b"live session")
    third = storage.claim_autosave(base)               # a third window never takes a live one
    assert third.path not in (first.path, second.path)
    second.release()
    third.release()
    # the first window dies (its lock goes with it): its file is an orphan to the next claimer
    first._fd and os.close(first._fd)
    first._fd = None
    again = storage.claim_autosave(base)
    assert again.path == base and again.orphan
    again.release()
    assert not base.exists()


def test_saves_from_two_threads_leave_one_whole_file(tmp_path):
    path = tmp_path / "s.rsl"
    errors = []

    def save(i):
        try:
            for _ in range(5):
                storage.write_session_file(path, {"writer": i})
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
    threads = [threading.Thread(target=save, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert storage.read_session_file(path)[0]["writer"] in (0, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.rsl"]
