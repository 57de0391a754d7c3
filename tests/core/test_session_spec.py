"""core.session.spec: data and corruption as plain values that load, serialise and reproduce."""
import json

import numpy as np
import pytest

from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session import CorruptionSpec, DataSpec, prepare


def test_specs_round_trip_through_json():
    data = DataSpec("builtin", "digits", size=(14, 14), options={"digits": [6]})
    corr = CorruptionSpec("salt_pepper", {"density": 0.2, "seed": 3})
    back_d = DataSpec.from_dict(json.loads(json.dumps(data.to_dict())))
    back_c = CorruptionSpec.from_dict(json.loads(json.dumps(corr.to_dict())))
    assert back_d.to_dict() == data.to_dict() and back_c.to_dict() == corr.to_dict()
    a, b = prepare(data, corr), prepare(back_d, back_c)
    np.testing.assert_array_equal(a.X, b.X)
    assert a.X.shape[1] == 14 * 14 and set(np.unique(a.labels)) <= {6}


def test_seed_changes_the_draw_and_only_the_draw():
    data = DataSpec("builtin", "faces", size=(20, 20))
    images = data.load()
    c0 = CorruptionSpec("rectangles", {"fraction": 0.3})
    a, b = prepare(data, c0, images), prepare(data, c0.with_seed(1), images)
    np.testing.assert_array_equal(a.X_clean, b.X_clean)
    assert not np.array_equal(a.mask, b.mask)
    assert c0.with_seed(1).seed == 1 and c0.seed == 0


def test_a_toy_keeps_its_own_outliers():
    toy = DataSpec("toy", "line", options={"seed": 2})
    got = prepare(toy, CorruptionSpec("rectangles"))
    assert got.X.shape[1] == 2 and got.outliers.any()


def test_bad_specs_are_refused_with_their_names():
    with pytest.raises(ParameterError, match="kind"):
        DataSpec("web", "x")
    with pytest.raises(ParameterError, match="nope"):
        CorruptionSpec("nope").values()


def test_preparing_holds_no_third_copy_of_the_data():
    """prepare() loads the images, and the corruption takes them as the clean data without a
    copy: its peak is the arrays it returns (X, X_clean, mask) and the loading's small
    temporaries, not a third array of the data's size (5,000 digits: 31 MB each in float64)."""
    import tracemalloc

    tracemalloc.start()
    try:
        data = prepare(DataSpec(kind="builtin", name="digits", precision="double"), CorruptionSpec("rectangles"))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data.X.dtype == np.float64 and data.X.shape == (5000, 784)
    assert not np.shares_memory(data.X, data.X_clean)
    assert peak - held < 0.5 * data.X.nbytes


def test_loaded_images_are_read_only_and_become_the_clean_data():
    """What the window does on a data change (load, prepare with the loaded images, keep them
    with share_clean): the images are read-only, so the corruption takes them as X_clean and
    the images kept are that same array, one copy of the clean data in memory."""
    from robust_subspace_lab.core.session import share_clean

    spec = DataSpec(kind="builtin", name="digits", size=(20, 20), precision="double")
    images = spec.load()
    assert not images.images.flags.writeable
    data = prepare(spec, CorruptionSpec("rectangles"), images)
    assert np.shares_memory(data.X_clean, images.images) and not np.shares_memory(data.X, images.images)
    assert np.array_equal(data.X_clean.reshape(images.images.shape), images.images)
    assert np.shares_memory(share_clean(images, data).images, data.X_clean)
