"""The papers' toy generators (core.toys): paper 000 Figs. 1–2, paper 002 §3.1 and eq. (15),
paper 003 Fig. 4."""
import numpy as np
import pytest

from robust_subspace_lab.core import toys
from robust_subspace_lab.core.params import HasParams
from robust_subspace_lab.core.corruption import Corrupted
from robust_subspace_lab.core.errors import ParameterError

ALL = {"robust_mean": (110, 2), "line": (110, 2), "sparse_2d": (50, 2), "hastie": (1000, 10),
       "nmf_line": (180, 2)}


PURE_OUTLIERS = {"robust_mean", "line"}


@pytest.mark.parametrize("key", list(ALL))
def test_toys_seeded_shapes_flags(key):
    a, b, c = toys.make_toy(key, seed=3), toys.make_toy(key, seed=3), toys.make_toy(key, seed=4)
    assert isinstance(a, Corrupted)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)
    n, d = ALL[key]
    assert a.X.shape == a.X_clean.shape == a.mask.shape == (n, d)
    assert a.shape == (1, d) and a.labels is None and a.description
    assert a.outliers.shape == a.added.shape == (n,)
    # pure outliers (no clean version) are marked added, so metrics measure against the inliers
    np.testing.assert_array_equal(a.added, a.outliers if key in PURE_OUTLIERS else False)
    np.testing.assert_array_equal(a.mask.any(axis=1), a.outliers)
    assert a.images.shape == (n, 1, d)


def test_robust_mean_toy():
    """Paper 000 Fig. 1: 100 inliers N(0, 0.5 I), 10 outliers N((5, 5), 0.3 I); X_clean = X."""
    t = toys.robust_mean_toy(seed=0)
    assert t.outliers.tolist() == [False] * 100 + [True] * 10
    np.testing.assert_array_equal(t.X, t.X_clean)
    assert np.all(np.abs(t.X[:100].mean(axis=0)) < 0.25)
    assert np.all(np.abs(t.X[100:].mean(axis=0) - 5) < 0.6)
    assert 0.3 < t.X[:100].var(axis=0).mean() < 0.7


def test_line_toy():
    """Paper 000 Fig. 2: y = x + ε with sd 0.5 (100 inliers) and 3 (10 outliers)."""
    t = toys.line_toy(seed=0)
    r = t.X[:, 1] - t.X[:, 0]
    assert 0.35 < r[:100].std() < 0.65 and r[100:].std() > 1.5
    assert t.outliers.sum() == 10 and t.mask[:, 0].sum() == 0


def test_sparse_2d_toy():
    """Paper 002 §3.1: x = −2.4..2.5 step 0.1, outliers at x = 1.3 and 1.5 with y = outlier_value;
    X_clean holds the draws before the overwrite."""
    t = toys.sparse_2d_toy(seed=0, outlier_value=6.5)
    np.testing.assert_allclose(t.X[:, 0], np.round(np.arange(-2.4, 2.55, 0.1), 10), atol=1e-12)
    assert np.flatnonzero(t.outliers).tolist() == [37, 39]
    np.testing.assert_allclose(t.X[[37, 39], 0], [1.3, 1.5])
    np.testing.assert_array_equal(t.X[[37, 39], 1], 6.5)
    assert np.all(np.abs(t.X_clean[[37, 39], 1]) < 3)
    np.testing.assert_array_equal(t.X[~t.outliers], t.X_clean[~t.outliers])
    assert np.isclose(np.abs(t.X[:, 0]).sum(), 62.5)


def test_hastie_correlation_structure():
    """Paper 002 eq. (15): blocks x1–x4 (V1) and x5–x8 (V2) nearly perfectly correlated within,
    ≈ 0 across; x9, x10 (V3) correlate ≈ −0.3 with V1 and ≈ 0.95 with V2."""
    t = toys.hastie_toy(n=5000, seed=1)
    C = np.corrcoef(t.X.T)
    assert C[:4, :4].min() > 0.99 and C[4:8, 4:8].min() > 0.99
    assert np.abs(C[:4, 4:8]).max() < 0.06
    assert np.all(np.abs(C[:4, 8:] + 0.3) < 0.05) and np.all(np.abs(C[4:8, 8:] - 0.95) < 0.03)
    np.testing.assert_allclose(t.X.var(axis=0)[:4], 291, rtol=0.08)
    np.testing.assert_allclose(t.X_clean[:, 0], t.X_clean[:, 3])     # noise-free version
    assert not t.outliers.any()


