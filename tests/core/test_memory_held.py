"""What a column holds between steps (issue 13, memory): a snapshot of an NMF state reads the
rows of WH it shows and sums the relative error block by block, so the newest state of an NMF
column keeps no (n, d) product; the values are those of the whole product."""
from __future__ import annotations

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, metrics
from robust_subspace_lab.core.session import CorruptionSpec, DataSpec, Run, prepare
from robust_subspace_lab.core.views import REL_ERROR, relative_error, snapshot


@pytest.mark.parametrize("key", ["nmf", "tc-nmf", "l1-nmf"])
@pytest.mark.parametrize("corruption", ["dot_images", "rectangles"])
def test_an_nmf_snapshot_leaves_the_product_lazy_and_matches_the_whole_product(key, corruption):
    data = prepare(DataSpec("builtin", "faces", size=(24, 24), precision="single"), CorruptionSpec(corruption))
    run = Run(key, {})
    run.start(data)
    run.step(2)
    state = run.history.last
    assert state.fitted_is_lazy
    snap = snapshot(state, data, clustering=False)
    assert state.fitted_is_lazy                                   # nothing of (n, d) kept
    before = run.history.nbytes
    WH = np.asarray(state.coefficients) @ np.asarray(state.components)       # the whole product
    keep = ~data.added
    expected = metrics.relative_error(np.asarray(data.X_clean[keep], dtype=float), WH[keep])
    assert relative_error(state, data) == pytest.approx(expected, rel=1e-10)
    assert snap.metrics[REL_ERROR] == pytest.approx(100 * expected, rel=1e-10)
    rows = snap.rows[:, 2].reshape(len(snap.samples), -1)         # the reconstructions shown
    np.testing.assert_allclose(rows, WH[snap.samples], rtol=1e-10, atol=1e-9)
    assert state.fitted_is_lazy and run.history.nbytes == before
    # reading fitted computes and keeps it (the product the views no longer ask for)
    np.testing.assert_allclose(state.fitted, WH, rtol=1e-10, atol=1e-9)
    assert not state.fitted_is_lazy


def test_relative_error_of_a_non_nmf_state_is_its_reconstruction_s():
    data = prepare(DataSpec("builtin", "faces", size=(20, 20)), CorruptionSpec("dot_images"))
    est = catalogue.create("pca")
    state = est.start(data.X)
    keep = ~data.added
    rec = state.training_reconstruction(data.X)
    assert relative_error(state, data) == pytest.approx(metrics.relative_error(data.X_clean[keep], rec[keep]), rel=1e-12)


def test_residual_norms_of_float32_data_make_no_float64_copy_of_it():
    import tracemalloc
    rng = np.random.default_rng(0)
    X_clean = rng.uniform(0, 255, (3000, 4096)).astype(np.float32)          # 98 MB in float64
    X = X_clean.copy()
    X[::7] += 40
    W = np.linalg.qr(rng.standard_normal((4096, 10)))[0].T
    centre = X_clean.mean(axis=0, dtype=np.float64)
    tracemalloc.start()
    try:
        out = metrics.projection_residual_norms(W, X, X_clean, centre)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 30 * 2 ** 20, peak / 2 ** 20                     # blocks of 8 MB, not 2 × 98 MB
    X64, C64 = X.astype(np.float64), X_clean.astype(np.float64)
    expected = np.linalg.norm((C64 - centre) - ((X64 - centre) @ W.T) @ W, axis=1)
    np.testing.assert_allclose(out, expected, rtol=1e-9)


def test_greedy_runs_on_the_same_data_share_one_centred_copy_and_float32_is_centred_at_once():
    import tracemalloc
    data = prepare(DataSpec("builtin", "digits", size=(32, 32), precision="single"), CorruptionSpec("dot_images"))
    runs = [Run(key, {}) for key in ("pca-l1", "spca-rsvd", "rspca")]
    for run in runs:
        run.start(data)
        run.step(1)
    X0s = [run.history.last._ctx[0].X for run in runs]
    assert X0s[0].dtype == np.float64 and all(X0 is X0s[0] for X0 in X0s)
    # the same numbers as the float64 data (float32 to float64 is exact)
    X64 = data.X.astype(np.float64)
    np.testing.assert_array_equal(X0s[0], X64 - X64.mean(axis=0))
    again = catalogue.create("pca-l1")
    tracemalloc.start()
    try:
        state = again.start(data.X)        # shares the centred copy the runs hold: nothing new
        held_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert state._ctx[0].X is X0s[0] and held_peak < X64.nbytes / 4, held_peak
    a, b = catalogue.create("pca-l1").start(data.X), catalogue.create("pca-l1").start(X64)
    np.testing.assert_array_equal(catalogue.create("pca-l1").step(a).components,
                                  catalogue.create("pca-l1").step(b).components)
