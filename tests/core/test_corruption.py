"""Tests for core.corruption: reproducibility, masks, flags, counts, parameters and registry."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from robust_subspace_lab.core.params import ParamSpec
from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.corruption import (CORRUPTIONS, DEFAULT_CORRUPTION, Corrupted, CorruptionInfo,
                             add_dot_images, add_natural_outliers, black_square, corrupt,
                             laplace_noise, missing_blocks, occlude_rectangles, salt_and_pepper,
                             value_block)
from robust_subspace_lab.core.datasets import ImageSet, lfw_faces, lfw_nonfaces
from robust_subspace_lab.core.errors import DataError, ParameterError


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
    "salt_pepper_exact": lambda d, seed=0: salt_and_pepper(d, 0.5, 0.2, seed, exact=True),
    "laplace": lambda d, seed=0: laplace_noise(d, 80.0, True, 0.5, seed),
    "laplace_noclip": lambda d, seed=0: laplace_noise(d, 80.0, False, 0.5, seed),
    "value_block": lambda d, seed=0: value_block(d, 6, 550.0, 0.5, seed),
    "black_square": lambda d, seed=0: black_square(d, 0.2, 0.5, seed),
    "missing_blocks": lambda d, seed=0: missing_blocks(d, 0.2, 3, 0.5, seed),
}
APPENDING = {
    "dot_images": lambda d, seed=0: add_dot_images(d, 0.3, seed),
    "natural": lambda d, seed=0: add_natural_outliers(d, lfw_nonfaces(), 0.3, seed),
}
ALL = {**WITHIN, **APPENDING}


#: Value ranges of X that leave 0–255 on purpose (paper 003's protocols); default (0, 255).
RANGES = {"laplace": (0.0, np.inf), "laplace_noclip": (-np.inf, np.inf), "value_block": (0.0, 550.0)}


def _check_invariants(c: Corrupted, n_in: int, shape, value_range=(0.0, 255.0)):
    n = c.n_samples
    d = shape[0] * shape[1]
    assert c.X.shape == c.X_clean.shape == c.mask.shape == (n, d)
    assert c.X.dtype == np.float64 and c.mask.dtype == bool
    assert c.outliers.shape == c.added.shape == (n,)
    assert c.shape == tuple(shape)
    # the mask marks every change (NaN != anything counts as a change), and nothing changes outside it
    assert np.all(c.mask[c.X != c.X_clean])
    np.testing.assert_array_equal(c.X[~c.mask], c.X_clean[~c.mask])
    np.testing.assert_array_equal(c.outliers, c.mask.any(axis=1))
    assert np.all(np.isfinite(c.X_clean))
    lo, hi = value_range
    finite = c.X[~np.isnan(c.X)]
    assert finite.min() >= lo and finite.max() <= hi
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
    _check_invariants(c, len(data), data.shape, RANGES.get(name, (0.0, 255.0)))
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
    assert not np.array_equal(a.X, other.X, equal_nan=True)


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
    (lambda d: salt_and_pepper(d, exact="yes"), "exact"),
    (lambda d: laplace_noise(d, scale=-1.0), "scale"),
    (lambda d: laplace_noise(d, scale=float("inf")), "scale"),
    (lambda d: laplace_noise(d, clip="yes"), "clip"),
    (lambda d: laplace_noise(d, clip=2), "clip"),
    (lambda d: laplace_noise(d, fraction=1.2), "fraction"),
    (lambda d: value_block(d, size=11), "size"),          # the test images are 12 × 10
    (lambda d: value_block(d, size=0), "size"),
    (lambda d: value_block(d, size=2.5), "size"),
    (lambda d: value_block(d, size=True), "size"),
    (lambda d: value_block(d, size=4, value=-1.0), "value"),
    (lambda d: value_block(d, size=4, value=float("nan")), "value"),
    (lambda d: black_square(d, share=1.5), "share"),
    (lambda d: black_square(d, share=0.95), "share"),      # side 11 does not fit in 12 × 10
    (lambda d: black_square(d, seed=-3), "seed"),
    (lambda d: missing_blocks(d, share=-0.1), "share"),
    (lambda d: missing_blocks(d, block=0), "block"),
    (lambda d: missing_blocks(d, block=11), "block"),
    (lambda d: missing_blocks(d, fraction=2), "fraction"),
]


@pytest.mark.parametrize("call, name", BAD_CALLS)
def test_bad_parameters(data, call, name):
    with pytest.raises(ParameterError, match=name):
        call(data)


def test_bad_data():
    with pytest.raises(DataError):
        occlude_rectangles(np.zeros((3, 4)))


# --------------------------------------------------------------------------- registry

def _assert_well_formed(spec) -> None:
    """A registry entry under its own key: a name and summary, a function taking the images and
    exactly its parameters' names, distinct parameter names, defaults that pass their own specs and
    the entry's check."""
    import inspect
    assert isinstance(spec, CorruptionInfo) and CORRUPTIONS[spec.key] is spec
    assert spec.name and spec.summary and callable(spec.function)
    assert all(isinstance(p, ParamSpec) for p in spec.params)
    names = [p.name for p in spec.params]
    assert len(set(names)) == len(names)
    for p in spec.params:
        assert p.validate(p.default) == p.default
    assert spec.validate() == spec.defaults()
    inspect.signature(spec.function).bind(object(), **spec.defaults())     # TypeError if a name is not taken


