"""Tests for core.corruption: reproducibility, masks, flags, counts, parameters and registry."""
from __future__ import annotations

import numpy as np
import pytest

from core.catalogue import ParamSpec
from core.corruption import (CORRUPTIONS, DEFAULT_CORRUPTION, Corrupted, CorruptionSpec,
                             add_dot_images, add_natural_outliers, corrupt, occlude_rectangles,
                             salt_and_pepper)
from core.datasets import ImageSet, lfw_faces, lfw_nonfaces
from core.errors import DataError, ParameterError


def _make_set(n=40, h=12, w=10, labels="str", seed=123):
    rng = np.random.default_rng(seed)
    images = rng.uniform(1.0, 254.0, size=(n, h, w))      # never exactly 0 or 255
    if labels == "str":
        lab = np.array([f"c{i % 3}" for i in range(n)])
    elif labels == "int":
        lab = np.arange(n) % 4
    else:
        lab = None
    return ImageSet(images=images, labels=lab, names=tuple(f"img{i}" for i in range(n)),
                    source="test")


@pytest.fixture
def data():
    return _make_set()


WITHIN = {
    "rectangles_dots": lambda d, seed=0: occlude_rectangles(d, 0.25, (0.3, 0.6), "dots", seed),
    "rectangles_black": lambda d, seed=0: occlude_rectangles(d, 0.5, (0.2, 0.4), "black", seed),
    "rectangles_white": lambda d, seed=0: occlude_rectangles(d, 0.5, (0.5, 0.5), "white", seed),
    "salt_pepper": lambda d, seed=0: salt_and_pepper(d, 0.5, 0.2, seed),
}
APPENDING = {
    "dot_images": lambda d, seed=0: add_dot_images(d, 0.3, seed),
    "natural": lambda d, seed=0: add_natural_outliers(d, lfw_nonfaces(), 0.3, seed),
}
ALL = {**WITHIN, **APPENDING}


def _check_invariants(c: Corrupted, n_in: int, shape):
    n = c.n_samples
    d = shape[0] * shape[1]
    assert c.X.shape == c.X_clean.shape == c.mask.shape == (n, d)
    assert c.X.dtype == np.float64 and c.mask.dtype == bool
    assert c.outliers.shape == c.added.shape == (n,)
    assert c.shape == tuple(shape)
    # the mask marks every change, and nothing changes outside it
    assert np.all(c.mask[c.X != c.X_clean])
    np.testing.assert_array_equal(c.X[~c.mask], c.X_clean[~c.mask])
    np.testing.assert_array_equal(c.outliers, c.mask.any(axis=1))
    assert c.X.min() >= 0 and c.X.max() <= 255
    assert not c.added[:n_in].any()
    assert isinstance(c.description, str) and c.description
    assert c.images.shape == (n, *shape)


@pytest.mark.parametrize("name", list(ALL))
def test_invariants_and_no_input_modification(data, name):
    before_images = data.images.copy()
    before_labels = data.labels.copy()
    c = ALL[name](data)
    np.testing.assert_array_equal(data.images, before_images)
    np.testing.assert_array_equal(data.labels, before_labels)
    _check_invariants(c, len(data), data.shape)
    np.testing.assert_array_equal(c.X_clean[:len(data)], data.X)
    # the result does not share memory with the input
    assert not np.shares_memory(c.X, data.images)
    assert not np.shares_memory(c.X_clean, data.images)
    c.X[:] = -1
    c.X_clean[:] = -1
    np.testing.assert_array_equal(data.images, before_images)


@pytest.mark.parametrize("name", list(ALL))
def test_reproducible_from_seed(data, name):
    a, b, other = ALL[name](data, seed=7), ALL[name](data, seed=7), ALL[name](data, seed=8)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.mask, b.mask)
    np.testing.assert_array_equal(a.outliers, b.outliers)
    assert not np.array_equal(a.X, other.X)


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.25, 0.5, 0.33, 1.0])
def test_rectangles_hit_exactly_round_fraction(data, fraction):
    c = occlude_rectangles(data, fraction=fraction, seed=3)
    assert c.outliers.sum() == round(fraction * len(data))
    assert c.n_samples == len(data) and not c.added.any()


def test_rectangle_geometry(data):
    h, w = data.shape
    c = occlude_rectangles(data, fraction=1.0, size_range=(0.3, 0.6), content="black", seed=1)
    for i in range(len(data)):
        m = c.mask[i].reshape(h, w)
        rows, cols = np.nonzero(m.any(axis=1))[0], np.nonzero(m.any(axis=0))[0]
        # a single filled rectangle
        assert m.sum() == len(rows) * len(cols)
        assert np.all(m[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])
        assert round(0.3 * h) <= len(rows) <= round(0.6 * h)
        assert round(0.3 * w) <= len(cols) <= round(0.6 * w)
        np.testing.assert_array_equal(c.images[i][m], 0.0)


