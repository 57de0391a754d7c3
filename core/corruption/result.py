"""The result of every corruption, :class:`Corrupted`, and the checks and draws the corruptions share.

Every corruption returns a :class:`Corrupted`: the data the methods see, the clean data, the mask
of changed entries and the flags of touched and appended samples.

The public helpers below are the toolkit of a corruption function (docs/guide/corruptions.md,
"How to add a corruption"): :data:`SEED` and :func:`fraction_param` are the parameters every
corruption shares (a function checks its arguments with their :meth:`~core.params.ParamSpec.validate`,
the same rule the registry, the app and the sweep command apply: a
:class:`~core.errors.ParameterError` naming the parameter); :func:`check_data` checks the data (a
:class:`~core.errors.DataError`); :func:`n_hit` and :func:`choose` draw which samples are hit,
``round(fraction * n)`` samples (Python's ``round``, halves to even) without replacement from
``np.random.default_rng(seed)``; :func:`row_chunks` draws large arrays in pieces;
:func:`labels_copy`, :func:`outlier_labels` and :func:`images_word` fill the rest of a
:class:`Corrupted`.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..errors import DataError
from ..params import ParamSpec


@dataclass(frozen=True, eq=False)
class Corrupted:
    """Corrupted data set and the truth it came from.

    Attributes
    ----------
    X : (n_samples, n_features) float64 (float32 for float32 images), the corrupted data the
        methods see (0–255; Laplace noise and value blocks can exceed 255, missing blocks are NaN:
        see :mod:`core.corruption`).
    X_clean : (n_samples, n_features) the data before corruption. For added outlier images
        (``added[i]``) it equals ``X[i]`` (they have no clean version).
    mask : (n_samples, n_features) bool, True where the corruption changed or replaced a pixel.
    outliers : (n_samples,) bool, True for every sample the corruption touched.
    added : (n_samples,) bool, True for samples with no clean version: outlier images appended to
        the data set, or a toy example's pure outliers. The metrics against the truth leave them out.
    shape : (height, width) to view a row as an image.
    labels : (n_samples,) or None; appended outliers get the label ``-1`` / ``"outlier"``.
    description : a one-line human description (``"rectangles (dots) on 20 of 100 images, seed 0"``).
    """

    X: np.ndarray
    X_clean: np.ndarray
    mask: np.ndarray
    outliers: np.ndarray
    added: np.ndarray
    shape: tuple[int, int]
    labels: np.ndarray | None
    description: str

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def images(self) -> np.ndarray:
        """The corrupted data as images, (n_samples, height, width) (a view of ``X``)."""
        return self.X.reshape(self.n_samples, *self.shape)

    @property
    def clean_images(self) -> np.ndarray:
        """The clean data as images, (n_samples, height, width) (a view of ``X_clean``)."""
        return self.X_clean.reshape(self.n_samples, *self.shape)

    @property
    def n_outliers(self) -> int:
        """Number of samples the corruption touched (``outliers.sum()``)."""
        return int(np.count_nonzero(self.outliers))


# --------------------------------------------------------------------------- parameters and data

def fraction_param(default: float = 1.0, doc: str = "fraction of the images hit") -> ParamSpec:
    """The ``fraction`` parameter every corruption takes: a number in [0, 1], ``round(fraction * n)``
    of the n images are hit (or, for appended outliers, added). ``default`` and ``doc`` are the
    corruption's own; the range is the same for all."""
    return ParamSpec(name="fraction", symbol="fraction", kind="float", default=default, doc=doc,
                     low=0.0, high=1.0)


#: the ``fraction`` a corruption function checks its argument with (:meth:`ParamSpec.validate`)
FRACTION = fraction_param()
#: the ``seed`` of every corruption: an int >= 0 for ``np.random.default_rng``
SEED = ParamSpec(name="seed", symbol="seed", kind="int", default=0,
                 doc="random seed (same seed, same corruption)", low=0, slider=(0, 100))


