"""scikit-learn conventions without traps (issue 30, point 1), beyond what ``check_estimator``
checks: transform is one continuous function of its input (no special case for the training
matrix), row by row; a fitted estimator holds no training data; ``score`` makes ``GridSearchCV``
work without a scorer; ``random_state``, feature names, float32 and names as in scikit-learn."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import sklearn
from sklearn import covariance, decomposition, discriminant_analysis, linear_model
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline

from robust_subspace_lab.core import catalogue, datasets
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.methods import NMF, PCA, PCAGM, FrobeniusNMF, PlainPCA
from robust_subspace_lab.core.regression import Ridge, RidgeRegression

SUBSPACE = [m.key for m in catalogue.methods("subspace")]


def _create(key, **extra):
    """A catalogue estimator with 2 components (2 non-zero loadings) and short runs: the claims
    below hold for any fitted model, not only for converged ones."""
    info = catalogue.get(key)
    names = info.defaults()
    kw = {k: v for k, v in {"n_components": 2, "k_nonzero": 2, "max_iter": 30}.items() if k in names}
    kw.update(extra)
    return info.create(**kw)


def _fit(est, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # (max_iter ends the short runs)
        return est.fit(X)


@pytest.fixture(scope="module")
def small_faces():
    """40 of the built-in faces, 300 of their 625 pixels (grey levels 0–255, non-negative)."""
    return np.ascontiguousarray(datasets.load_builtin("faces").X[:40, 100:400])


@pytest.mark.parametrize("key", SUBSPACE)
def test_transform_is_continuous_row_by_row_and_dtype_preserving(key, small_faces):
    """Adding 1e-9 to one pixel of the training matrix moves transform by at most 1e-6
    (relative): it was 3–23 % for the convex methods, which returned their fitted coordinates
    for a row equal to a training row. The rows in reverse order give the same rows (TC-NMF's
    differed by 69 %). float32 data give float32 components_, mean_, transform and
    inverse_transform (the NMF family, RSPCA and PCA-L1 returned float64)."""
    X = small_faces
    est = _fit(_create(key), X)
    T = est.transform(X)
    X2 = X.copy()
    X2[7, 123] += 1e-9
    assert np.linalg.norm(est.transform(X2) - T) <= 1e-6 * np.linalg.norm(T)
    np.testing.assert_allclose(est.transform(X[::-1])[::-1], T, rtol=1e-9, atol=1e-9 * np.abs(T).max())

    X32 = X.astype(np.float32)
    e32 = _fit(_create(key), X32)
    T32 = e32.transform(X32)
    back = e32.inverse_transform(T32)
    assert (e32.components_.dtype, e32.mean_.dtype, T32.dtype, back.dtype) == (np.float32,) * 4
    assert np.all(np.isfinite(back))


def test_fitted_estimators_hold_no_training_data():
    """PCA-GM fitted on 2000 × 784 digits pickled to 13 MB (its run's copy of X) for 31 KB of
    components: now under 1 MB, and PCP and TC-NMF (rank 10) to under a tenth of X (84 and
    26 MB on that data before); the unpickled estimator transforms as the original."""
    X = datasets.load_builtin("digits").X[:2000]
    gm = PCAGM(n_components=10).fit(X)
    blob = pickle.dumps(gm)
    assert len(blob) < 1_000_000
    np.testing.assert_array_equal(pickle.loads(blob).transform(X[:50]), gm.transform(X[:50]))
    for key in ("pcp", "tc-nmf"):
        est = _fit(catalogue.create(key, n_components=10, max_iter=5), X[:800])
        assert len(pickle.dumps(est)) < X[:800].nbytes / 10, key


def test_score_is_the_negative_mean_squared_reconstruction_error():
    faces = datasets.load_builtin("faces").X
    est = PCAGM(n_components=5).fit(faces[:70])
    new = faces[70:]
    R = new - est.inverse_transform(est.transform(new))
    assert est.score(new) == pytest.approx(-np.mean(np.sum(R * R, axis=1)), rel=1e-12)


def test_grid_search_needs_no_scorer():
    """GridSearchCV without a scorer uses ``score``: its mean test scores are cross_val_score's,
    its best candidate the highest; over nested PCA subspaces the larger one reconstructs
    held-out faces better, so it is chosen (scoring="explained_variance" gave NaN before)."""
    faces = datasets.load_builtin("faces").X
    search = GridSearchCV(PCAGM(n_components=4), {"p": [0.3, 1.0]}, cv=3).fit(faces)
    means = search.cv_results_["mean_test_score"]
    for p, mean in zip((0.3, 1.0), means):
        assert mean == pytest.approx(np.mean(cross_val_score(PCAGM(n_components=4, p=p), faces, cv=3)))
    assert search.best_index_ == int(np.argmax(means)) and np.all(np.isfinite(means))
    pca = GridSearchCV(PlainPCA(), {"n_components": [1, 6]}, cv=3).fit(faces)
    assert pca.best_params_ == {"n_components": 6}


@pytest.mark.parametrize("key", ["nmf", "rspca", "pca-l1"])
def test_random_state_as_in_scikit_learn(key, small_faces):
    """None, an int, a RandomState and a Generator are accepted (were refused); the same int or
    two equal RandomStates give the same fit; text is refused naming the parameter."""
    X = small_faces

    def comps(rs):
        return _fit(_create(key, random_state=rs), X).components_

    np.testing.assert_array_equal(comps(3), comps(3))
    np.testing.assert_array_equal(comps(np.random.RandomState(5)), comps(np.random.RandomState(5)))
    for rs in (None, np.random.default_rng(0)):
        assert np.all(np.isfinite(comps(rs)))
    with pytest.raises(ParameterError, match="random_state"):
        comps("seven")


def test_feature_names_and_set_output(small_faces):
    X = small_faces
    est = PCAGM(n_components=3).fit(X)
    assert list(est.get_feature_names_out()) == ["pcagm0", "pcagm1", "pcagm2"]
    pipe = make_pipeline(PlainPCA(n_components=2)).fit(X)
    assert list(pipe.get_feature_names_out()) == ["plainpca0", "plainpca1"]
    pcp = _fit(catalogue.create("pcp", max_iter=30), X)
    assert len(pcp.get_feature_names_out()) == pcp.transform(X).shape[1] == pcp.rank_
    pd = pytest.importorskip("pandas")
    out = PCAGM(n_components=2).set_output(transform="pandas").fit(X).transform(X)
    assert isinstance(out, pd.DataFrame) and list(out.columns) == ["pcagm0", "pcagm1"]


def test_names_do_not_shadow_scikit_learn():
    """No catalogue class has the name of an estimator of the scikit-learn modules a notebook
    imports next to ours (PCA, NMF and Ridge did); the former names stay as aliases."""
    theirs = {name for module in (decomposition, linear_model, discriminant_analysis, covariance)
              for name in module.__all__}
    ours = {cls.__name__ for cls in catalogue.ESTIMATORS}
    assert not ours & theirs, ours & theirs
    assert PCA is PlainPCA and NMF is FrobeniusNMF and Ridge is RidgeRegression
    assert sklearn.__version__ >= "1.6"          # the floor pyproject.toml states


def test_image_set_repr_is_one_short_line():
    faces = datasets.load_builtin("faces")
    text = repr(faces)
    assert "\n" not in text and len(text) < 200
    assert "100 images of 25 × 25" in text and "float64" in text and "97 more" in text


def test_missing_entries_message_speaks_of_the_library(small_faces):
    X = small_faces.copy()
    X[0, 0] = np.nan
    with pytest.raises(DataError) as err:
        PCAGM(n_components=2).fit(X)
    assert "NaN" in str(err.value) and "tab" not in str(err.value)
