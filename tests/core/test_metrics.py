"""The papers' evaluation measures (core.metrics)."""
import numpy as np
import pytest

import itertools
import warnings

from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.metrics import (angles_from_cos_sin, auroc, average_residual_error, classification_accuracy,
                          clustering_accuracy, coefficient_relative_error, err_m, kmeans_labels,
                          mean_absolute_error, mean_angle_error, mean_auroc, min_ndc,
                          normalized_mutual_info, outlier_auc, prediction_relative_error,
                          principal_angles, reconstruction_error, relative_error,
                          root_mean_squared_error, total_reconstruction_error)


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


# --------------------------------------------------------------------------- relative errors (003, 004)

def test_relative_error_known_values_and_invariances(rng):
    X = rng.uniform(0, 255, size=(20, 30))
    assert relative_error(X, X) == 0.0
    assert relative_error(X, np.zeros_like(X)) == pytest.approx(1.0)
    assert relative_error(X, 1.1 * X) == pytest.approx(0.1)
    Y = X + rng.normal(0, 5, X.shape)
    expected = np.sqrt(((X - Y) ** 2).sum() / (X ** 2).sum())
    assert relative_error(X, Y) == pytest.approx(expected)
    assert relative_error(3.0 * X, 3.0 * Y) == pytest.approx(expected)          # scale-free
    assert relative_error(X.T, Y.T) == pytest.approx(expected)                  # orientation-free
    with pytest.raises(DataError, match="shape"):
        relative_error(X, Y[:, :5])
    with pytest.raises(DataError, match="zero"):
        relative_error(np.zeros((2, 2)), np.ones((2, 2)))


def test_regression_relative_errors(rng):
    """Paper 004 Table 1: RAE_T on the first two columns of T (d_y × (d_x + 1)), RAE_Y on Y."""
    T = rng.normal(size=(3, 4))
    T_hat = T.copy()
    T_hat[:, 2:] += 10.0                  # the unscored dim-3 column and the bias
    assert coefficient_relative_error(T, T_hat, columns=[0, 1]) == 0.0
    assert coefficient_relative_error(T, T_hat, columns=slice(0, 2)) == 0.0
    assert coefficient_relative_error(T, T_hat) > 1.0
    T_hat[:, :2] *= 1.05
    assert coefficient_relative_error(T, T_hat, columns=[0, 1]) == pytest.approx(0.05)
    with pytest.raises(DataError, match="columns"):
        coefficient_relative_error(T, T_hat, columns=[])
    Y = rng.normal(size=(100, 3))
    assert prediction_relative_error(Y, Y) == 0.0
    assert prediction_relative_error(Y, 0.8 * Y) == pytest.approx(0.2)


def test_rmse_mae_and_angles():
    y, yh = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 5.0, 2.0])
    assert root_mean_squared_error(y, yh) == pytest.approx(np.sqrt(2.0))
    assert mean_absolute_error(y, yh) == pytest.approx(1.0)
    theta = np.array([-90.0, -45.0, 0.0, 30.0, 90.0])
    Y = np.c_[np.cos(np.radians(theta)), np.sin(np.radians(theta))]
    np.testing.assert_allclose(angles_from_cos_sin(3.0 * Y), theta, atol=1e-12)   # scale-free
    assert mean_angle_error(theta, theta + 10.0) == pytest.approx(10.0)
    assert mean_angle_error([179.0], [-179.0]) == pytest.approx(2.0)            # wraps around
    assert mean_angle_error([np.pi - 0.01], [-np.pi + 0.01], degrees=False) == pytest.approx(0.02)
    with pytest.raises(DataError):
        angles_from_cos_sin(np.ones((3, 3)))


# --------------------------------------------------------------------------- classification, clustering (003)

def test_classification_accuracy():
    assert classification_accuracy([1, 2, 3, 4], [1, 2, 0, 4]) == 0.75
    assert classification_accuracy(np.array(["a", "b"]), np.array(["a", "b"])) == 1.0
    with pytest.raises(DataError):
        classification_accuracy([1, 2], [1])


def test_clustering_accuracy_known_values():
    true = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    perm = np.array([7, 7, 7, 3, 3, 3, 5, 5, 5])             # renamed clusters
    assert clustering_accuracy(true, perm) == 1.0
    assert clustering_accuracy(np.array(["a", "a", "b"]), np.array([1, 1, 0])) == 1.0
    assert clustering_accuracy([0, 0, 0, 1, 1, 1], [1, 1, 0, 0, 0, 0]) == pytest.approx(5 / 6)
    # more clusters than classes, and fewer
    assert clustering_accuracy([0, 0, 1, 1], [0, 1, 2, 2]) == pytest.approx(3 / 4)
    assert clustering_accuracy([0, 1, 2, 2], [0, 0, 1, 1]) == pytest.approx(3 / 4)
    assert clustering_accuracy([0, 1, 2], [0, 0, 0]) == pytest.approx(1 / 3)


