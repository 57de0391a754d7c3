"""core.views: the display data the app draws, checked against the state and the data."""
import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, corruption, datasets
from robust_subspace_lab.core import views as V
from robust_subspace_lab.core.base import State
from robust_subspace_lab.core.methods import PCAGM
from robust_subspace_lab.core.metrics import (clustering_accuracy, kmeans_labels, normalized_mutual_info, outlier_auc,
                          reconstruction_error, relative_error)
from robust_subspace_lab.core.views import default_samples, snapshot


def test_snapshot_matches_state_and_data(with_dummies):
    d = with_dummies
    est = PCAGM(n_components=12, p=0.3)
    state = est.step(est.step(est.start(d.X)))
    snap = snapshot(state, d, n_basis=10)
    h, w = d.shape
    assert snap.iteration == 2 and len(snap.objective_history) == 3
    assert snap.basis.shape == (10, h, w)
    np.testing.assert_allclose(snap.basis.reshape(10, -1), state.components[:10])
    i = snap.samples[0]
    clean, corrupted, rec, res = snap.rows[0]
    np.testing.assert_array_equal(clean.ravel(), d.X_clean[i])
    np.testing.assert_array_equal(corrupted.ravel(), d.X[i])
    np.testing.assert_allclose(rec.ravel(), state.reconstruct(d.X[i:i + 1])[0])
    np.testing.assert_allclose(res, corrupted - rec)
    np.testing.assert_allclose(10 ** snap.log_weights, state.sample_weights)
    assert snap.error == reconstruction_error(state.components, d.X, d.X_clean, include=~d.added)


def test_default_samples_show_corrupted_clean_and_added(with_dummies, occluded):
    s = default_samples(with_dummies, 3)
    assert with_dummies.added[s].any() and (~with_dummies.outliers[s]).any()
    s = default_samples(occluded, 3)
    assert occluded.outliers[s].sum() == 2 and (~occluded.outliers[s]).sum() == 1


# ------------------------------------------------------------------------ robust NMF (paper 003)
@pytest.fixture(scope="module")
def blocks(faces):
    """30 of the 100 faces with a 12×12 block of value 550 (paper 003 §5.2)."""
    return corruption.corrupt(faces, "value_block", fraction=0.3, seed=0)


@pytest.fixture(scope="module")
def tc_states(blocks):
    est = catalogue.create("tc-nmf", n_components=5)
    s0 = est.start(blocks.X)
    s1 = est.step(s0)
    return s0, s1, est.step(s1)


@pytest.fixture(scope="module")
def digits3():
    """30 digits of each of the classes 0, 1, 7 (labelled), uncorrupted."""
    full = datasets.mnist_digits(digits=[0, 1, 7])
    keep = np.concatenate([np.flatnonzero(full.labels == c)[:30] for c in (0, 1, 7)])
    sub = datasets.ImageSet(images=full.images[keep], labels=full.labels[keep],
                            names=tuple(full.names[i] for i in keep), source="digits 0/1/7")
    return corruption.corrupt(sub, "none")


def test_nmf_snapshot_carries_weight_maps_and_truncation(blocks, tc_states):
    state = tc_states[-1]
    h, w = blocks.shape
    samples = np.array([0, 5, 7])
    snap = V.snapshot(state, blocks, samples=samples)
    assert snap.nmf and snap.basis_zero is None           # parts: zeros are ordinary, not marked
    np.testing.assert_array_equal(snap.basis.reshape(5, -1), state.components)
    assert snap.weight_maps.shape == snap.truncated_maps.shape == (3, h, w)
    np.testing.assert_array_equal(snap.weight_maps.reshape(3, -1), state.entry_weights[samples])
    cut = state.details["truncated"][samples]
    np.testing.assert_array_equal(snap.truncated_maps.reshape(3, -1), cut)
    np.testing.assert_array_equal(snap.weight_maps.reshape(3, -1) == 0, cut)   # Q = 0 exactly there
    np.testing.assert_allclose(snap.truncated_share, cut.mean(axis=1))
    np.testing.assert_array_equal(snap.mean_weights, state.details["mean weight"])
    # clean | corrupted | WH | residual
    np.testing.assert_allclose(snap.rows[:, 2].reshape(3, -1), state.fitted[samples])
    np.testing.assert_allclose(snap.rows[:, 3].reshape(3, -1), blocks.X[samples] - state.fitted[samples])
    assert {"γ", "τ", "truncated fraction"} <= set(snap.scalar_history)
    assert len(snap.scalar_history["truncated fraction"]) == 3