@pytest.mark.parametrize("key", list(CORRUPTIONS))
def test_every_registered_corruption_is_a_well_formed_entry(key):
    """Whatever the registry holds: a new corruption is checked here without editing the test."""
    _assert_well_formed(CORRUPTIONS[key])


def test_the_docs_example_corruption_registers_and_corrupts(example_corruption):
    """docs/architecture.md "How to add a corruption", run as written: the entry passes the
    registry-wide checks, corrupt() applies it by key (a full-height white band on 20 % of the
    faces, reproducible), its parameter is refused by one rule, and a key is registered once."""
    from robust_subspace_lab.core.corruption import register_corruption
    faces = lfw_faces()
    info = CORRUPTIONS["white_stripe"]
    assert list(CORRUPTIONS)[-1] == "white_stripe"
    _assert_well_formed(info)
    H, W = faces.shape
    c = corrupt(faces, "white_stripe", width=3, seed=1)
    _check_invariants(c, len(faces), faces.shape)
    assert c.outliers.sum() == round(0.2 * len(faces)) and not c.added.any()
    for m in c.mask.reshape(-1, H, W)[c.outliers]:
        columns = np.flatnonzero(m.all(axis=0))
        assert len(columns) == 3 and np.ptp(columns) == 2 and m.sum() == 3 * H
    assert np.all(c.X[c.mask] == 255.0)
    np.testing.assert_array_equal(corrupt(faces, "white_stripe", width=3, seed=1).X, c.X)
    with pytest.raises(ParameterError, match="width") as via_registry:
        corrupt(faces, "white_stripe", width=0)
    with pytest.raises(ParameterError) as via_function:
        example_corruption["white_stripe"](faces, width=0)
    assert str(via_registry.value) == str(via_function.value)
    with pytest.raises(ParameterError, match="already registered"):
        register_corruption(info)
    with pytest.raises(ParameterError, match="lowercase"):
        register_corruption(dataclasses.replace(info, key="White Stripe"))
    with pytest.raises(ParameterError, match="width"):
        register_corruption(dataclasses.replace(info, key="bad_default",
                                                params=(dataclasses.replace(info.params[1], default=0),)))
    assert "bad_default" not in CORRUPTIONS