def test_rectangle_content_values(data):
    white = occlude_rectangles(data, fraction=1.0, content="white", seed=0)
    assert np.all(white.X[white.mask] == 255.0)
    dots = occlude_rectangles(data, fraction=1.0, size_range=(0.8, 1.0), content="dots", seed=0)
    vals = dots.X[dots.mask]
    assert set(np.unique(vals)) == {0.0, 255.0}
    assert 0.35 < np.mean(vals == 255.0) < 0.65


def test_quarter_block_of_paper_001(data):
    h, w = data.shape
    c = occlude_rectangles(data, fraction=0.2, size_range=(0.5, 0.5), seed=0)
    assert c.outliers.sum() == 8
    assert np.all(c.mask[c.outliers].sum(axis=1) == (h // 2) * (w // 2))


def test_mask_includes_unchanged_pixels():
    black = ImageSet(images=np.zeros((4, 6, 6)), labels=None, names=("a", "b", "c", "d"), source="t")
    c = occlude_rectangles(black, fraction=1.0, content="black", seed=0)
    np.testing.assert_array_equal(c.X, c.X_clean)
    assert c.mask.any(axis=1).all() and c.outliers.all()


def test_salt_and_pepper(data):
    c = salt_and_pepper(data, fraction=0.5, density=0.3, seed=2)
    assert c.outliers.sum() == round(0.5 * len(data))
    assert set(np.unique(c.X[c.mask])) == {0.0, 255.0}
    frac = c.mask[c.outliers].mean()
    assert 0.2 < frac < 0.4
    full = salt_and_pepper(data, fraction=1.0, density=1.0, seed=2)
    assert full.mask.all()
    none = salt_and_pepper(data, fraction=1.0, density=0.0, seed=2)
    assert not none.mask.any() and not none.outliers.any()
    np.testing.assert_array_equal(none.X, data.X)


@pytest.mark.parametrize("labels, extra", [("str", "outlier"), ("int", -1), (None, None)])
def test_add_dot_images(labels, extra):
    data = _make_set(n=40, labels=labels)
    c = add_dot_images(data, fraction=0.3, seed=4)
    m = round(0.3 * 40)
    assert c.n_samples == 40 + m
    np.testing.assert_array_equal(c.added, [False] * 40 + [True] * m)
    np.testing.assert_array_equal(c.outliers, c.added)
    assert c.mask[40:].all() and not c.mask[:40].any()
    np.testing.assert_array_equal(c.X[:40], data.X)
    np.testing.assert_array_equal(c.X_clean, c.X)
    assert set(np.unique(c.X[40:])) == {0.0, 255.0}
    if labels is None:
        assert c.labels is None
    else:
        assert len(c.labels) == 40 + m
        np.testing.assert_array_equal(c.labels[:40], data.labels)
        assert all(lab == extra for lab in c.labels[40:])
        if labels == "int":
            assert np.issubdtype(c.labels.dtype, np.integer)


def test_add_natural_outliers_resized(data):
    pool = lfw_nonfaces()
    c = add_natural_outliers(data, pool, fraction=0.25, seed=5)
    m = round(0.25 * len(data))
    assert c.n_samples == len(data) + m and c.shape == data.shape
    assert c.added.sum() == m and c.outliers.sum() == m
    np.testing.assert_array_equal(c.X_clean, c.X)
    _check_invariants(c, len(data), data.shape)


def test_add_natural_outliers_drawn_without_replacement():
    faces = lfw_faces()
    pool = lfw_nonfaces()
    c = add_natural_outliers(faces, pool, fraction=1.0, seed=0)
    appended = c.X[100:]
    assert len(np.unique(appended, axis=0)) == 100
    # every appended image is one of the pool's (same shape: no resizing)
    assert {r.tobytes() for r in appended} == {r.tobytes() for r in pool.X}


def test_add_natural_outliers_not_enough():
    data = _make_set(n=40)
    small_pool = _make_set(n=5, labels=None, seed=9)
    with pytest.raises(ParameterError) as info:
        add_natural_outliers(data, small_pool, fraction=0.5, seed=0)
    msg = str(info.value)
    assert "fraction" in msg and "5" in msg


BAD_CALLS = [
    (lambda d: occlude_rectangles(d, fraction=1.5), "fraction"),
    (lambda d: occlude_rectangles(d, fraction=-0.1), "fraction"),
    (lambda d: occlude_rectangles(d, fraction="a lot"), "fraction"),
    (lambda d: occlude_rectangles(d, fraction=float("nan")), "fraction"),
    (lambda d: occlude_rectangles(d, size_range=(0.0, 0.5)), "size_range"),
    (lambda d: occlude_rectangles(d, size_range=(0.6, 0.3)), "size_range"),
    (lambda d: occlude_rectangles(d, size_range=(0.5, 1.2)), "size_range"),
    (lambda d: occlude_rectangles(d, size_range=0.5), "size_range"),
    (lambda d: occlude_rectangles(d, content="grey"), "content"),
    (lambda d: occlude_rectangles(d, seed=-1), "seed"),
    (lambda d: occlude_rectangles(d, seed=1.5), "seed"),
    (lambda d: occlude_rectangles(d, seed=None), "seed"),
    (lambda d: salt_and_pepper(d, density=2.0), "density"),
    (lambda d: salt_and_pepper(d, fraction=True), "fraction"),
    (lambda d: add_dot_images(d, fraction=3), "fraction"),
    (lambda d: add_natural_outliers(d, lfw_nonfaces(), fraction=-1), "fraction"),
    (lambda d: add_natural_outliers(d, "not a set"), "outliers"),
]


@pytest.mark.parametrize("call, name", BAD_CALLS)
def test_bad_parameters(data, call, name):
    with pytest.raises(ParameterError, match=name):
        call(data)


def test_bad_data():
    with pytest.raises(DataError):
        occlude_rectangles(np.zeros((3, 4)))


# --------------------------------------------------------------------------- registry

def test_registry_structure():
    assert list(CORRUPTIONS) == ["none", "rectangles", "quarter_block", "fixed_rectangle", "salt_pepper", "dot_images", "natural_outliers"]
    assert DEFAULT_CORRUPTION == "rectangles"
    for key, spec in CORRUPTIONS.items():
        assert isinstance(spec, CorruptionSpec) and spec.key == key
        assert spec.name and spec.summary and callable(spec.function)
        assert all(isinstance(p, ParamSpec) for p in spec.params)
        for p in spec.params:
            assert p.validate(p.default) == p.default
    rect = CORRUPTIONS["rectangles"].defaults()
    assert rect == {"fraction": 0.2, "size_min": 0.3, "size_max": 0.6, "content": "dots", "seed": 0}
    assert set(CORRUPTIONS["salt_pepper"].defaults()) == {"fraction", "density", "seed"}
    assert set(CORRUPTIONS["dot_images"].defaults()) == {"fraction", "seed"}
    assert set(CORRUPTIONS["natural_outliers"].defaults()) == {"fraction", "seed"}
    assert CORRUPTIONS["none"].params == ()


@pytest.mark.parametrize("key", list(CORRUPTIONS))
def test_corrupt_dispatch_every_key(data, key):
    before = data.images.copy()
    c = corrupt(data, key)
    np.testing.assert_array_equal(data.images, before)
    _check_invariants(c, len(data), data.shape)
    again = corrupt(data, key)
    np.testing.assert_array_equal(c.X, again.X)
    if key == "none":
        np.testing.assert_array_equal(c.X, data.X)
        assert not c.mask.any() and not c.outliers.any() and not c.added.any()
    elif key in ("dot_images", "natural_outliers"):
        assert c.added.sum() == round(0.3 * len(data))
    else:
        assert c.outliers.any() and not c.added.any()


def test_corrupt_matches_direct_call(data):
    via = corrupt(data, "rectangles", fraction=0.5, size_min=0.2, size_max=0.4, content="white", seed=3)
    direct = occlude_rectangles(data, 0.5, (0.2, 0.4), "white", 3)
    np.testing.assert_array_equal(via.X, direct.X)
    np.testing.assert_array_equal(via.mask, direct.mask)
    assert via.description == direct.description


def test_description():
    faces = lfw_faces()
    c = corrupt(faces, "rectangles")
    assert c.description == "rectangles (dots) on 20 of 100 images, seed 0"


@pytest.mark.parametrize("key, params, name", [
    ("rectangles", {"fraction": 1.5}, "fraction"),
    ("rectangles", {"size_min": 0.0}, "size_min"),
    ("rectangles", {"size_max": 1.5}, "size_max"),
    ("rectangles", {"size_min": 0.7, "size_max": 0.5}, "size_min"),
    ("rectangles", {"content": "grey"}, "content"),
    ("rectangles", {"seed": -2}, "seed"),
    ("salt_pepper", {"density": -0.5}, "density"),
    ("dot_images", {"bogus": 1}, "bogus"),
    ("natural_outliers", {"fraction": 2}, "fraction"),
    ("nope", {}, "nope"),
])
def test_corrupt_rejects_bad_params(data, key, params, name):
    with pytest.raises(ParameterError, match=name):
        corrupt(data, key, **params)


def test_corrupt_natural_outliers_needs_enough_images():
    big = _make_set(n=300, labels=None)
    with pytest.raises(ParameterError, match="fraction"):
        corrupt(big, "natural_outliers", fraction=0.5)


def test_paper_protocol_presets(faces):
    """Paper 001 §5.2: a block of ¼ the image area (half height × half width, rounded);
    paper 002 §3.3: a 10 × 18 rectangle of random dots."""
    c = corrupt(faces, "quarter_block", fraction=0.2, seed=3)
    H, W = faces.shape
    boxes = c.mask.reshape(-1, H, W)[c.outliers]
    assert len(boxes) == 20
    for m in boxes:
        assert m.any(axis=1).sum() == round(H / 2) and m.any(axis=0).sum() == round(W / 2)
    c = corrupt(faces, "fixed_rectangle", fraction=0.5, seed=3)
    for m in c.mask.reshape(-1, H, W)[c.outliers]:
        assert (m.any(axis=1).sum(), m.any(axis=0).sum()) == (10, 18)
    with pytest.raises(ParameterError, match="size_px"):
        occlude_rectangles(faces, size_px=(0, 3))