def test_hastie_outliers():
    """Outlier protocol: the last n_outliers rows have dims 1–8 zero and dims 9–10 ~ N(0, δ²)."""
    t = toys.hastie_toy(n=2000, n_outliers=100, outlier_var=6000.0, seed=0)
    assert np.flatnonzero(t.outliers).tolist() == list(range(1900, 2000))
    np.testing.assert_array_equal(t.X[1900:, :8], 0.0)
    assert 4000 < t.X[1900:, 8:].var() < 8000
    np.testing.assert_array_equal(t.X_clean[1900:], t.X[1900:])
    with pytest.raises(ParameterError, match="n_outliers"):
        toys.hastie_toy(n=10, n_outliers=11)


def test_registry_and_validation():
    assert list(toys.TOYS) == ["robust_mean", "line", "sparse_2d", "hastie", "nmf_line"]
    assert toys.TOYS["nmf_line"].defaults() == {"n_outliers": 80, "direction": "x", "noise": 0.0, "seed": 0}
    for key, spec in toys.TOYS.items():
        assert isinstance(spec, HasParams) and spec.key == key and spec.summary
        assert isinstance(spec.function(**spec.defaults()), Corrupted)
    assert toys.TOYS["hastie"].spec("noise_var").symbol == "σ²"
    with pytest.raises(ParameterError, match="unknown toy"):
        toys.make_toy("nope")
    with pytest.raises(ParameterError, match="seed"):
        toys.make_toy("line", seed=-1)
    with pytest.raises(ParameterError, match="noise_var"):
        toys.make_toy("hastie", noise_var=-1.0)
    with pytest.raises(ParameterError, match="no parameter"):
        toys.make_toy("line", n=5)


# --------------------------------------------------------------------------- paper 003 Fig. 4

def _l2_slope(X):
    """Slope of the rank-1 L2-NMF line: the leading right singular vector (non-negative data)."""
    v = np.linalg.svd(X, full_matrices=False)[2][0]
    return v[1] / v[0]


def _l1_slope(X):
    """Slope s of the rank-1 L1-NMF line through the origin with direction (1, s), s < 1: the
    per-point L1 distance is |y − s x|, so s is the x-weighted median of y/x."""
    r, w = X[:, 1] / X[:, 0], X[:, 0]
    o = np.argsort(r)
    cw = np.cumsum(w[o])
    return r[o][np.searchsorted(cw, cw[-1] / 2)]


def test_nmf_line_clean_points_on_the_line():
    t = toys.make_toy("nmf_line", n_outliers=80, direction="x", seed=0)
    assert t.X.shape == (180, 2) and t.shape == (1, 2) and t.labels is None
    np.testing.assert_allclose(t.X_clean[:, 1], 0.2 * t.X_clean[:, 0], rtol=0, atol=1e-12)
    assert t.X_clean.min() >= 0 and t.X_clean[:, 0].max() <= 10
    assert t.X.min() >= 0                                   # non-negative data for NMF
    assert t.outliers.sum() == 80 and not t.added.any()
    np.testing.assert_array_equal(t.X[~t.mask], t.X_clean[~t.mask])
    assert np.all(t.X[t.mask] > t.X_clean[t.mask] + 14)      # x pushed by 15–35
    assert not t.mask[:, 1].any()


@pytest.mark.parametrize("direction, n, in_x, in_y", [
    ("x", 20, 20, 0), ("y", 40, 0, 40), ("both", 80, 40, 40), ("both", 20, 20, 0), ("x", 0, 0, 0)])
def test_nmf_line_directions(direction, n, in_x, in_y):
    t = toys.nmf_line_toy(n_outliers=n, direction=direction, seed=2)
    assert t.mask[:, 0].sum() == in_x and t.mask[:, 1].sum() == in_y
    assert t.outliers.sum() == n and not (t.mask[:, 0] & t.mask[:, 1]).any()
    assert np.all(t.X[t.mask[:, 1], 1] - t.X_clean[t.mask[:, 1], 1] >= 3)


