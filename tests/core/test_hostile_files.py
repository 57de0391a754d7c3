"""Hostile folders (issue 29): a FIFO, a device-sized PNG header, undecodable names, unreadable
files and subfolders, a cancel between files. Each gives a clear skip reason or a result in
bounded time; nothing hangs (the FIFO case runs the loader in a thread with a bounded join, so a
regression fails instead of hanging the suite)."""
from __future__ import annotations

import errno
import os
import struct
import threading
import zlib

import numpy as np
import pytest
from PIL import Image

from robust_subspace_lab.core import datasets, image_files, interrupt
from robust_subspace_lab.core.datasets import load_folder
from robust_subspace_lab.core.errors import DataError

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX-only")


def _png(path, value=100, shape=(8, 6)):
    Image.fromarray(np.full(shape, value, dtype=np.uint8)).save(path)


def _png_header_only(path, width, height):
    """A tiny PNG whose header declares ``width`` × ``height`` grey pixels (a few bytes of
    compressed zeros follow: decoding it would need width × height bytes)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idat = zlib.compress(bytes(width + 1) * 64)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def _in_thread(fn, timeout=60):
    """``fn()`` in a daemon thread, joined with a bound: ``("ok", value)`` / ``("error", exc)``,
    or a test failure when it has not returned in time (a hang)."""
    out = {}

    def run():
        try:
            out["ok"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            out["error"] = exc
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"still running after {timeout} s (hangs)"
    return next(iter(out.items()))


@needs_fifo
@pytest.mark.parametrize("recursive", [True, False])
def test_a_fifo_named_like_an_image_is_skipped_and_never_opened(tmp_path, recursive):
    _png(tmp_path / "a.png")
    os.mkfifo(tmp_path / "x.png")
    os.mkfifo(tmp_path / "pipe")                    # no extension either
    kind, data = _in_thread(lambda: load_folder(tmp_path, recursive=recursive))
    assert kind == "ok", data
    assert data.names == ("a.png",)
    skipped = dict(data.skipped)
    assert set(skipped) == {"x.png", "pipe"}
    assert "named pipe" in skipped["x.png"] and "regular file" in skipped["x.png"]


@needs_fifo
def test_a_folder_of_only_a_fifo_is_a_clear_error(tmp_path):
    os.mkfifo(tmp_path / "only.jpg")
    kind, exc = _in_thread(lambda: load_folder(tmp_path))
    assert kind == "error" and isinstance(exc, DataError)
    assert "only.jpg" in str(exc) and "named pipe" in str(exc)


@needs_fifo
def test_a_targets_csv_that_is_a_fifo_is_refused_without_opening(tmp_path):
    _png(tmp_path / "a.png")
    os.mkfifo(tmp_path / "t.csv")
    kind, exc = _in_thread(lambda: load_folder(tmp_path, targets_csv=tmp_path / "t.csv"))
    assert kind == "error" and isinstance(exc, DataError) and "not a regular file" in str(exc)


@needs_fifo
def test_a_file_swapped_for_a_fifo_after_listing_is_refused(tmp_path):
    """The descriptor is checked too (opened non-blocking), not just the listing."""
    os.mkfifo(tmp_path / "late.png")
    kind, exc = _in_thread(lambda: image_files.read_gray(tmp_path / "late.png"))
    assert kind == "error" and isinstance(exc, ValueError) and "named pipe" in str(exc)


def test_an_image_declaring_too_many_pixels_is_refused_before_decoding(tmp_path):
    _png(tmp_path / "ok.png")
    _png_header_only(tmp_path / "bomb.png", 12000, 12000)
    assert (tmp_path / "bomb.png").stat().st_size < 10_000
    kind, data = _in_thread(lambda: load_folder(tmp_path))
    assert kind == "ok", data
    reason = dict(data.skipped)["bomb.png"]
    assert "12000 × 12000" in reason and "limit" in reason
    # beyond Pillow's own bomb limit too (it raises instead of warning): still a skip with a size
    _png_header_only(tmp_path / "bigger.png", 30000, 30000)
    kind, data = _in_thread(lambda: load_folder(tmp_path))
    assert kind == "ok" and "too large" in dict(data.skipped)["bigger.png"]


def test_the_pixel_budget_is_a_parameter_and_applies_to_every_format(tmp_path):
    for ext in (".png", ".bmp", ".tif", ".gif"):
        Image.fromarray(np.full((20, 30), 90, dtype=np.uint8)).save(tmp_path / f"a{ext}")
    assert len(load_folder(tmp_path)) == 4
    with pytest.raises(DataError, match="30 × 20 pixels"):
        load_folder(tmp_path, max_pixels=599)
    assert len(load_folder(tmp_path, max_pixels=600)) == 4


@pytest.mark.skipif(os.name == "nt", reason="POSIX file names are bytes")
def test_names_that_are_not_utf8_load(tmp_path):
    bad = os.fsencode(tmp_path) + b"/\xff\xfe.png"
    _png(os.fsdecode(bad), value=7)
    sub = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(sub)
    _png(os.fsdecode(sub + b"/\x80.png"), value=9)
    data = load_folder(tmp_path)
    assert len(data) == 2
    # the names give the bytes back
    assert sorted(os.fsencode(n) for n in data.names) == [b"caf\xe9/\x80.png", b"\xff\xfe.png"]
    assert data.labels is not None and os.fsencode(data.labels[0]) == b"caf\xe9"


def test_unreadable_files_and_subfolders_are_listed_with_the_reason(tmp_path, monkeypatch):
    """(Simulated denials: the tests may run as root, which reads everything.)"""
    _png(tmp_path / "ok.png")
    _png(tmp_path / "locked.png")
    (tmp_path / "closed").mkdir()
    _png(tmp_path / "closed" / "in.png")
    real_open, real_scandir = os.open, os.scandir

    def deny_open(path, *args, **kw):
        if os.fspath(path).endswith("locked.png"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kw)

    def deny_scandir(path="."):
        if os.fspath(path).endswith("closed"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_scandir(path)
    monkeypatch.setattr(os, "open", deny_open)
    monkeypatch.setattr(os, "scandir", deny_scandir)
    data = load_folder(tmp_path)
    assert data.names == ("ok.png",)
    skipped = dict(data.skipped)
    assert skipped["locked.png"] == "cannot be read (permission denied)"
    assert skipped["closed/"] == "folder cannot be read (permission denied)"


def test_a_broken_link_is_listed(tmp_path):
    _png(tmp_path / "ok.png")
    os.symlink(tmp_path / "gone.png", tmp_path / "link.png")
    assert dict(load_folder(tmp_path).skipped)["link.png"] == "a broken link"


def test_loading_stops_between_files_when_cancelled(tmp_path):
    for i in range(6):
        _png(tmp_path / f"{i}.png", value=i)
    stop = threading.Event()
    seen = []

    def progress(done, total, what):
        seen.append(done)
        if done == 2:
            stop.set()
    with pytest.raises(interrupt.Cancelled):
        with interrupt.cancellable(stop), datasets.reporting(progress):
            load_folder(tmp_path)
    assert max(seen) == 2               # stopped before the fourth file