def test_clustering_accuracy_matches_brute_force(rng):
    for _ in range(20):
        t = rng.integers(0, 3, 15)
        p = rng.integers(0, 4, 15)
        best = 0
        for perm in itertools.permutations(range(4), 3):     # class c gets cluster perm[c]
            best = max(best, sum(np.sum((t == c) & (p == perm[c])) for c in range(3)))
        assert clustering_accuracy(t, p) == pytest.approx(best / 15)


def _nmi_reference(a, b, norm):
    a, b = np.asarray(a), np.asarray(b)
    n = len(a)
    pa = {x: np.mean(a == x) for x in set(a)}
    pb = {y: np.mean(b == y) for y in set(b)}
    mi = sum(np.mean((a == x) & (b == y)) * np.log(np.mean((a == x) & (b == y)) / (pa[x] * pb[y]))
             for x in pa for y in pb if np.any((a == x) & (b == y)))
    ha = -sum(p * np.log(p) for p in pa.values())
    hb = -sum(p * np.log(p) for p in pb.values())
    return mi / {"arithmetic": (ha + hb) / 2, "max": max(ha, hb)}[norm], n


def test_nmi_known_values_and_properties(rng):
    t = np.repeat([0, 1, 2, 3], 25)
    assert normalized_mutual_info(t, t) == pytest.approx(1.0)
    assert normalized_mutual_info(t, (t + 1) % 4 + 10) == pytest.approx(1.0)     # renamed
    a, b = rng.integers(0, 3, 40), rng.integers(0, 4, 40)
    for norm in ("arithmetic", "max"):
        assert normalized_mutual_info(a, b, norm) == pytest.approx(_nmi_reference(a, b, norm)[0])
    assert normalized_mutual_info(a, b) == pytest.approx(normalized_mutual_info(b, a))  # symmetric
    # normaliser order max >= arithmetic >= geometric >= min gives the reverse order of NMI
    v = [normalized_mutual_info(a, b, m) for m in ("max", "arithmetic", "geometric", "min")]
    assert v == sorted(v) and all(0 <= x <= 1 for x in v)
    # independent labellings: ≈ 0
    big_a, big_b = rng.integers(0, 5, 20000), rng.integers(0, 5, 20000)
    assert normalized_mutual_info(big_a, big_b) < 0.01
    with pytest.raises(ParameterError, match="average_method"):
        normalized_mutual_info(a, b, "median")


def test_nmi_single_cluster_edge_cases():
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # no division by zero
        assert normalized_mutual_info([1, 1, 1], [0, 0, 0]) == 1.0
        for m in ("arithmetic", "max", "min", "geometric"):
            assert normalized_mutual_info([0, 0, 1, 1], [5, 5, 5, 5], m) == 0.0
            assert normalized_mutual_info([5, 5, 5, 5], [0, 1, 2, 3], m) == 0.0


def _blobs(rng, k=4, per=30, spread=0.2):
    centres = rng.uniform(0, 10, size=(k, 3))
    H = np.vstack([c + spread * rng.standard_normal((per, 3)) for c in centres])
    return H, np.repeat(np.arange(k), per)


def _inertia(H, labels):
    return sum(((H[labels == j] - H[labels == j].mean(axis=0)) ** 2).sum() for j in np.unique(labels))


def test_kmeans_labels_recovers_blobs_and_is_deterministic(rng):
    H, truth = _blobs(rng)
    labels = kmeans_labels(H, 4, seed=3)
    assert labels.shape == (120,) and labels.dtype == np.int64
    assert clustering_accuracy(truth, labels) == 1.0
    assert normalized_mutual_info(truth, labels) == pytest.approx(1.0)
    np.testing.assert_array_equal(labels, kmeans_labels(H, 4, seed=3))
    # the best of n_init runs is at least as good as its first run alone
    X = rng.normal(size=(200, 2))
    assert _inertia(X, kmeans_labels(X, 6, seed=1, n_init=10)) <= _inertia(X, kmeans_labels(X, 6, seed=1, n_init=1)) + 1e-9