def check_data(data) -> tuple[np.ndarray, tuple[int, int]]:
    """``data.X`` in float64 (float32 when it is float32: a session in single precision,
    :attr:`core.session.DataSpec.precision`) and ``data.shape``, or :class:`DataError`.

    A copy, so that the clean data a corruption returns cannot change with the caller's array;
    but ``data.X`` itself when it is read-only, C-ordered and of that dtype already (the images
    :func:`core.session.spec.prepare` loaded and owns, or those :func:`~core.session.spec.share_clean`
    keeps): copying it held a third array of the data's size while corrupting (the 5,000 digits at
    96 × 96 in double precision: 1,100 MB at the peak for 748 MB kept).

    Returns ``(X, (height, width))``: X of shape (n_samples, height * width), grey levels as given.
    Raises :class:`DataError` when ``data`` is not an :class:`~core.datasets.ImageSet`-like object
    of non-empty images of one shape."""
    try:
        given = np.asarray(data.X)
        dtype = np.float32 if given.dtype == np.float32 else np.float64
        if given.dtype == dtype and not given.flags.writeable and given.flags.c_contiguous:
            X = given
        else:
            X = np.array(given, dtype=dtype)  # a copy
        shape = tuple(int(s) for s in data.shape)
    except AttributeError:
        raise DataError(f"data must be an ImageSet, got {type(data).__name__}") from None
    if X.ndim != 2 or len(shape) != 2 or X.shape[1] != shape[0] * shape[1]:
        raise DataError(f"data must hold images of one shape; got X of shape {X.shape} and image shape {shape}")
    if X.shape[0] == 0:
        raise DataError("data is empty (0 images)")
    return X, shape


# --------------------------------------------------------------------------- draws

def n_hit(fraction: float, n: int) -> int:
    """The number of samples ``fraction`` of ``n`` hits: ``round(fraction * n)`` (Python's round,
    halves to even)."""
    return int(round(fraction * n))


#: Bytes of float64 random numbers a corruption draws at once: a corruption of the 5,000 digits at
#: 96 × 96 drew all of them at once (salt & pepper: 700 MB of temporaries for 176 MB of data).
CHUNK_BYTES = 8 * 2 ** 20


def row_chunks(m: int, d: int) -> Iterator[slice]:
    """Consecutive row slices of an (m, d) draw, each of at most :data:`CHUNK_BYTES` in float64
    (at least one row). A generator fills an array in C order, so drawing the chunks in turn gives
    the numbers of one whole draw (the corruptions' results do not depend on the chunks)."""
    step = max(1, CHUNK_BYTES // (8 * max(d, 1)))
    for a in range(0, m, step):
        yield slice(a, min(a + step, m))


def choose(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``k`` distinct sorted indices out of ``range(n)``, drawn without replacement from ``rng``
    (shape (k,), an empty int array for k = 0, which draws nothing)."""
    return np.sort(rng.choice(n, size=k, replace=False)) if k else np.zeros(0, dtype=np.intp)


def labels_copy(data) -> np.ndarray | None:
    """A copy of ``data.labels`` (None stays None): a corruption that keeps the samples in place
    returns it as :attr:`Corrupted.labels`."""
    return None if data.labels is None else np.array(data.labels, copy=True)


def outlier_labels(labels: np.ndarray | None, m: int) -> np.ndarray | None:
    """``labels`` followed by ``m`` outlier labels: -1 for numeric labels, "outlier" otherwise."""
    if labels is None:
        return None
    labels = np.asarray(labels)
    kind = labels.dtype.kind
    if kind in "biu":
        return np.concatenate([labels.astype(np.int64), np.full(m, -1, dtype=np.int64)])
    if kind == "f":
        return np.concatenate([labels, np.full(m, -1.0, dtype=labels.dtype)])
    if kind == "O":
        numeric = all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in labels)
        extra = np.array([-1 if numeric else "outlier"] * m, dtype=object)
        return np.concatenate([labels, extra])
    return np.concatenate([labels.astype(str), np.full(m, "outlier")])


def images_word(n: int) -> str:
    """"image" or "images" for ``n`` of them (a :attr:`Corrupted.description` says "20 of 100 images")."""
    return "image" if n == 1 else "images"
