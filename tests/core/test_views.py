"""core.views: the display data the app draws, checked against the state and the data."""
import numpy as np

from core.methods import PCAGM
from core.metrics import reconstruction_error
from core.views import default_samples, snapshot


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
