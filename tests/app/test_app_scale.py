"""The app on a large folder (issue 12, point 7) and the BLAS thread policy (point 6), at a small
size: the data are held once, a folder opens through the background loader with progress, and
the running columns get the thread count of core.threads' policy (as threadpoolctl reports it)."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from robust_subspace_lab.core import threads


@pytest.fixture
def folder(tmp_path):
    """1,000 grey PNGs of 32 × 32 (smooth blobs at random places, so that PCA has structure)."""
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[:32, :32]
    root = tmp_path / "images"
    root.mkdir()
    for i in range(1000):
        cy, cx = rng.uniform(8, 24, size=2)
        img = 255 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * rng.uniform(3, 6) ** 2))
        Image.fromarray(img.astype(np.uint8)).save(root / f"img{i:04d}.png")
    return root


def _array_bytes(obj) -> int:
    """Bytes of the arrays a state holds in fields of its own."""
    return sum(v.nbytes for v in vars(obj).values() if isinstance(v, np.ndarray)) if hasattr(obj, "__dict__") \
        else sum(getattr(obj, f).nbytes for f in obj.__dataclass_fields__
                 if isinstance(getattr(obj, f), np.ndarray))


def test_folder_loads_in_background_and_the_data_are_held_once(make_window, qtbot, folder):
    win = make_window(methods=("pca", "pca-gm"))
    reports = []
    win.data_jobs.progress.connect(lambda done, total, what: reports.append((done, total, what)))
    assert win.subspace.open_folder(str(folder))
    qtbot.waitUntil(lambda: all(c.runner.states for c in win.subspace.columns) and not win.busy, timeout=60000)
    # through the data job, which reported its progress over the files
    assert any(what == "reading files" and total == 1000 for _, total, what in reports)
    assert max(done for done, _, what in reports if what == "reading files") == 1000
    data = win.subspace.data
    assert data.X.shape == (1000, 32 * 32) and len(win.subspace.imageset) == 1000
    # one array for the loaded images and the clean data they were corrupted from
    assert np.shares_memory(win.subspace.imageset.images, data.X_clean)
    assert not win.subspace.imageset.images.flags.writeable
    for col in win.subspace.columns:
        assert col.runner.data is data                      # every column runs on the same data
        assert np.shares_memory(col.runner.data.X, data.X)
    win.step_all(2)
    # (PCA is solved at iteration 0 and does not count on; PCA-GM steps)
    qtbot.waitUntil(lambda: win.subspace.columns[1].runner.iteration >= 2 and not win.busy, timeout=60000)
    for col in win.subspace.columns:
        for state in col.runner.states:                     # no state keeps a copy of the data
            assert _array_bytes(state) < data.X.nbytes / 10
    # corrupting again keeps the images once (the new clean data)
    assert win.subspace.set_corruption("salt_pepper", {"fraction": 0.1})
    assert win.subspace.data is not data and np.shares_memory(win.subspace.imageset.images, win.subspace.data.X_clean)


def test_running_columns_get_the_policys_threads(make_window, qtbot, monkeypatch):
    """Two running columns share the cores, one running column gets them all, none: one thread.
    (Cores pretended to be 4 and the size rule lowered, so that any machine and the built-in
    faces show the policy.)"""
    monkeypatch.setattr(threads.RUNNING, "cores", lambda: 4)
    monkeypatch.setattr(threads, "THREADED_MIN_ENTRIES", 0)
    before = threads.current_blas_threads()
    win = make_window(methods=("pca-gm", "rpca-om"), speed="1 it/s")
    for col in win.subspace.columns:
        col.runner.set_params({"tol": 1e-12, "max_iter": 1000})
    qtbot.waitUntil(lambda: not win.busy, timeout=30000)
    # (a solver's own one-thread block may briefly hold OpenBLAS when the count changes; the
    # policy is re-applied before every step, so each count is waited for, not read at once)
    def shows(running: int, n_threads: int) -> bool:
        return threads.RUNNING.count == running and threads.current_blas_threads() == n_threads

    try:
        win.run_all()
        qtbot.waitUntil(lambda: shows(2, 2), timeout=30000)           # shared
        win.subspace.columns[0].runner.pause()
        qtbot.waitUntil(lambda: shows(1, 4), timeout=30000)           # all cores for one
        win.pause_all()
        qtbot.waitUntil(lambda: shows(0, 1), timeout=30000)           # none running
    finally:
        win.pause_all()
        qtbot.waitUntil(lambda: threads.RUNNING.count == 0, timeout=30000)
        threads.set_blas_threads(before)
