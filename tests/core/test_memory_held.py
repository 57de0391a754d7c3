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


@pytest.mark.slow          # large data (~2.3 s each); CI's second run has both
@pytest.mark.parametrize("precision", ["single", "double"])
def test_greedy_runs_on_large_data_hold_no_centred_copy_and_compute_the_same(monkeypatch, precision):
    """The greedy family centres an input whose float64 copy exceeds _COPY_MAX_BYTES
    implicitly: a run holds the input itself, its start allocates a small part of the data's size,
    and its iterates are those of the copied path to round-off."""
    import tracemalloc
    from robust_subspace_lab.core.methods import _greedy
    data = prepare(DataSpec("builtin", "digits", size=(32, 32), precision=precision), CorruptionSpec("dot_images"))
    X = data.X
    params = {"pca-l1": {}, "spca-rsvd": {}, "rspca": {"restarts": 0}, "gpower": {}}
    copied = {}
    for key, extra in params.items():
        est = catalogue.create(key, n_components=3, max_iter=30, **extra)
        state = est.start(X)
        assert state._ctx.run.copied                 # 53 MB in float64: under the default threshold
        for _ in range(12):
            state = est.step(state)
        copied[key] = state
    monkeypatch.setattr(_greedy, "_COPY_MAX_BYTES", 2 ** 20)
    for key, extra in params.items():
        est = catalogue.create(key, n_components=3, max_iter=30, **extra)
        tracemalloc.start()
        try:
            state = est.start(X)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        run = state._ctx.run
        assert not run.copied and np.shares_memory(run.X, X)      # the input itself, not a copy
        # the copy was X.size * 8 bytes (53 MB); the PCA start's d × d scatter and eigensolver are not the data's size
        assert peak < X.size * 8 / 4 + 3 * X.shape[1] ** 2 * 8, (key, peak / 2 ** 20)
        for _ in range(12):
            state = est.step(state)
        ref = copied[key]
        assert state.iteration == ref.iteration and state.scalars["component"] == ref.scalars["component"]
        np.testing.assert_allclose(state.components, ref.components, rtol=0, atol=1e-9, err_msg=key)
        np.testing.assert_allclose(state.objective_history, ref.objective_history, rtol=1e-10, err_msg=key)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_greedy_implicit_centring_gives_the_products_with_the_centred_data(monkeypatch, dtype):
    from robust_subspace_lab.core.methods import _greedy
    rng = np.random.default_rng(3)
    X = (rng.random((301, 17)) * 255).astype(dtype)
    monkeypatch.setattr(_greedy, "_COPY_MAX_BYTES", 0)
    monkeypatch.setattr(_greedy, "_BLOCK_BYTES", 8 * 17 * 40)     # 40 rows a block: 8 blocks, the last short
    mean, Xi, copied = _greedy._run_data(X, True)
    run = _greedy._Run(X=Xi, mean=mean, cov=None, const={}, copied=copied)
    X0 = X.astype(np.float64) - X.astype(np.float64).mean(axis=0)
    assert not copied and len(list(run.blocks())) == 8
    np.testing.assert_array_equal(np.vstack([B.copy() for _, B in run.blocks()]), X0)
    v, V, y = rng.standard_normal(17), rng.standard_normal((17, 3)), rng.standard_normal(301)
    np.testing.assert_allclose(run.product(v), X0 @ v, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(run.product(V), X0 @ V, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(run.t_product(y), X0.T @ y, rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(run.rows([5, 200]), X0[[5, 200]])
    W = np.linalg.qr(rng.standard_normal((17, 2)))[0].T                  # two orthonormal rows
    M = np.eye(17) - W.T @ W
    assert run.deflated_sq_norm(W) == pytest.approx(np.linalg.norm(X0 @ M) ** 2, rel=1e-12)
