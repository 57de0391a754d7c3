"""core.memory.fresh: arrays of the data's size mapped in small pages (issue 32, linear cost), and
the methods that write into it give the same results as with numpy's own arrays."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from robust_subspace_lab.core import memory
from robust_subspace_lab.core.methods import PCP, L21NMF, L1NMF, TruncatedCauchyNMF
from robust_subspace_lab.core.methods.nmf_weights import row_blocks


@pytest.mark.parametrize("dtype", [np.float64, np.float32, bool])
def test_fresh_is_zeros_writable_and_a_plain_array(dtype):
    shape = (600, 1000)                      # 4.8 MB in float64: above FRESH_MIN_BYTES
    a = memory.fresh(shape, dtype)
    assert a.shape == shape and a.dtype == np.dtype(dtype) and a.flags.c_contiguous and a.flags.writeable
    assert not a.any()
    a[1, 2] = 1
    b = pickle.loads(pickle.dumps(a))
    assert b.dtype == a.dtype and np.array_equal(a, b)
    c = copy.deepcopy(a)
    c[1, 2] = 0
    assert a[1, 2] == 1                      # a copy owns its memory
    a.flags.writeable = False                # a state can freeze it
    with pytest.raises(ValueError):
        a[0, 0] = 1


def test_fresh_small_and_empty_are_numpy_zeros():
    assert memory.fresh((3, 4)).base is None
    assert memory.fresh((0, 5)).shape == (0, 5)
    assert memory.fresh_like(np.ones((2, 3), dtype=np.float32)).dtype == np.float32


def _data(n=240, d=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 8)) @ rng.random((8, d)) * 20.0
    X[:: 10] = rng.random((n // 10, d)) * 255.0
    return X


def _run(est, X, steps):
    s = est.start(X)
    for _ in range(steps):
        s = est.step(s)
    return s


@pytest.mark.parametrize("make", [lambda: PCP(n_components=8), lambda: PCP(center=True),
                                  lambda: L1NMF(n_components=5, random_state=0),
                                  lambda: TruncatedCauchyNMF(n_components=5, random_state=0)])
def test_fresh_memory_changes_no_result(monkeypatch, make):
    """The same run with every array of core.memory.fresh (threshold 0) and with none of them
    (numpy's own arrays): the same iterates, bit for bit, and float32 stays float32."""
    for dtype in (np.float64, np.float32):
        X = _data().astype(dtype)
        monkeypatch.setattr(memory, "FRESH_MIN_BYTES", 1 << 62)
        a = _run(make(), X, 3)
        monkeypatch.setattr(memory, "FRESH_MIN_BYTES", 0)
        b = _run(make(), X, 3)
        assert a.objective == b.objective
        assert np.array_equal(a.components, b.components)
        assert np.array_equal(np.asarray(a.fitted), np.asarray(b.fitted))
        if a.sparse_part is not None:
            assert np.array_equal(a.sparse_part, b.sparse_part) and b.sparse_part.dtype == X.dtype
        assert b.components.dtype == X.dtype


def test_l21_nmf_row_norms_by_blocks_match_the_residual(monkeypatch):
    """L2,1-NMF forms only the residual's row norms, by blocks of rows: the same as ‖x_i − h_iW‖
    from the whole residual, for data split into many blocks."""
    from robust_subspace_lab.core.methods import nmf_weights

    monkeypatch.setattr(nmf_weights, "DIRECT_MAX", 1000)
    monkeypatch.setattr(nmf_weights, "BLOCK", 3 * 300)       # 3 rows per block
    X = _data()
    assert len(list(row_blocks(*X.shape))) > 10
    s = _run(L21NMF(n_components=5, random_state=0), X, 2)
    H, W = s.coefficients, s.components
    r = np.linalg.norm(X - H @ W, axis=1)
    np.testing.assert_allclose(s.details["residual norm"], r, rtol=1e-10, atol=1e-9 * r.max())
    assert s.objective == pytest.approx(r.sum(), rel=1e-10)
