"""Single precision of a session's data (issue 12, point 4): DataSpec.precision, prepare() in
float32, every subspace method on float32 data, and the metrics against double precision."""
from __future__ import annotations

import json

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session import CorruptionSpec, DataSpec, Session, in_precision, prepare, share_clean
from robust_subspace_lab.core.views import snapshot

#: largest relative difference of a snapshot metric, single vs double precision, after STEPS
#: steps of a catalogue method with its defaults (benchmarks/bench_precision.py measured 9.9e-7
#: on the faces and 6.0e-6 on the digits 0, 1, 7 after 3 steps; 2.8e-5 after 10): ~16× margin
METRIC_RTOL = 1e-4
STEPS = 3
SUBSPACE_METHODS = [m.key for m in catalogue.methods("subspace")]


def test_precision_round_trips_and_old_specs_are_double():
    spec = DataSpec("builtin", "digits", size=(16, 16), options={"digits": [6]}, precision="single")
    d = json.loads(json.dumps(spec.to_dict()))
    assert d["precision"] == "single" and DataSpec.from_dict(d) == spec
    old = {k: v for k, v in spec.to_dict().items() if k != "precision"}     # a file from before
    assert DataSpec.from_dict(old).precision == "double" and DataSpec().precision == "auto"
    assert spec.dtype_for(10) == np.float32 and DataSpec(precision="double").dtype_for(10 ** 9) == np.float64
    with pytest.raises(ParameterError, match="precision"):
        DataSpec(precision="half")
    session = Session(data=spec)
    assert Session.from_json(session.to_json()).data == spec


def test_prepare_in_single_precision_is_double_rounded_and_reproducible():
    corr = CorruptionSpec("salt_pepper", {"fraction": 0.3, "seed": 1})
    spec = DataSpec("builtin", "faces", size=(20, 20))
    double, single = prepare(spec, corr), prepare(spec.with_(precision="single"), corr)
    assert double.X.dtype == double.X_clean.dtype == np.float64
    assert single.X.dtype == single.X_clean.dtype == np.float32
    np.testing.assert_allclose(single.X, double.X, rtol=2 ** -23)      # the same grey levels, rounded
    np.testing.assert_allclose(single.X_clean, double.X_clean, rtol=2 ** -23)
    assert single.X.max() <= 255 and np.array_equal(single.mask, double.mask)
    # the app keeps the images as a float32 view of X_clean and corrupts them again from there
    images = share_clean(spec.load(), single)
    assert images.images.dtype == np.float32 and np.shares_memory(images.images, single.X_clean)
    again = prepare(spec.with_(precision="single"), corr, images)
    assert np.array_equal(again.X, single.X) and np.array_equal(again.X_clean, single.X_clean)
    # a toy is converted too; in_precision is the identity when nothing changes
    toy = prepare(DataSpec("toy", "line", precision="single"), corr)
    assert toy.X.dtype == np.float32 and in_precision(toy, "single") is toy
    with pytest.raises(ParameterError):
        in_precision(toy, "quad")


@pytest.fixture(scope="module")
def prepared():
    """(double, single) prepared data: the 100 faces and the 1,500 digits 0, 1, 7, default corruption."""
    corr = CorruptionSpec()
    out = {}
    for name, spec in {"faces": DataSpec("builtin", "faces"),
                       "digits": DataSpec("builtin", "digits", options={"digits": [0, 1, 7]})}.items():
        out[name] = prepare(spec, corr), prepare(spec.with_(precision="single"), corr)
    return out


def _stepped(key: str, data):
    est = catalogue.create(key)
    state = est.start(data.X)
    for _ in range(STEPS):
        state = est.step(state)
    return est, state


@pytest.mark.parametrize("key", SUBSPACE_METHODS)
def test_every_method_steps_on_float32_data_and_its_metrics_match_double(key, prepared):
    for name, (double, single) in prepared.items():
        est, state = _stepped(key, single)
        assert state.iteration >= 2 or est.finished(state), (name, state.iteration)
        assert np.isfinite(state.components).all() and np.isfinite(state.objective)
        # the PCA family and the convex methods compute in float32; the others convert (base._validate)
        expected = np.float32 if est.preserves_float32 else np.float64
        assert state.components.dtype == expected, (name, state.components.dtype)
        a = snapshot(_stepped(key, double)[1], double, clustering=True).metrics
        b = snapshot(state, single, clustering=True).metrics
        assert a.keys() == b.keys() and a
        for metric, va in a.items():
            if va is None:
                assert b[metric] is None
                continue
            assert np.isfinite(b[metric]), (name, metric)
            assert b[metric] == pytest.approx(va, rel=METRIC_RTOL), (name, metric)