def test_kmeans_labels_edge_cases(rng):
    H = np.r_[np.zeros((5, 2)), np.ones((5, 2))]
    labels = kmeans_labels(H, 3)                             # 2 distinct rows: 2 clusters
    assert len(np.unique(labels)) == 2 and clustering_accuracy(np.repeat([0, 1], 5), labels) == 1.0
    one = kmeans_labels(rng.normal(size=(10, 2)), 1)
    assert np.all(one == 0)
    assert kmeans_labels(np.r_[rng.normal(0, 0.1, 10), rng.normal(5, 0.1, 10)], 2).shape == (20,)  # 1-D
    for kwargs, name in [({"n_clusters": 0}, "n_clusters"), ({"n_clusters": 11}, "n_clusters"),
                         ({"n_clusters": 2, "n_init": 0}, "n_init"), ({"n_clusters": 2, "seed": -1}, "seed")]:
        with pytest.raises(ParameterError, match=name):
            kmeans_labels(rng.normal(size=(10, 2)), **kwargs)
    with pytest.raises(DataError):
        kmeans_labels(np.full((4, 2), np.nan), 2)


# --------------------------------------------------------------------------- detection scores (004)

def test_auroc_and_min_ndc(rng):
    labels = np.r_[np.ones(10, bool), np.zeros(40, bool)]
    perfect = np.r_[rng.uniform(1, 2, 10), rng.uniform(0, 1, 40)]
    assert auroc(labels, perfect) == 1.0 and auroc(labels, -perfect) == 0.0
    assert auroc(labels, np.zeros(50)) == 0.5
    assert min_ndc(labels, perfect) == 0.0
    assert min_ndc(labels, -perfect) == pytest.approx(1.0)   # best is to detect nothing
    assert np.isnan(auroc(np.zeros(5, bool), np.arange(5.0)))
    # MinNDC against a brute-force scan of the thresholds
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + y + np.round(rng.normal(size=300))    # with ties
    costs = []
    for t in np.r_[np.unique(s), np.inf]:
        p_miss = 1 - np.sum((s >= t) & y) / y.sum()
        p_fa = np.sum((s >= t) & ~y) / (~y).sum()
        costs.append((80 * p_miss * 0.001 + p_fa * 0.999) / min(80 * 0.001, 0.999))
    assert min_ndc(y, s) == pytest.approx(min(costs))
    Y = np.c_[labels, ~labels].astype(float)
    assert mean_auroc(Y, np.c_[perfect, -perfect]) == 1.0
    assert mean_auroc(Y, np.c_[perfect, perfect]) == pytest.approx(0.5)


def test_per_sample_errors_in_blocks_equal_the_formulas():
    """reconstruction_error and total_reconstruction_error sum over blocks of rows (no (n, d)
    copies of the data): same values as the formulas on the whole arrays, with and without
    excluded samples, whatever the block size."""
    from robust_subspace_lab.core import metrics

    rng = np.random.default_rng(5)
    X_clean = rng.uniform(0, 255, size=(53, 40))
    X = X_clean + rng.normal(0, 20, size=X_clean.shape)
    W = np.linalg.qr(rng.normal(size=(40, 3)))[0].T
    keep = rng.random(53) > 0.2
    for include in (None, keep, np.flatnonzero(keep)):
        sel = np.ones(53, bool) if include is None else keep
        m = X_clean[sel].mean(axis=0)
        R = (X_clean[sel] - m) - ((X[sel] - m) @ W.T) @ W
        want = np.linalg.norm(R, axis=1).mean()
        total = np.linalg.norm(X[sel] - X_clean[sel], axis=1).sum()
        for entries in (40, 7 * 40, 10 ** 6):          # one row, 7 rows, all rows per block
            old = metrics.BLOCK_ENTRIES
            metrics.BLOCK_ENTRIES = entries
            try:
                got = metrics.reconstruction_error(W, X, X_clean, include=include)
                got_total = metrics.total_reconstruction_error(X, X_clean, include=include)
            finally:
                metrics.BLOCK_ENTRIES = old
            assert got == pytest.approx(want, rel=1e-12)
            assert got_total == pytest.approx(total, rel=1e-12)