def test_nmf_line_cases_are_nested():
    """The paper's cases (b) 20 ⊂ (c) 40 ⊂ (d) 80: same clean points, growing outlier sets,
    a point's contaminated value independent of n_outliers."""
    b, c, d = (toys.nmf_line_toy(n_outliers=m, direction="both", seed=5) for m in (20, 40, 80))
    np.testing.assert_array_equal(b.X_clean, d.X_clean)
    assert np.all(b.outliers <= c.outliers) and np.all(c.outliers <= d.outliers)
    np.testing.assert_array_equal(b.X[b.outliers], d.X[b.outliers])
    np.testing.assert_array_equal(c.X[c.outliers], d.X[c.outliers])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nmf_line_breakdown_story_of_the_baselines(seed):
    """Paper 003 §5.1: L2-NMF fails with 20 x-outliers; L1-NMF holds at 20, fails at 40 and 80."""
    clean = toys.nmf_line_toy(n_outliers=0, seed=seed)
    assert _l2_slope(clean.X) == pytest.approx(0.2) and _l1_slope(clean.X) == pytest.approx(0.2)
    x20 = toys.nmf_line_toy(n_outliers=20, direction="x", seed=seed)
    assert abs(_l2_slope(x20.X) - 0.2) > 0.08
    assert _l1_slope(x20.X) == pytest.approx(0.2)
    x40 = toys.nmf_line_toy(n_outliers=40, direction="x", seed=seed)
    both80 = toys.nmf_line_toy(n_outliers=80, direction="both", seed=seed)
    assert abs(_l1_slope(x40.X) - 0.2) > 0.1 and abs(_l1_slope(both80.X) - 0.2) > 0.1


def test_nmf_line_noise_and_validation():
    quiet = toys.nmf_line_toy(n_outliers=20, seed=1)
    noisy = toys.nmf_line_toy(n_outliers=20, noise=0.3, seed=1)
    np.testing.assert_array_equal(noisy.X_clean, quiet.X_clean)
    np.testing.assert_array_equal(noisy.mask, quiet.mask)
    assert noisy.X.min() >= 0
    r = noisy.X[~noisy.outliers] - noisy.X_clean[~noisy.outliers]
    assert 0.2 < r.std() < 0.4
    for params, name in [({"n_outliers": 180}, "n_outliers"), ({"n_outliers": -1}, "n_outliers"),
                         ({"direction": "z"}, "direction"), ({"noise": -0.1}, "noise"),
                         ({"seed": -1}, "seed")]:
        with pytest.raises(ParameterError, match=name):
            toys.make_toy("nmf_line", **params)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_line_toy_metrics_measure_against_the_inliers(seed):
    """The app's metrics on paper 000's line toy compare with the inliers' truth: PCA-GM, which
    follows the inliers, is nearer the clean direction than PCA on every metric (before, the
    outliers were part of the "clean" reference and the metrics could disagree)."""
    from robust_subspace_lab.core import catalogue, views
    data = toys.line_toy(seed=seed)
    snaps = {k: views.snapshot(catalogue.create(k, n_components=1).fit_state(data.X), data)
             for k in ("pca", "pca-gm")}
    for name in ("eq. 14 error (000)", "Σ‖xʳ−xᵒ‖ (001)", "mean angle to clean PCA (°)"):
        assert snaps["pca-gm"].metrics[name] < snaps["pca"].metrics[name], name
    assert snaps["pca-gm"].metrics["weights AUC"] > 0.75     # the outliers get lower weights


def test_every_toy_is_a_registry_entry_named_as_the_others():
    """A toy's registry entry is a ToyInfo (a method's is a MethodInfo, a corruption's a
    CorruptionInfo); its former name ToySpec still gives it, with a DeprecationWarning."""
    import pytest
    for key, info in toys.TOYS.items():
        assert isinstance(info, toys.ToyInfo) and info.key == key and info.validate() == info.defaults()
    with pytest.warns(DeprecationWarning, match="ToyInfo"):
        assert toys.ToySpec is toys.ToyInfo