def test_auto_precision_is_single_above_the_threshold_and_decided_on_the_images(monkeypatch):
    from robust_subspace_lab.core.session import AUTO_SINGLE_BYTES, auto_precision, spec as spec_module
    # the 5,000 built-in digits at 96 × 96 take 369 MB in double: single; at 64 × 64 164 MB: double
    assert auto_precision(5000 * 96 * 96) == "single" and auto_precision(5000 * 64 * 64) == "double"
    assert auto_precision(AUTO_SINGLE_BYTES // 8) == "double" and auto_precision(AUTO_SINGLE_BYTES // 8 + 1) == "single"
    corr = CorruptionSpec("dot_images", {"fraction": 0.3, "seed": 1})
    spec = DataSpec("builtin", "faces", size=(20, 20))                   # 100 × 400 values: 0.3 MB
    assert spec.precision == "auto" and prepare(spec, corr).X.dtype == np.float64
    monkeypatch.setattr(spec_module, "AUTO_SINGLE_BYTES", 100 * 400 * 8 - 1)
    images = spec.load()
    data = prepare(spec, corr, images)
    # decided on the images (100 × 400), before the 30 dot images are added: the same decision
    # for the images the app keeps (a view of X_clean), so corrupting them again is reproducible
    assert images.images.dtype == data.X.dtype == np.float32 and data.X.shape == (130, 400)
    again = prepare(spec, corr, share_clean(images, data))
    assert np.array_equal(again.X, data.X)
    np.testing.assert_allclose(data.X, prepare(spec.with_(precision="double"), corr).X, rtol=2 ** -23)
    assert prepare(DataSpec("toy", "line"), corr).X.dtype == np.float64     # toys stay small
    for p in ("auto", "double", "single"):
        assert DataSpec.from_dict(DataSpec(precision=p).to_dict()).precision == p


def test_appended_outliers_and_no_corruption_keep_the_clean_data_as_x_itself():
    spec = DataSpec("builtin", "faces", size=(20, 20), precision="single")
    for key in ("dot_images", "natural_outliers", "none"):
        data = prepare(spec, CorruptionSpec(key))
        assert data.X_clean is data.X and data.X.dtype == np.float32, key
    data = prepare(spec, CorruptionSpec("rectangles"))
    assert data.X_clean is not data.X and not np.array_equal(data.X_clean, data.X)


@pytest.fixture
def nmf_in_double(monkeypatch):
    """The NMF family made to compute in float64 (it computes float32 data in float32,
    tests/core/test_nmf_float32.py): the methods that compute in double share one copy."""
    from robust_subspace_lab.core.methods.nmf_base import NMFBase
    monkeypatch.setattr(NMFBase, "preserves_float32", False)


def test_methods_computing_in_double_share_one_copy_of_float32_data_not_counted_as_a_runs(nmf_in_double):
    from robust_subspace_lab.core.session import Run, shared_double, solver_input
    data = prepare(DataSpec("builtin", "faces", size=(20, 20), precision="single"), CorruptionSpec())
    runs = [Run(key, {}) for key in ("tc-nmf", "nmf", "pca-l1", "pca-gm")]
    for run in runs:
        run.start(data)
        run.step(2)
    double = shared_double(data.X)
    assert double is not None and double.dtype == np.float64 and not double.flags.writeable
    assert np.array_equal(double, data.X)
    nmf = catalogue.create("nmf")
    assert solver_input(nmf, data.X) is double                           # one copy for every run
    assert solver_input(catalogue.create("pca-gm"), data.X) is data.X    # computes in float32
    assert runs[1].history.states[-1]._ctx.X is double
    # the copy is the data's: a run's history counts its own arrays only (NMF: W and H)
    from robust_subspace_lab.core.session.history import own_bytes
    first = runs[1].history.states[0]
    assert own_bytes(first) >= double.nbytes > runs[1].history.sizes[0] == own_bytes(first, data=data)
    X64 = prepare(DataSpec("builtin", "faces", size=(20, 20), precision="double"), CorruptionSpec()).X
    assert solver_input(nmf, X64) is X64 and shared_double(X64) is None


def test_the_shared_double_copy_lives_only_while_a_run_holds_it(nmf_in_double):
    from robust_subspace_lab.core.session import Run, shared_double
    data = prepare(DataSpec("builtin", "faces", size=(16, 16), precision="single"), CorruptionSpec())
    greedy = Run("pca-l1", {})
    greedy.start(data)           # keeps its centred data, not X: the copy is gone after the start
    assert shared_double(data.X) is None
    nmf = Run("nmf", {})
    nmf.start(data)
    assert shared_double(data.X) is nmf.history.last._ctx.X
    nmf.history.clear()
    assert shared_double(data.X) is None