def test_projection_residual_norms_expanded_equal_the_direct_ones():
    """The expanded form (no (n, d) temporaries) gives the direct norms, also for rows that the
    subspace reconstructs exactly (where the expansion cancels) and for non-orthonormal W."""
    from robust_subspace_lab.core.metrics import projection_residual_norms

    rng = np.random.default_rng(8)
    W = rng.normal(size=(4, 30))
    c = rng.uniform(0, 255, size=30)
    X = rng.uniform(0, 255, size=(25, 30))
    X_clean = X + rng.normal(0, 10, size=X.shape)
    Wo = np.linalg.qr(W.T)[0].T
    X_clean[:5] = X[:5] = c + rng.normal(size=(5, 4)) @ Wo       # in the subspace: residual 0
    for comps in (W, Wo):
        direct = np.linalg.norm((X_clean - c) - ((X - c) @ comps.T) @ comps, axis=1)
        got = projection_residual_norms(comps, X, X_clean, c)
        np.testing.assert_allclose(got, direct, rtol=1e-9, atol=1e-9)
    assert np.all(projection_residual_norms(Wo, X, X_clean, c)[:5] < 1e-9)


@pytest.mark.parametrize("key,corruption", [("pca-gm", "rectangles"), ("pcp", "rectangles"),
                                            ("rspca", "dot_images")])
def test_snapshot_errors_from_one_pass_equal_the_metrics(key, corruption):
    """core.views.subspace_errors (one pass, cached clean statistics) gives eq. 14 and paper 001's
    error as the metric functions compute them from the whole arrays."""
    from robust_subspace_lab.core import catalogue, datasets, views
    from robust_subspace_lab.core.corruption import corrupt
    from robust_subspace_lab.core.metrics import reconstruction_error, total_reconstruction_error

    data = corrupt(datasets.lfw_faces(), corruption, seed=1)
    est = catalogue.create(key, n_components=4)
    state = est.step(est.start(data.X))
    eq14, total = views.subspace_errors(state, data)
    keep = ~data.added
    assert eq14 == pytest.approx(reconstruction_error(state.components, data.X, data.X_clean, include=keep),
                                 rel=1e-9)
    rec = state.training_reconstruction(data.X)
    assert total == pytest.approx(total_reconstruction_error(rec, data.X_clean, include=keep), rel=1e-9)


def test_projection_residual_norms_reads_x_only_where_it_differs():
    from robust_subspace_lab.core.metrics import projection_residual_norms

    rng = np.random.default_rng(9)
    X_clean = rng.uniform(0, 255, size=(30, 20))
    X = X_clean.copy()
    X[::4] += rng.normal(0, 30, size=X[::4].shape)
    same = (X == X_clean).all(axis=1)
    W, C = rng.normal(size=(3, 20)), rng.uniform(0, 255, size=(2, 20))
    np.testing.assert_allclose(projection_residual_norms(W, X, X_clean, C, same_rows=same),
                               projection_residual_norms(W, X, X_clean, C), rtol=1e-12)


def test_large_snapshots_do_not_wait_for_the_clean_pca_reference(monkeypatch):
    """While another thread fits the clean-PCA reference, a snapshot of large data goes without
    the angle metric instead of waiting; small data wait (the metric is always there)."""
    from robust_subspace_lab.core import catalogue, datasets, views
    from robust_subspace_lab.core.corruption import corrupt

    data = corrupt(datasets.lfw_faces(), "rectangles", seed=2)
    est = catalogue.create("pca-gm", n_components=3)
    state = est.start(data.X)
    with views._CLEAN_PCA_LOCK:                   # "another thread is fitting"
        monkeypatch.setattr(views, "CLEAN_PCA_WAIT_MAX_ENTRIES", 0)
        assert views.ANGLE not in views.snapshot(state, data).metrics
    assert views.ANGLE in views.snapshot(state, data).metrics
    monkeypatch.setattr(views, "CLEAN_PCA_WAIT_MAX_ENTRIES", data.X.size)
    assert views.ANGLE in views.snapshot(state, data).metrics


def test_effective_n_samples_is_kish_between_one_and_n():
    from robust_subspace_lab.core.metrics import effective_n_samples, weight_share
    rng = np.random.default_rng(3)
    w = rng.random(50)
    assert effective_n_samples(w) == pytest.approx(w.sum() ** 2 / (w ** 2).sum())
    assert effective_n_samples(np.full(7, 0.2)) == pytest.approx(7.0)
    assert effective_n_samples([5.0, 0.0, 0.0]) == pytest.approx(1.0)
    assert effective_n_samples(w * 1e-300) == pytest.approx(effective_n_samples(w))   # scale-free, no underflow
    assert weight_share([1.0, 1.0, 2.0], 1) == pytest.approx(0.5)
    with pytest.raises(DataError):
        effective_n_samples([1.0, -1.0])