def test_the_docs_example_corruption_in_a_session_and_the_sweep_command(example_corruption, tmp_path, capsys):
    """A registered corruption is a user's choice like any other: a session holding it saves and
    reopens (the payload checks it by the entry), and the sweep command lists it, parses its values
    and runs with it (one job: this process, where it is registered)."""
    from robust_subspace_lab.core import sweep_io
    from robust_subspace_lab.core.session import CorruptionSpec, DataSpec, Run, Session, payload

    chosen = CorruptionSpec("white_stripe", {"width": 3, "seed": 2})
    session = Session(DataSpec(size=(16, 16)), chosen, runs=[Run("pca", {})])
    saved = {"session": session.to_dict()}
    opened = payload.check_payload(saved, "stripes.rsl")
    assert opened.session.corruption == chosen and Session.from_dict(session.to_dict()).corruption == chosen
    assert "white_stripe" in sweep_io.build_parser().format_help()
    assert sweep_io.parse_corruption("white_stripe:width=4") == CorruptionSpec("white_stripe", {"width": 4})
    out = tmp_path / "stripes.csv"
    code = sweep_io.cli(["--data", "faces", "--size", "16x16", "--corruption", "white_stripe:width=4",
                         "--method", "pca", "--seeds", "2", "--jobs", "1", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    rows = sweep_io.read_csv(out)
    assert len(rows) == 2 and not any(r.get("error") for r in rows)
    assert all(0.0 <= r["outlier_auc"] <= 1.0 for r in rows)         # the stripes' mask is the truth it scores


def test_the_papers_protocols_keep_their_defaults():
    """The defaults the papers' protocols need (the keys the lessons and presets name)."""
    assert DEFAULT_CORRUPTION == "rectangles" and DEFAULT_CORRUPTION in CORRUPTIONS
    rect = CORRUPTIONS["rectangles"].defaults()
    assert rect == {"fraction": 0.2, "size_min": 0.3, "size_max": 0.6, "content": "dots", "seed": 0}
    assert CORRUPTIONS["none"].params == ()
    assert CORRUPTIONS["salt_pepper_exact"].defaults() == {"fraction": 1.0, "density": 0.1, "seed": 0}
    assert CORRUPTIONS["laplace"].defaults() == {"scale": 40.0, "clip": True, "fraction": 1.0, "seed": 0}
    assert CORRUPTIONS["value_block"].defaults() == {"size": 12, "value": 550.0, "fraction": 1.0, "seed": 0}
    assert CORRUPTIONS["black_square"].defaults() == {"share": 0.2, "fraction": 1.0, "seed": 0}
    assert CORRUPTIONS["missing_blocks"].defaults() == {"share": 0.1, "block": 4, "fraction": 1.0, "seed": 0}


def test_a_function_and_the_registry_refuse_a_value_by_one_rule(data):
    """Validated once: a corruption function checks its arguments with the ParamSpecs the registry
    offers, so a direct call and corrupt() accept and refuse the same values with the same message
    (before, laplace_noise refused clip=1 that corrupt() took, and value_block took size=12.0 that
    corrupt() refused)."""
    for key, direct, bad in [("laplace", laplace_noise, {"clip": 2}), ("value_block", value_block, {"size": 4.5}),
                             ("black_square", black_square, {"share": 1.5}), ("salt_pepper", salt_and_pepper,
                                                                              {"density": -1.0})]:
        with pytest.raises(ParameterError) as via_registry:
            corrupt(data, key, **bad)
        with pytest.raises(ParameterError) as via_function:
            direct(data, **bad)
        assert str(via_registry.value) == str(via_function.value)
    np.testing.assert_array_equal(corrupt(data, "laplace", clip=1).X, laplace_noise(data, clip=1).X)


def test_the_registry_entry_had_another_name():
    """core.corruption.CorruptionSpec (the registry entry's old name) still gives CorruptionInfo,
    with a DeprecationWarning naming both classes."""
    from robust_subspace_lab.core import corruption
    with pytest.warns(DeprecationWarning, match="CorruptionInfo"):
        assert corruption.CorruptionSpec is CorruptionInfo


#: Parameters the 12 × 10 test images need (the default 12-px block does not fit in 10 px).
DISPATCH_PARAMS = {"value_block": {"size": 6}}


@pytest.mark.parametrize("key", list(CORRUPTIONS))
def test_corrupt_dispatch_every_key(data, key):
    """Every registered corruption, by what it does rather than by its key: input untouched, the
    invariants of a Corrupted, reproducible for a seed and different for another, the clean data
    when it has no parameter, round(fraction · n) images appended or at most that many touched."""
    before = data.images.copy()
    params = DISPATCH_PARAMS.get(key, {})
    c = corrupt(data, key, **params)
    np.testing.assert_array_equal(data.images, before)
    _check_invariants(c, len(data), data.shape, RANGES.get(key, (0.0, 255.0)))
    again = corrupt(data, key, **params)
    np.testing.assert_array_equal(c.X, again.X)
    if "seed" in CORRUPTIONS[key].defaults():          # the seed draws: another seed, another corruption
        assert not np.array_equal(corrupt(data, key, **{**params, "seed": 7}).X, c.X)
    fraction = {**CORRUPTIONS[key].defaults(), **params}.get("fraction")
    if not CORRUPTIONS[key].params:                     # no parameter: the clean data ("none")
        np.testing.assert_array_equal(c.X, data.X)
        assert not c.mask.any() and not c.outliers.any() and not c.added.any()
    elif c.added.any():                                 # whole-sample outliers appended after the data
        assert c.added.sum() == round(fraction * len(data)) and c.outliers[len(data):].all()
    else:                                               # within-sample corruption of round(fraction · n) images
        assert c.outliers.any() and c.n_samples == len(data)
        if fraction is not None:
            assert c.outliers.sum() <= round(fraction * len(data))


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
    ("laplace", {"clip": "no"}, "clip"),
    ("laplace", {"scale": -5.0}, "scale"),
    ("value_block", {}, "size"),                    # 12 px does not fit in 12 × 10 images
    ("value_block", {"size": 4, "value": -1.0}, "value"),
    ("black_square", {"share": 1.2}, "share"),
    ("missing_blocks", {"block": 0}, "block"),
    ("salt_pepper_exact", {"density": 1.5}, "density"),
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


# --------------------------------------------------------------------------- paper 003 / 004 protocols

def _old_salt_and_pepper(data, fraction, density, seed):
    """The draws of salt_and_pepper before the ``exact`` option existed (regression guard)."""
    X = data.X.astype(float).copy()
    n, d = X.shape
    rng = np.random.default_rng(seed)
    k = round(fraction * n)
    chosen = np.sort(rng.choice(n, size=k, replace=False)) if k else np.zeros(0, dtype=int)
    hit = rng.random((k, d)) < density
    values = rng.integers(0, 2, size=(k, d)).astype(float) * 255.0
    rows = X[chosen]
    rows[hit] = values[hit]
    X[chosen] = rows
    return X


def test_salt_pepper_key_unchanged_by_exact_option(data):
    for fraction, density, seed in [(0.5, 0.2, 2), (1.0, 0.1, 0), (0.3, 0.6, 9)]:
        expected = _old_salt_and_pepper(data, fraction, density, seed)
        np.testing.assert_array_equal(salt_and_pepper(data, fraction, density, seed).X, expected)
        np.testing.assert_array_equal(
            corrupt(data, "salt_pepper", fraction=fraction, density=density, seed=seed).X, expected)


@pytest.mark.parametrize("p", [0.05, 0.1, 0.3, 0.6, 1.0, 0.0])
def test_salt_pepper_exact_share_per_image(data, p):
    """Paper 003 §5.2: exactly p % of the pixels of each image are set to 0 or 255."""
    d = data.X.shape[1]
    c = corrupt(data, "salt_pepper_exact", density=p, seed=4)
    np.testing.assert_array_equal(c.mask.sum(axis=1), round(p * d))
    if p > 0:
        assert set(np.unique(c.X[c.mask])) == {0.0, 255.0}
        assert c.outliers.all()
    if p >= 0.3:
        assert 0.4 < np.mean(c.X[c.mask] == 255.0) < 0.6
    # the positions differ from image to image
    if 0 < p < 1:
        assert len({r.tobytes() for r in c.mask}) > len(data) // 2


def test_laplace_noise_statistics_and_clipping(data):
    """Additive Laplace(0, δ): E|noise| = δ, sd = √2 δ; clipping only moves negatives to 0."""
    raw = laplace_noise(data, scale=30.0, clip=False, fraction=1.0, seed=5)
    noise = raw.X - raw.X_clean
    assert abs(noise.mean()) < 1.5
    assert abs(np.abs(noise).mean() / 30.0 - 1.0) < 0.06
    assert abs(noise.std() / (np.sqrt(2) * 30.0) - 1.0) < 0.08
    assert raw.mask.all()                                  # continuous noise changes every entry
    clipped = laplace_noise(data, scale=30.0, clip=True, fraction=1.0, seed=5)
    np.testing.assert_array_equal(clipped.X, np.maximum(raw.X, 0.0))     # same draws
    assert clipped.X.min() >= 0.0 and raw.X.min() < 0.0 and clipped.X.max() > 255.0
    np.testing.assert_array_equal(clipped.mask, clipped.X != clipped.X_clean)


def test_laplace_mask_excludes_entries_clipped_back():
    """A black pixel whose noise is negative is clipped back to 0: unchanged, not in the mask."""
    black = ImageSet(images=np.zeros((30, 8, 8)), labels=None, names=tuple(map(str, range(30))), source="t")
    c = laplace_noise(black, scale=40.0, clip=True, seed=1)
    np.testing.assert_array_equal(c.mask, c.X > 0)
    assert 0.4 < c.mask.mean() < 0.6                       # about half the noise is positive
    assert c.description.startswith("Laplace noise (scale δ = 40, clipped at 0)")


def test_laplace_fraction_and_zero_scale(data):
    c = laplace_noise(data, scale=10.0, fraction=0.25, seed=3)
    assert c.outliers.sum() == 10
    np.testing.assert_array_equal(c.X[~c.outliers], data.X[~c.outliers])
    zero = laplace_noise(data, scale=0.0, seed=3)
    np.testing.assert_array_equal(zero.X, data.X)
    assert not zero.mask.any()


def _single_square(m: np.ndarray) -> tuple[int, int]:
    """(height, width) of the single filled rectangle ``m`` (2-D bool), asserting it is one."""
    rows, cols = np.nonzero(m.any(axis=1))[0], np.nonzero(m.any(axis=0))[0]
    assert m.sum() == len(rows) * len(cols)
    assert np.all(m[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1])
    return len(rows), len(cols)


def test_value_block_paper_003(faces):
    """Paper 003 §5.2: one b × b block of value 550 per image, at a random place."""
    H, W = faces.shape
    c = corrupt(faces, "value_block", size=10, seed=2)
    assert c.outliers.all() and not c.added.any()
    for m in c.mask.reshape(-1, H, W):
        assert _single_square(m) == (10, 10)
    assert np.all(c.X[c.mask] == 550.0) and c.X.max() == 550.0
    np.testing.assert_array_equal(c.X[~c.mask], c.X_clean[~c.mask])
    corners = {tuple(np.argwhere(m)[0]) for m in c.mask.reshape(-1, H, W)}
    assert len(corners) > 20                              # random positions
    # the whole image is a legal block; one pixel too many is refused, naming size
    assert value_block(faces, size=min(H, W), fraction=0.1).mask[0].sum() in (0, H * W)
    with pytest.raises(ParameterError, match="size"):
        value_block(faces, size=min(H, W) + 1)


def test_value_block_fraction_and_value(data):
    c = value_block(data, size=3, value=0.0, fraction=0.25, seed=1)
    assert c.outliers.sum() == 10
    assert np.all(c.mask[c.outliers].sum(axis=1) == 9)
    assert np.all(c.X[c.mask] == 0.0)


@pytest.mark.parametrize("share", [0.05, 0.2, 0.4])
def test_black_square_share_paper_004(share):
    """Paper 004 §5.3: a black square covering share of the image, up to pixel rounding."""
    H, W = 33, 30
    data = _make_set(n=20, h=H, w=W)
    c = black_square(data, share=share, seed=3)
    target = share * H * W
    for m in c.mask.reshape(-1, H, W):
        h, w = _single_square(m)
        assert h == w
        assert abs(h * w - target) <= np.sqrt(target) + 0.25
        assert abs(h * w / (H * W) - share) < 0.02
    assert np.all(c.X[c.mask] == 0.0) and c.outliers.all()


def test_black_square_edge_cases():
    data = _make_set(n=6, h=10, w=10)
    assert not black_square(data, share=0.0).mask.any()
    full = black_square(data, share=1.0)
    assert full.mask.all() and np.all(full.X == 0.0)
    tiny = black_square(data, share=0.001)                   # rounds to 0 px: at least one
    np.testing.assert_array_equal(tiny.mask.sum(axis=1), 1)
    wide = _make_set(n=4, h=10, w=20)
    with pytest.raises(ParameterError, match="share"):
        black_square(wide, share=0.6)                         # side 14 > 10
    assert black_square(wide, share=0.5).mask.sum(axis=1).max() == 100


def _grid_offset(m: np.ndarray, block: int):
    """An offset (oy, ox) such that ``m`` is constant on every cell of the shifted block grid."""
    H, W = m.shape
    for oy in range(block):
        for ox in range(block):
            ry = np.unique(np.r_[0, np.arange(oy, H, block), H])
            rx = np.unique(np.r_[0, np.arange(ox, W, block), W])
            if all(len(np.unique(m[ry[a]:ry[a + 1], rx[b]:rx[b + 1]])) == 1
                   for a in range(len(ry) - 1) for b in range(len(rx) - 1)):
                return oy, ox
    return None


@pytest.mark.parametrize("share, block", [(0.1, 4), (0.3, 4), (0.05, 2), (0.5, 5), (0.2, 1)])
def test_missing_blocks_nan_mask_share_and_blocks(share, block):
    """Paper 004 §5.5: NaN exactly at the mask; share within block²/2 entries (and ±3 points);
    the missing set is a union of cells of a block grid."""
    H, W = 30, 26
    data = _make_set(n=12, h=H, w=W)
    c = missing_blocks(data, share=share, block=block, seed=1)
    np.testing.assert_array_equal(np.isnan(c.X), c.mask)
    np.testing.assert_array_equal(c.X[~c.mask], data.X[~c.mask])
    np.testing.assert_array_equal(c.X_clean, data.X)
    counts = c.mask.sum(axis=1)
    assert np.all(np.abs(counts - share * H * W) <= block ** 2 / 2)
    assert np.all(np.abs(counts / (H * W) - share) <= 0.03)
    for m in c.mask.reshape(-1, H, W):
        assert _grid_offset(m, block) is not None
    assert len({m.tobytes() for m in c.mask}) == len(data)   # a different pattern per image


def test_missing_blocks_on_faces_default_and_fraction(faces):
    c = corrupt(faces, "missing_blocks", seed=0)
    assert np.all(np.abs(c.mask.mean(axis=1) - 0.1) <= 0.03)
    np.testing.assert_array_equal(np.isnan(c.X), c.mask)
    part = missing_blocks(faces, share=0.2, block=3, fraction=0.3, seed=2)
    assert part.outliers.sum() == 30
    assert not np.isnan(part.X[~part.outliers]).any()
    assert "NaN" in part.description


def test_missing_blocks_extremes(data):
    assert not missing_blocks(data, share=0.0).mask.any()
    full = missing_blocks(data, share=1.0, block=3)
    assert full.mask.all() and np.isnan(full.X).all()


def test_subspace_methods_refuse_missing_entries(faces):
    """NaN data are for missing-data methods only; a subspace method says so clearly."""
    c = corrupt(faces, "missing_blocks", seed=0)
    est = catalogue.create("pca", n_components=3)
    with pytest.raises(DataError, match="NaN"):
        est.fit(c.X)


def test_package_keeps_the_public_import_path():
    """core.corruption is a package of one concept per module; every public name is still reached as
    ``corruption.<name>`` and is the object its concept module defines."""
    from robust_subspace_lab.core import corruption
    from robust_subspace_lab.core.corruption import noise, occlusion, outliers, registry, result
    assert corruption.Corrupted is result.Corrupted
    assert corruption.corrupt is registry.corrupt and corruption.CORRUPTIONS is registry.CORRUPTIONS
    assert corruption.occlude_rectangles is occlusion.occlude_rectangles
    assert corruption.laplace_noise is noise.laplace_noise
    assert corruption.add_natural_outliers is outliers.add_natural_outliers
    for name in corruption.__all__:
        assert getattr(corruption, name) is not None
    # every function the registry offers is public in the package
    public = {n for n in corruption.__all__ if callable(getattr(corruption, n))}
    direct = {spec.function.__name__ for spec in corruption.CORRUPTIONS.values()
              if not spec.function.__name__.startswith("_")}
    assert direct and direct <= public, direct - public


@pytest.mark.parametrize("key", ["rectangles", "fixed_rectangle", "black_square", "value_block", "missing_blocks"])
def test_per_image_loops_check_for_a_cancel(key):
    """The corruptions that place a shape image by image call core.interrupt.checkpoint every
    CHECK_EVERY images: a cancelled data job stops inside them, and the app's window gets the
    interpreter lock they hold in small pieces (give_way)."""
    import threading

    from robust_subspace_lab.core import interrupt
    from robust_subspace_lab.core.corruption import occlusion

    data = ImageSet(images=np.random.default_rng(0).uniform(0, 255, (600, 16, 16)), labels=None,
                    names=tuple(f"i{k}" for k in range(600)), source="t")
    spec = CORRUPTIONS[key]
    params = {**spec.defaults(), "fraction": 1.0} if "fraction" in spec.defaults() else spec.defaults()
    calls = []
    with interrupt.cancellable(None, give_way=calls.append):
        corrupt(data, key, **params)
    assert len(calls) >= 600 // occlusion.CHECK_EVERY
    cancel = threading.Event()
    cancel.set()
    with interrupt.cancellable(cancel), pytest.raises(interrupt.Cancelled):
        corrupt(data, key, **params)


@pytest.mark.parametrize("key", ["none", "rectangles", "salt_pepper", "laplace"])
def test_a_read_only_input_is_the_clean_data_and_a_writable_one_is_copied(key):
    """The clean data a corruption returns never change with the caller's array: a writable one
    is copied, a read-only one (which cannot change through it) is taken as it is, without a
    third array of the data's size. (The corruptions that add images make a new, longer X_clean.)"""
    faces = lfw_faces(size=(20, 20))
    writable = dataclasses.replace(faces, images=faces.images.copy())
    out = corrupt(writable, key)
    assert not np.shares_memory(out.X_clean, writable.images)
    before = out.X_clean.copy()
    writable.images[:] = 0.0
    assert np.array_equal(out.X_clean, before)
    frozen = dataclasses.replace(faces, images=faces.images.copy())
    frozen.images.flags.writeable = False
    again = corrupt(frozen, key)
    assert np.shares_memory(again.X_clean, frozen.images)
    assert np.array_equal(again.X_clean, out.X_clean) and np.array_equal(again.X, out.X)
    assert not np.shares_memory(again.X, frozen.images) or key == "none"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("key,params", [("salt_pepper", {"fraction": 0.7, "density": 0.3, "seed": 3}),
                                        ("salt_pepper_exact", {"density": 0.2, "seed": 4}),
                                        ("laplace", {"fraction": 0.5, "seed": 5}),
                                        ("dot_images", {"fraction": 0.5, "seed": 6})])
def test_random_corruptions_drawn_in_chunks_give_the_numbers_of_one_draw(monkeypatch, key, params, dtype):
    """The random corruptions draw in row chunks (core.corruption.result.row_chunks) so that a large
    set does not take several float64 copies of random numbers at once; the result does not depend
    on the chunks: one row per chunk (and rows of odd length) gives what one draw gives."""
    from robust_subspace_lab.core.corruption import result
    rng = np.random.default_rng(1)
    images = ImageSet(images=(rng.random((41, 9, 11)) * 255).astype(dtype), labels=None,
                      names=tuple(str(i) for i in range(41)), source="test")
    whole = corrupt(images, key, **params)
    monkeypatch.setattr(result, "CHUNK_BYTES", 8)                  # one row a chunk
    chunked = corrupt(images, key, **params)
    assert chunked.X.dtype == whole.X.dtype == dtype
    np.testing.assert_array_equal(chunked.X, whole.X)
    np.testing.assert_array_equal(chunked.mask, whole.mask)
    assert not np.array_equal(corrupt(images, key, **{**params, "seed": 99}).X, whole.X)


@pytest.mark.parametrize("key", ["salt_pepper", "salt_pepper_exact", "laplace", "dot_images"])
def test_random_corruptions_of_a_large_set_allocate_little_beyond_their_result(monkeypatch, key):
    import tracemalloc
    from robust_subspace_lab.core.corruption import result
    monkeypatch.setattr(result, "CHUNK_BYTES", 2 ** 20)
    pixels = np.full((600, 64, 64), 100.0, dtype=np.float32)
    pixels.flags.writeable = False                         # taken as the clean data, not copied
    images = ImageSet(images=pixels, labels=None, names=tuple(str(i) for i in range(600)), source="test")
    tracemalloc.start()
    try:
        out = corrupt(images, key, fraction=1.0, seed=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    kept = out.X.nbytes + out.mask.nbytes + (0 if out.X_clean is out.X else out.X_clean.nbytes)
    # drawn at once, the random numbers took 2-4 float64 arrays of the data's size (19.7 MB each);
    # in chunks of 1 MB: a few chunks and the (n, d) boolean hits (2.4 MB)
    assert peak < kept + 8 * 2 ** 20, (key, peak / 2 ** 20, kept / 2 ** 20)
