"""Data for the regression methods: paper 004's synthetic 3-D example, labelled image sets, splits.

A :class:`RegressionData` holds inputs, targets, the train/test split and whatever truth is
known (clean inputs, the true regressor, which samples got which corruption), so that every
metric of :mod:`core.regression.views` can be computed against the truth.

Inputs are (n_samples, n_features), grey levels 0–255 for images; NaN marks a missing entry.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np

from .._readonly import ReadOnlyDict
from ..datasets import ImageSet, load_folder, mnist_digits, resize_images
from ..errors import DataError, ParameterError
from ._base import encode_labels


@dataclass(frozen=True, eq=False)
class RegressionData:
    """Inputs, targets, split and truth of one regression or classification problem.

    Attributes
    ----------
    X : (n_samples, n_features) the inputs the methods see (corrupted; NaN at missing entries).
    Y : (n_samples, n_outputs) float targets; for classification the 0/1 class indicators
        (``Y[i, j] = 1`` if sample i is of class ``classes[j]``).
    train : (n_samples,) bool, True for the training samples (the rest is the test set).
    X_clean : (n_samples, n_features) the inputs before corruption, or None.
    labels : (n_samples,) class labels (classification), or None (regression).
    classes : the sorted distinct labels, or None.
    shape : (height, width) to view a row as an image, or None (points, e.g. the 3-D example).
    mask : (n_samples, n_features) bool, entries the corruption changed (or made missing), or None.
    kinds : name → (n_samples,) bool, which samples got which corruption (e.g. ``"in-plane"``,
        ``"out-of-plane"`` for the 3-D example, ``"corrupted"`` for images).
    T_true : (n_outputs, n_features + 1) the true regressor (intercept last), or None.
    scored_columns : the columns of T scored by the relative error of T (RAE_T); paper 004 §5.1
        scores the first two of the 3-D example (the third coordinate of the clean data is 0).
    names : a name per sample, or None. target_names : a name per output.
    description : one line.
    """

    X: np.ndarray
    Y: np.ndarray
    train: np.ndarray
    X_clean: np.ndarray | None = None
    labels: np.ndarray | None = None
    classes: tuple | None = None
    shape: tuple[int, int] | None = None
    mask: np.ndarray | None = None
    kinds: Mapping[str, np.ndarray] = field(default_factory=dict)
    T_true: np.ndarray | None = None
    scored_columns: tuple[int, ...] | None = None
    names: tuple[str, ...] | None = None
    target_names: tuple[str, ...] = ()
    description: str = ""

    def __post_init__(self):
        for name in ("X", "Y", "train", "X_clean", "labels", "mask", "T_true"):
            arr = getattr(self, name)
            if isinstance(arr, np.ndarray):
                arr.flags.writeable = False
        kinds = {k: np.asarray(v, dtype=bool) for k, v in self.kinds.items()}
        for v in kinds.values():
            v.flags.writeable = False
        object.__setattr__(self, "kinds", ReadOnlyDict(kinds))

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def is_classification(self) -> bool:
        return self.labels is not None

    @property
    def test(self) -> np.ndarray:
        """(n_samples,) bool, True for the test samples."""
        return ~self.train

    @property
    def targets(self) -> np.ndarray:
        """What ``fit`` takes: the labels (classification) or Y (regression), all samples."""
        return self.labels if self.labels is not None else self.Y

    @property
    def X_train(self) -> np.ndarray:
        return self.X[self.train]

    @property
    def X_test(self) -> np.ndarray:
        return self.X[~self.train]

    @property
    def targets_train(self) -> np.ndarray:
        return self.targets[self.train]

    @property
    def targets_test(self) -> np.ndarray:
        return self.targets[~self.train]

    @property
    def Y_train(self) -> np.ndarray:
        return self.Y[self.train]

    @property
    def Y_test(self) -> np.ndarray:
        return self.Y[~self.train]


# =========================================================================== helpers
def _check_seed(seed) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ParameterError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def train_test_split(n_or_labels: Any, test_fraction: float = 0.5, seed: int = 0,
                     stratify: bool = True) -> np.ndarray:
    """A seeded train/test split, returned as the (n_samples,) bool mask of the training samples.

    ``n_or_labels`` : the number of samples, or their labels (n,). With labels and ``stratify``
    each class is split on its own: ``round(test_fraction · n_c)`` of its samples (at least 1 and
    at most n_c − 1) go to the test set, so every class is in both sets. Otherwise
    ``round(test_fraction · n)`` random samples (at least 1, at most n − 1) are the test set.

    Raises ParameterError (test_fraction outside (0, 1), bad seed), DataError (fewer than 2
    samples, or a class with a single sample, named).
    """
    if isinstance(test_fraction, bool) or not isinstance(test_fraction, numbers.Real) \
            or not 0.0 < float(test_fraction) < 1.0:
        raise ParameterError(f"test_fraction must be in (0, 1), got {test_fraction!r}")
    rng = np.random.default_rng(_check_seed(seed))
    if isinstance(n_or_labels, numbers.Integral) and not isinstance(n_or_labels, bool):
        n, labels = int(n_or_labels), None
    else:
        labels = np.asarray(n_or_labels)
        n = len(labels)
    if n < 2:
        raise DataError(f"a train/test split needs at least 2 samples, got {n}")
    train = np.ones(n, dtype=bool)
    if labels is None or not stratify:
        k = min(n - 1, max(1, int(round(test_fraction * n))))
        train[rng.choice(n, size=k, replace=False)] = False
        return train
    codes, classes, _ = encode_labels(labels, what="labels")
    for j in range(len(classes)):
        idx = np.flatnonzero(codes == j)
        k = min(len(idx) - 1, max(1, int(round(test_fraction * len(idx)))))
        train[rng.choice(idx, size=k, replace=False)] = False
    return train


def one_hot(labels: Any) -> tuple[np.ndarray, tuple]:
    """Class labels (n,) → (the 0/1 indicator matrix Y (n, c), the sorted classes). Raises
    DataError for fewer than 2 classes or a class with a single sample."""
    _, classes, Y = encode_labels(labels, what="labels")
    return Y, classes


def subsample_per_class(data: ImageSet, per_class: int, seed: int = 0) -> ImageSet:
    """At most ``per_class`` images of every class of a labelled ImageSet, drawn without
    replacement (seeded), in their original order. Raises DataError if ``data`` has no labels."""
    if data.labels is None:
        raise DataError(f"{data.source} has no labels; subsample_per_class needs classes")
    if isinstance(per_class, bool) or not isinstance(per_class, numbers.Integral) or per_class < 1:
        raise ParameterError(f"per_class must be a positive integer, got {per_class!r}")
    rng = np.random.default_rng(_check_seed(seed))
    labels = np.asarray(data.labels)
    keep = []
    for c in np.unique(labels):
        idx = np.flatnonzero(labels == c)
        keep.extend(rng.choice(idx, size=min(per_class, len(idx)), replace=False))
    keep = np.sort(np.array(keep, dtype=int))
    targets = None if data.targets is None else data.targets[keep]
    return ImageSet(images=data.images[keep], labels=labels[keep],
                    names=tuple(data.names[i] for i in keep),
                    source=f"{data.source}, {per_class} per class (seed {seed})",
                    targets=targets, target_names=data.target_names)


# =========================================================================== synthetic 3-D (§5.1)
def synthetic_3d(seed: int = 0, n_samples: int = 200, n_in_plane: int = 20, n_out_of_plane: int = 20,
                 noise: float = 1.0, n_train: int = 100) -> RegressionData:
    """Paper 004 §5.1 (Sec. 5.1.1): 200 points on a plane in 3-D, 20 with in-plane noise, 20 with
    out-of-plane noise.

    Generator (MATLAB notation of the paper, samples as rows here): clean inputs
    ``D = [6·rand(2, n); 0ᵀ]ᵀ`` (two coordinates U[0, 6], the third 0: rank 2, the x–y plane);
    ``T* = randn(3, 4)`` (the paper says only "randomly generated", extraction §5.1); targets
    ``Y = [D, 1] T*ᵀ`` (noise-free); then ``n_in_plane`` random samples get N(0, noise²) added to
    coordinate 2 (in the plane) and ``n_out_of_plane`` others to coordinate 3 (out of it):
    ``X = D + E``. Split: ``n_train`` training samples holding half of each kind of corrupted
    sample (the paper: "both the training and testing sets contain half of the corrupted
    samples"), the rest is the test set. Everything is drawn from ``default_rng(seed)``.

    Returns RegressionData with X (n, 3), X_clean = D, Y (n, 3), T_true (3, 4) (intercept last),
    scored_columns (0, 1) (RAE_T scores the first two columns of T, as §5.1), kinds
    ``"in-plane"`` / ``"out-of-plane"`` (n,) bool, mask (n, 3) of the changed entries, shape None.

    Raises ParameterError for inconsistent counts or a bad seed.
    """
    seed = _check_seed(seed)
    for name, v in (("n_samples", n_samples), ("n_in_plane", n_in_plane),
                    ("n_out_of_plane", n_out_of_plane), ("n_train", n_train)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
            raise ParameterError(f"{name} must be a non-negative integer, got {v!r}")
    if n_in_plane + n_out_of_plane > n_samples:
        raise ParameterError(f"n_in_plane + n_out_of_plane = {n_in_plane + n_out_of_plane} exceeds "
                             f"n_samples = {n_samples}")
    if not 2 <= n_train <= n_samples - 1:
        raise ParameterError(f"n_train must be in [2, n_samples − 1 = {n_samples - 1}], got {n_train}")
    if not (isinstance(noise, numbers.Real) and np.isfinite(noise) and noise >= 0):
        raise ParameterError(f"noise must be a finite number >= 0, got {noise!r}")
    rng = np.random.default_rng(seed)
    D = np.zeros((n_samples, 3))
    D[:, :2] = 6.0 * rng.random((n_samples, 2))
    T_true = rng.standard_normal((3, 4))
    Y = D @ T_true[:, :3].T + T_true[:, 3]
    perm = rng.permutation(n_samples)
    inp, outp, rest = (perm[:n_in_plane], perm[n_in_plane:n_in_plane + n_out_of_plane],
                       perm[n_in_plane + n_out_of_plane:])
    X = D.copy()
    X[inp, 1] += noise * rng.standard_normal(len(inp))
    X[outp, 2] += noise * rng.standard_normal(len(outp))
    mask = np.zeros_like(X, dtype=bool)
    mask[inp, 1] = True
    mask[outp, 2] = True
    train = np.zeros(n_samples, dtype=bool)
    half_in, half_out = len(inp) // 2, len(outp) // 2
    train[inp[:half_in]] = True
    train[outp[:half_out]] = True
    n_rest = n_train - half_in - half_out
    if not 0 <= n_rest <= len(rest):
        raise ParameterError(f"n_train = {n_train} cannot hold half of the corrupted samples "
                             f"({half_in + half_out}) and the clean rest")
    train[rest[:n_rest]] = True
    is_in = np.zeros(n_samples, dtype=bool)
    is_in[inp] = True
    is_out = np.zeros(n_samples, dtype=bool)
    is_out[outp] = True
    return RegressionData(X=X, Y=Y, train=train, X_clean=D, T_true=T_true, scored_columns=(0, 1),
                          kinds={"in-plane": is_in, "out-of-plane": is_out}, mask=mask,
                          target_names=("y1", "y2", "y3"),
                          description=f"synthetic 3-D (paper 004 §5.1): {n_samples} points on a plane, "
                                      f"{n_in_plane} in-plane + {n_out_of_plane} out-of-plane N(0, {noise:g}²) "
                                      f"errors, {n_train} for training, seed {seed}")


# =========================================================================== image data
def regression_data(source: Any, targets: Any = None, test_fraction: float = 0.5, seed: int = 0,
                    task: str | None = None) -> RegressionData:
    """A :class:`RegressionData` from images: an ImageSet or a :class:`core.corruption.Corrupted`.

    Targets: ``targets`` (n,) or (n, p) numbers if given, else the source's CSV ``targets``
    (regression), else its ``labels`` (classification; every class needs >= 2 samples). ``task``
    ``"regression"`` / ``"classification"`` forces the choice. Appended outlier images of a
    Corrupted (``added``; they have no class) are dropped. The split is
    :func:`train_test_split` (stratified by class for classification), seeded.

    Raises DataError: no targets or labels; a class with a single sample (named); the number of
    targets differs from the number of images.
    """
    from ..corruption import Corrupted

    if isinstance(source, Corrupted):
        keep = ~np.asarray(source.added, dtype=bool)
        X = np.array(source.X[keep], dtype=float)
        X_clean = np.array(source.X_clean[keep], dtype=float)
        mask = np.array(source.mask[keep], dtype=bool)
        labels = None if source.labels is None else np.asarray(source.labels)[keep]
        shape = (int(source.shape[0]), int(source.shape[1]))
        kinds = {"corrupted": np.asarray(source.outliers)[keep]}
        csv_targets, names = None, None
        target_names: tuple[str, ...] = ()
        description = source.description
    elif isinstance(source, ImageSet):
        X = np.array(source.X, dtype=float)
        X_clean, mask, kinds = None, None, {}
        labels = None if source.labels is None else np.asarray(source.labels)
        shape = (int(source.shape[0]), int(source.shape[1]))
        csv_targets, target_names, names = source.targets, source.target_names, source.names
        description = source.source
        keep = np.ones(len(X), dtype=bool)
    else:
        raise DataError(f"source must be an ImageSet or a Corrupted, got {type(source).__name__}")
    n = X.shape[0]
    if task not in (None, "regression", "classification"):
        raise ParameterError(f"task must be 'regression', 'classification' or None, got {task!r}")
    if targets is not None:
        Y = np.array(targets, dtype=float)
        if Y.ndim == 1:
            Y = Y[:, None]
        if Y.shape[0] == len(keep) and len(keep) != n:
            Y = Y[keep]
        if Y.ndim != 2 or Y.shape[0] != n:
            raise DataError(f"targets must have one row per image ({n}), got shape {np.shape(targets)}")
        if not np.all(np.isfinite(Y)):
            raise DataError("targets contain NaN or infinite values")
        use_labels = False
        target_names = tuple(f"target_{j + 1}" for j in range(Y.shape[1]))
    elif csv_targets is not None and task != "classification":
        Y, use_labels = np.array(csv_targets, dtype=float), False
    elif labels is not None and task != "regression":
        use_labels = True
    else:
        raise DataError(f"{description}: no targets — give targets, a targets CSV, or labelled "
                        "images (one subfolder per class)")
    if use_labels:
        Y, classes = one_hot(labels)
        train = train_test_split(labels, test_fraction, seed, stratify=True)
        return RegressionData(X=X, Y=Y, train=train, X_clean=X_clean, labels=labels, classes=classes,
                              shape=shape, mask=mask, kinds=kinds, names=names,
                              target_names=tuple(str(c) for c in classes),
                              description=f"{description}; {len(classes)} classes")
    train = train_test_split(n, test_fraction, seed, stratify=False)
    return RegressionData(X=X, Y=Y, train=train, X_clean=X_clean, shape=shape, mask=mask, kinds=kinds,
                          names=names, target_names=tuple(target_names), description=description)


def digits_data(per_class: int = 30, size=None, digits=None, test_fraction: float = 0.5,
                seed: int = 0) -> RegressionData:
    """The built-in MNIST digits (:func:`core.datasets.mnist_digits`, 0–255) as a classification
    problem: ``per_class`` images per class (seeded), stratified split. For corrupted digits,
    corrupt :func:`digits_subset` and pass the Corrupted to :func:`regression_data`."""
    return regression_data(digits_subset(per_class, seed, size, digits), test_fraction=test_fraction, seed=seed,
                           task="classification")


def digits_subset(per_class: int, seed: int = 0, size=None, digits=None) -> ImageSet:
    """``subsample_per_class(mnist_digits(size=size, digits=digits), per_class, seed)``, with only
    the images kept resized (each image is resized on its own: the same images; resizing the 5,000
    digits to 96 × 96 first took 352 MB for the 300 kept)."""
    images = subsample_per_class(mnist_digits(digits=digits), per_class, seed)
    if size is None:
        return images
    return replace(images, images=resize_images(images.images, size))


def folder_data(path, size=None, targets_csv=None, test_fraction: float = 0.5,
                seed: int = 0) -> RegressionData:
    """A folder of images as a regression problem (numeric targets from ``targets_csv``, see
    :func:`core.datasets.load_targets_csv`) or, without a CSV, a classification problem with the
    subfolder names as classes (:func:`core.datasets.load_folder`'s labels)."""
    images = load_folder(path, size, targets_csv=targets_csv)
    return regression_data(images, test_fraction=test_fraction, seed=seed,
                           task="regression" if targets_csv is not None else "classification")


#: Which inputs a corruption may touch: key -> description.
SCOPES = {"both": "training and test inputs", "train": "training inputs only", "test": "test inputs only"}


def restrict_corruption(data: RegressionData, scope: str) -> RegressionData:
    """``data`` with its corruption kept on the training (``"train"``) or test (``"test"``) inputs
    only: the other rows get their clean values back (``X_clean``), mask and corruption kinds
    cleared there. The same rows are hit as for ``"both"`` (unchanged data), so scopes compare.

    Raises ParameterError for an unknown ``scope`` (see :data:`SCOPES`)."""
    if scope not in SCOPES:
        raise ParameterError(f"scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    if scope == "both" or data.X_clean is None:
        return data
    hit = data.train if scope == "train" else ~data.train
    X = np.where(hit[:, None], data.X, data.X_clean)
    mask = None if data.mask is None else data.mask & hit[:, None]
    kinds = {k: np.asarray(v) & hit for k, v in data.kinds.items()}
    return replace(data, X=X, mask=mask, kinds=kinds, description=f"{data.description} ({SCOPES[scope]})")


__all__ = ["RegressionData", "synthetic_3d", "train_test_split", "one_hot", "subsample_per_class",
           "regression_data", "digits_data", "digits_subset", "folder_data", "SCOPES", "restrict_corruption"]