def test_nmf_metrics_are_paper_003s(blocks, tc_states):
    state = tc_states[-1]
    snap = V.snapshot(state, blocks)
    rel = relative_error(blocks.X_clean, state.fitted)
    assert snap.relative_error == pytest.approx(rel, rel=1e-12)
    assert snap.metrics[V.REL_ERROR] == pytest.approx(100 * rel, rel=1e-12)
    assert snap.error is None                            # eq. 14 is not defined for NMF parts
    assert snap.metrics["weights AUC"] == outlier_auc(state.sample_weights, blocks.outliers)
    cut, bad = state.details["truncated"], blocks.mask
    assert snap.metrics[V.CAUGHT] == pytest.approx(100 * (cut & bad).sum() / bad.sum())
    assert snap.metrics[V.PRECISION] == pytest.approx(100 * (cut & bad).sum() / cut.sum())
    assert snap.metrics[V.CAUGHT] > 95                    # the 550 blocks are rejected
    assert V.ACC not in snap.metrics and V.NMI not in snap.metrics   # the faces have no labels
    assert not any("eq. 14" in k or "PCA" in k for k in snap.metrics)


def test_methods_without_entry_weights_have_no_maps(blocks):
    for key, nmf in (("nmf", True), ("pca", False)):
        est = catalogue.create(key, n_components=5)
        snap = V.snapshot(est.start(blocks.X), blocks)
        assert snap.nmf is nmf
        assert snap.weight_maps is None and snap.truncated_maps is None
        assert snap.mean_weights is None and snap.truncated_share is None
        assert (snap.relative_error is not None) is nmf
        assert (snap.error is None) is nmf


def test_clustering_scores_are_k_means_on_h(digits3, monkeypatch):
    est = catalogue.create("nmf", n_components=3)
    state = est.start(digits3.X)
    for _ in range(6):
        state = est.step(state)
    snap = V.snapshot(state, digits3)                     # 90 · 3 · 3: cheap, every iteration
    pred = kmeans_labels(state.coefficients, 3, V.KMEANS_SEED)
    assert snap.metrics[V.ACC] == pytest.approx(100 * clustering_accuracy(digits3.labels, pred))
    # one definition of NMI: the view shows exactly the library's default
    assert snap.metrics[V.NMI] == normalized_mutual_info(digits3.labels, pred)
    assert snap.metrics[V.ACC] > 70                       # 0, 1 and 7 separate on H
    # large data: only at finished states (the worker passes clustering=True), cached per state
    fresh = est.step(state)
    monkeypatch.setattr(V, "CLUSTERING_BUDGET", 0)
    later = V.snapshot(fresh, digits3)
    assert later.metrics[V.ACC] is None and later.metrics[V.NMI] is None
    done = V.snapshot(fresh, digits3, clustering=True)
    assert done.metrics[V.ACC] is not None
    assert V.snapshot(fresh, digits3).metrics == done.metrics      # from the cache
    assert V.snapshot(state, digits3, clustering=False).metrics[V.ACC] == snap.metrics[V.ACC]


def test_coefficients_solved_from_fitted_when_absent(tc_states):
    state = tc_states[-1]
    bare = State(method=state.method, iteration=state.iteration, objective=state.objective,
                 objective_history=state.objective_history, components=state.components,
                 mean=state.mean, fitted=state.fitted)
    assert V.is_nmf(bare)
    np.testing.assert_allclose(V.coefficients(bare), state.coefficients, rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(V.coefficients(state), state.coefficients)


def test_unregistered_states_count_as_nmf_by_their_shape(tc_states):
    state = tc_states[-1]
    kw = dict(iteration=0, objective=1.0, objective_history=(1.0,), components=state.components,
              mean=state.mean, fitted=state.fitted)
    assert V.is_nmf(State(method="my NMF", **kw))
    assert not V.is_nmf(State(method="my PCA", **{**kw, "mean": state.mean + 1.0}))
    assert not V.is_nmf(State(method="PCA", **kw))        # registered: its family decides


def test_snapshots_keep_no_per_entry_arrays(blocks, tc_states):
    """A cached snapshot holds the chosen samples' maps, not the whole (n, d) mask."""
    state = tc_states[-1]
    snap = V.snapshot(state, blocks)
    assert "truncated" in state.details and "truncated" not in snap.details
    np.testing.assert_array_equal(snap.details["mean weight"], state.details["mean weight"])
