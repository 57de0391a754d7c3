"""Data for the regression methods: the synthetic 3-D example (paper 004 §5.1), targets from a CSV,
labelled folders and splits."""
from __future__ import annotations

import numpy as np
import pytest
from skimage import io

from robust_subspace_lab.core import corruption, datasets
from robust_subspace_lab.core.datasets import load_folder, load_targets_csv
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.regression.data import (digits_data, folder_data, one_hot, regression_data, subsample_per_class,
                                  synthetic_3d, train_test_split)


def _save(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    img = ((np.arange(48).reshape(6, 8) * 3 + value) % 256).astype(np.uint8)
    io.imsave(str(path), img, check_contrast=False)


@pytest.fixture
def folder(tmp_path):
    """Two classes of 3 images each plus a text file."""
    root = tmp_path / "faces"
    for cls in ("alice", "bob"):
        for i in range(3):
            _save(root / cls / f"{cls[0]}{i}.png", 10 * i + (0 if cls == "alice" else 100))
    (root / "notes.txt").write_text("not an image")
    return root


def _csv(path, text):
    path.write_text(text)
    return path


# ---------------------------------------------------------------- synthetic 3-D
def test_synthetic_3d_follows_section_5_1():
    """§5.1: 200 points, clean inputs on the plane x3 = 0 with x1, x2 ∈ [0, 6], Y = T*[D; 1]
    noise-free, 20 in-plane (dim 2) and 20 out-of-plane (dim 3) corrupted samples, 100 for
    training holding half of each kind; seeded."""
    d = synthetic_3d(seed=3)
    assert d.X.shape == (200, 3) and d.Y.shape == (200, 3) and d.T_true.shape == (3, 4)
    assert np.all(d.X_clean[:, 2] == 0) and d.X_clean[:, :2].min() >= 0 and d.X_clean[:, :2].max() <= 6
    np.testing.assert_allclose(d.Y, d.X_clean @ d.T_true[:, :3].T + d.T_true[:, 3])
    inp, out = d.kinds["in-plane"], d.kinds["out-of-plane"]
    assert inp.sum() == 20 and out.sum() == 20 and not (inp & out).any()
    diff = d.X - d.X_clean
    assert np.all(diff[inp][:, [0, 2]] == 0) and np.all(diff[out][:, [0, 1]] == 0)
    assert np.all(diff[~(inp | out)] == 0)
    assert d.train.sum() == 100 and (inp & d.train).sum() == 10 and (out & d.train).sum() == 10
    assert d.scored_columns == (0, 1) and d.shape is None and not d.is_classification
    again = synthetic_3d(seed=3)
    np.testing.assert_array_equal(again.X, d.X)
    assert not np.array_equal(synthetic_3d(seed=4).X, d.X)
    with pytest.raises(ParameterError, match="n_train"):
        synthetic_3d(n_train=200)


# ---------------------------------------------------------------- splits
def test_stratified_split_puts_every_class_in_both_sets():
    labels = np.array([0] * 5 + [1] * 2 + [2] * 9)
    train = train_test_split(labels, 0.5, seed=1)
    for c in (0, 1, 2):
        assert train[labels == c].any() and (~train[labels == c]).any()
    np.testing.assert_array_equal(train, train_test_split(labels, 0.5, seed=1))
    plain = train_test_split(10, 0.3, seed=0)
    assert (~plain).sum() == 3
    with pytest.raises(ParameterError, match="test_fraction"):
        train_test_split(10, 1.0)
    with pytest.raises(DataError, match="class 3 has a single sample"):
        train_test_split(np.array([1, 1, 3]))
    Y, classes = one_hot(np.array(["b", "a", "b", "a"]))
    assert classes == ("a", "b") and Y.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_digits_and_corrupted_images():
    d = digits_data(per_class=4, seed=0)
    assert d.is_classification and d.X.shape == (40, 784) and d.shape == (28, 28)
    assert d.Y.shape == (40, 10) and np.all(d.Y.sum(1) == 1) and d.train.sum() == 20
    sub = subsample_per_class(datasets.mnist_digits(), 4, seed=0)
    cor = corruption.corrupt(sub, "rectangles", fraction=0.5, seed=0)
    rd = regression_data(cor, seed=0)
    assert rd.X_clean is not None and rd.kinds["corrupted"].sum() == 20
    np.testing.assert_array_equal(rd.X, cor.X)
    # appended outlier images (no class) are dropped
    dots = corruption.corrupt(sub, "dot_images", fraction=0.25, seed=0)
    assert regression_data(dots).n_samples == 40
    with pytest.raises(DataError, match="no targets"):
        regression_data(datasets.lfw_faces())
    faces = regression_data(datasets.lfw_faces(), targets=np.arange(100.0))
    assert faces.Y.shape == (100, 1) and not faces.is_classification


# ---------------------------------------------------------------- CSV targets
def test_load_folder_with_targets_csv(folder, tmp_path):
    """Targets per file by relative path or bare file name, header detected, extra rows ignored."""
    csv = _csv(tmp_path / "t.csv", "file,yaw,pitch\nalice/a0.png,10,1\na1.png,20,2\nalice/a2.png,30,3\n"
                                   "b0.png,-10,0\n# comment\n\nbob/b1.png,-20,0.5\nb2.png,-30,1e-1\n"
                                   "gone.png,0,0\n")
    data = load_folder(folder, targets_csv=csv)
    assert data.target_names == ("yaw", "pitch")
    assert data.names[:2] == ("alice/a0.png", "alice/a1.png")
    np.testing.assert_allclose(data.targets[:, 0], [10, 20, 30, -10, -20, -30])
    np.testing.assert_allclose(data.targets[5], [-30, 0.1])
    # no header: targets named target_1 ...
    csv2 = _csv(tmp_path / "t2.csv", "\n".join(f"{n},{i}" for i, n in enumerate(data.names)))
    values, names = load_targets_csv(csv2, data.names)
    assert names == ("target_1",) and values[:, 0].tolist() == list(range(6))
    rd = folder_data(folder, targets_csv=csv)
    assert not rd.is_classification and rd.Y.shape == (6, 2)
    cls = folder_data(folder)
    assert cls.is_classification and cls.classes == ("alice", "bob")


@pytest.mark.parametrize("text, match", [
    ("file,y\nalice/a0.png,1\na1.png,2\n", r"t\.csv' has no targets for 4 of 6 image\(s\): alice/a2.png"),
    ("file,y\nalice/a0.png,1\na1.png,abc\n", r"row 3 \(file 'a1.png'\), column 'y': 'abc' is not a finite number"),
    ("alice/a0.png,1\na1.png,nan\n", r"row 2 \(file 'a1.png'\), column 'target_1': 'nan'"),
    ("file,y\nalice/a0.png,1,2\n", r"row 2: 3 column\(s\), expected 2"),
    ("file,y\nalice/a0.png,1\na0.png,2\n", r"rows 2 and 3: both give targets for 'alice/a0.png'"),
    ("", r"holds no rows"),
    ("file,y\n", r"holds a header but no data row"),
    ("file\n", r"row 1: expected 'file,target,...'"),
])
def test_csv_problems_name_file_and_row(folder, tmp_path, text, match):
    """Bad CSV targets are refused with a DataError naming the CSV file and the row (or the
    images without targets)."""
    csv = _csv(tmp_path / "t.csv", text)
    with pytest.raises(DataError, match=match) as err:
        load_folder(folder, targets_csv=csv)
    assert "t.csv" in str(err.value)


def test_csv_ambiguous_bare_name_and_missing_file(tmp_path):
    names = ["x/a.png", "y/a.png", "y/b.png"]
    csv = _csv(tmp_path / "t.csv", "a.png,1\ny/b.png,2\n")
    with pytest.raises(DataError, match="row 1: file name 'a.png' matches several images"):
        load_targets_csv(csv, names)
    with pytest.raises(DataError, match="cannot read targets file"):
        load_targets_csv(tmp_path / "absent.csv", names)


def test_folder_with_a_single_sample_class_is_refused_for_classification(tmp_path):
    root = tmp_path / "d"
    for i in range(3):
        _save(root / "a" / f"{i}.png", i)
    _save(root / "lonely" / "0.png", 50)
    with pytest.raises(DataError, match="class 'lonely' has a single sample"):
        folder_data(root)


def test_restrict_corruption_keeps_it_on_one_side():
    """A corruption restricted to the training (test) inputs leaves the test (training) rows
    clean, keeps the corrupted rows as they were, and refuses an unknown scope."""
    from robust_subspace_lab.core.regression import data as rdata

    images = rdata.subsample_per_class(datasets.mnist_digits(), 6, 0)
    both = rdata.regression_data(corruption.corrupt(images, "black_square", share=0.2, seed=0), seed=0)
    assert rdata.restrict_corruption(both, "both") is both
    for scope, hit in (("train", both.train), ("test", ~both.train)):
        one = rdata.restrict_corruption(both, scope)
        np.testing.assert_array_equal(one.X[hit], both.X[hit])
        np.testing.assert_array_equal(one.X[~hit], both.X_clean[~hit])
        assert not one.mask[~hit].any() and (one.mask[hit] == both.mask[hit]).all()
    with pytest.raises(ParameterError, match="scope"):
        rdata.restrict_corruption(both, "half")
