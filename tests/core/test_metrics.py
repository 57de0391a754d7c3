"""The papers' evaluation measures (core.metrics)."""
import numpy as np
import pytest

from core.metrics import (average_residual_error, err_m, outlier_auc, principal_angles,
                          reconstruction_error, total_reconstruction_error)


def test_outlier_auc_properties(rng):
    w = rng.uniform(0.5, 1.0, 50)
    out = np.zeros(50, bool)
    out[:10] = True
    w_perfect = w.copy()
    w_perfect[out] = rng.uniform(0.0, 0.4, 10)       # every outlier below every inlier
    assert outlier_auc(w_perfect, out) == 1.0
    assert outlier_auc(1.0 - w_perfect, out) == 0.0   # the method trusts the outliers most
    assert outlier_auc(np.ones(50), out) == 0.5        # ties count one half
    assert np.isnan(outlier_auc(w, np.zeros(50, bool)))
    # the probabilistic definition, by brute force
    a, b = w[~out], w[out]
    expected = np.mean((b[:, None] < a[None, :]) + 0.5 * (b[:, None] == a[None, :]))
    assert outlier_auc(w, out) == pytest.approx(expected)


def test_are_of_the_vertical_axis_on_paper002_example():
    """002 §5.1: for w = (0, 1), eᵢ = |xᵢ|, so ARE = mean |xᵢ| = 62.5 / 50 = 1.25 exactly,
    whatever the y values."""
    x = np.round(np.arange(-2.4, 2.51, 0.1), 10)
    y = np.random.default_rng(0).normal(0, 0.5, 50)
    assert average_residual_error(np.array([0.0, 1.0]), np.c_[x, y]) == pytest.approx(1.25, abs=1e-12)


def test_err_m_and_eq14_agree_without_mean_and_with_orthonormal_basis(rng):
    """ERR(m) (002 eq. 16) is eq. 14 (000) with the mean set to zero; m selects leading components."""
    X = rng.normal(size=(30, 12))
    Xc = rng.normal(size=(30, 12))
    W = np.linalg.qr(rng.normal(size=(12, 4)))[0].T
    assert err_m(W, X, Xc) == pytest.approx(reconstruction_error(W, X, Xc, clean_mean=np.zeros(12)))
    assert err_m(W, X, Xc, m=2) == pytest.approx(err_m(W[:2], X, Xc))
    keep = np.arange(30) < 20
    assert err_m(W, X, Xc, include=keep) == pytest.approx(err_m(W, X[:20], Xc[:20]))


def test_total_reconstruction_error_sums_unsquared_norms(rng):
    R, C = rng.normal(size=(5, 3)), rng.normal(size=(5, 3))
    assert total_reconstruction_error(R, C) == pytest.approx(sum(np.linalg.norm(R - C, axis=1)))


def test_principal_angles(rng):
    A = np.linalg.qr(rng.normal(size=(8, 3)))[0].T
    assert principal_angles(A, A).max() < 1e-7
    Q = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    assert principal_angles(Q @ A, A).max() < 1e-7       # same subspace, another basis
    B = np.eye(8)[:1]
    C = np.eye(8)[1:2]
    assert principal_angles(B, C)[0] == pytest.approx(np.pi / 2)
