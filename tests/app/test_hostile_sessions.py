"""Sessions in the window against hostile folders and files (issue 29): saving a folder session
whose folder holds an undecodable name, a FIFO and an unreadable file succeeds and says what it
could not hash; every save failure is shown; two windows never share an autosave; a damaged file
changes nothing and the command line says why without a traceback."""
from __future__ import annotations

import errno
import json
import os
import zipfile

import numpy as np
import pytest
from PIL import Image

from robust_subspace_lab.core.session import storage

posix = pytest.mark.skipif(os.name == "nt", reason="POSIX names, FIFOs and locks")


def _folder(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for i in range(8):
        Image.fromarray(rng.integers(0, 256, size=(16, 16), dtype=np.uint8)).save(folder / f"{i}.png")
    return folder


@posix
def test_a_hostile_folder_session_saves_says_what_it_skipped_and_reopens(make_window, qtbot, tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    Image.fromarray(np.full((16, 16), 80, np.uint8)).save(os.fsdecode(os.fsencode(folder) + b"/\xff.png"))
    os.mkfifo(folder / "pipe.png")
    (folder / "locked.png").write_bytes(b"x")
    real_open = os.open

    def deny(path, *args, **kw):
        if os.fspath(path).endswith("locked.png"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kw)
    monkeypatch.setattr(os, "open", deny)
    win = make_window(methods=("pca",), folder=str(folder))
    assert win.session.data.kind == "folder" and len(win.subspace.data.X) == 9       # the undecodable name loads
    path = tmp_path / "s.rsl"
    assert win.save_session(path)
    assert win.session_box.isVisible()
    text = win.session_box.text()
    assert "could not be hashed" in text and "locked.png" in text and "pipe.png" in text
    payload, _ = storage.read_session_file(path)
    assert {n for n, _ in payload["folder_unhashed"]} == {"locked.png", "pipe.png"}

    other = make_window(methods=("pca-gm",), size=(16, 16))
    assert other.open_session(path), other.session_error
    qtbot.waitUntil(lambda: not other.busy, timeout=15000)
    assert other.session.data.name == str(folder) and len(other.subspace.data.X) == 9


def test_autosave_and_save_failures_are_shown_in_a_box(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("ROBUST_SUBSPACE_LAB_AUTOSAVE", str(tmp_path / "state" / "autosave.rsl"))
    win = make_window(methods=("pca",), size=(16, 16), autosave=True)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    win.autosave_slot.path = blocker / "autosave.rsl"
    assert not win.autosave()
    assert win.session_box.isVisible() and "Autosave failed" in win.session_box.text()
    first = win.session_box
    assert not win.autosave() and win.session_box is first               # the same failure: no new box
    assert "Autosave failed" in win.statusBar().currentMessage()
    assert not win.save_session(blocker / "s.rsl")                       # File ▸ Save session too
    assert win.session_box.isVisible() and "could not save" in win.session_box.text()


@posix
def test_two_windows_never_offer_or_delete_each_others_autosave(make_window, qtbot, tmp_path, monkeypatch):
    base = tmp_path / "state" / "autosave.rsl"
    monkeypatch.setenv("ROBUST_SUBSPACE_LAB_AUTOSAVE", str(base))
    first = make_window(methods=("pca",), size=(16, 16), autosave=True)
    first.subspace.columns[0].runner.step(1)
    qtbot.waitUntil(lambda: not first.busy, timeout=15000)
    assert first.autosave() and first.autosave_slot.path.is_file()
    second = make_window(methods=("pca-gm",), size=(16, 16), autosave=True)
    assert second.recover_box is None                            # the first one's is live
    assert second.autosave_slot.path != first.autosave_slot.path
    assert second.autosave() and second.autosave_slot.path.is_file()
    own = second.autosave_slot.path
    second.close()                                               # a clean exit removes its own only
    assert first.autosave_slot.path.is_file() and not own.exists()


def _damaged(tmp_path, mutate):
    from robust_subspace_lab.core.session import Session
    saved = Session()
    saved.add_run("pca")
    payload = {"session": saved.to_dict()}
    mutate(payload)
    path = tmp_path / "bad.rsl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("session.json", json.dumps({"format": storage.FORMAT, "version": 1, "session": payload}))
    return path


_DAMAGES = [
    (lambda p: p.__setitem__("sweep", 5), "sweep"),
    (lambda p: p.__setitem__("sweep", "abc"), "sweep"),
    (lambda p: p.__setitem__("sweep_spec", {"data": {}, "corruption": {}, "methods": 3}), "sweep_spec"),
    (lambda p: p["session"]["runs"][0].__setitem__("iteration", 1e300), "session.runs[0].iteration"),
]


def test_a_damaged_session_changes_nothing_and_names_the_field(make_window, tmp_path):
    win = make_window(methods=("pca-gm",), size=(16, 16))
    before = (json.dumps(win.session.to_dict(), sort_keys=True), [c.key for c in win.subspace.columns], win.subspace.data)
    for mutate, field in _DAMAGES:
        assert not win.open_session(_damaged(tmp_path, mutate), interactive=False)
        assert field in win.session_error
        assert (json.dumps(win.session.to_dict(), sort_keys=True), [c.key for c in win.subspace.columns], win.subspace.data) == before


def test_the_command_line_names_the_field_without_a_traceback(tmp_path, capsys):
    from robust_subspace_lab.app.__main__ import main

    path = _damaged(tmp_path, lambda p: p["session"]["runs"][0].__setitem__("iteration", 10 ** 400))
    code = main(["--session", str(path), "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code != 0 and "session.runs[0].iteration" in err and "Traceback" not in err
