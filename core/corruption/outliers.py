"""Whole-sample outliers: images appended at the end of the data set (random-dot images, natural
non-face images).

:func:`add_dot_images` follows paper 000 (Oh & Kwak, *Generalized mean for robust principal
component analysis*, Pattern Recognition 2016) §5.1 outlier type 2. Appended rows have no clean
version: ``added`` and ``outliers`` are True, the whole ``mask`` row is True and ``X_clean``
equals ``X`` there. The first rows are the clean images unchanged, so ``X_clean`` *is* ``X`` (one
array: 457 MB less for the 5,000 digits at 96 × 96 with 1,500 dot images, in double precision).
"""
from __future__ import annotations

import numpy as np

from ..datasets import ImageSet, resize_images
from ..errors import ParameterError
from .result import FRACTION, SEED, Corrupted, check_data, images_word, n_hit, outlier_labels, row_chunks


def _append(data, X_clean: np.ndarray, shape, m: int, fill, description: str) -> Corrupted:
    """X_clean with m rows appended, which ``fill(out)`` writes into ``out`` (m, d) of X's dtype
    (float32 images stay float32)."""
    n = X_clean.shape[0]
    X = np.empty((n + m, X_clean.shape[1]), dtype=X_clean.dtype)
    X[:n] = X_clean
    fill(X[n:])
    flags = np.concatenate([np.zeros(n, dtype=bool), np.ones(m, dtype=bool)])
    mask = np.zeros(X.shape, dtype=bool)
    mask[n:] = True
    return Corrupted(X=X, X_clean=X, mask=mask, outliers=flags.copy(), added=flags,
                     shape=shape, labels=outlier_labels(data.labels, m), description=description)


def add_dot_images(data: ImageSet, fraction: float = 0.3, seed: int = 0) -> Corrupted:
    """Append ``round(fraction * n)`` dummy images whose every pixel is 0 or 255 at random.

    Source: paper 000 (PCA-GM) §5.1, outlier type 2 (80/160/240 dummy images added to 800 faces,
    i.e. ``fraction`` 0.1/0.2/0.3).

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    fraction : number of images added, as a fraction of n, in [0, 1].
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with n + m rows (m = ``round(fraction * n)``), X of shape (n + m, H*W). The first n
    rows are the clean data unchanged; the appended rows have ``added``, ``outliers`` and the
    whole ``mask`` row True, and ``X_clean`` equal to ``X``. Appended labels are ``-1`` (integer
    labels) or ``"outlier"`` (string labels); ``None`` stays ``None``.

    Raises
    ------
    ParameterError : a parameter is out of range (the message names it).
    DataError : ``data`` is not a non-empty image set.
    """
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, shape = check_data(data)
    n, d = X_clean.shape
    m = n_hit(fraction, n)
    rng = np.random.default_rng(seed)

    def fill(out):                 # in row chunks (row_chunks: the same numbers as one draw)
        for rows in row_chunks(m, d):
            out[rows] = rng.integers(0, 2, size=(rows.stop - rows.start, d)) * 255.0

    return _append(data, X_clean, shape, m, fill,
                   f"{m} random-dot {images_word(m)} added to {n} {images_word(n)}, seed {seed}")


def add_natural_outliers(data: ImageSet, outliers: ImageSet, fraction: float = 0.3,
                         seed: int = 0) -> Corrupted:
    """Append ``round(fraction * n)`` images drawn without replacement from ``outliers``.

    Typically ``outliers = lfw_nonfaces()`` (background patches) for the LFW faces. Outlier
    images of another shape are resized to ``data.shape`` with :func:`core.datasets.resize_images`.

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    outliers : ImageSet to draw the outlier images from (0–255 scale).
    fraction : number of images added, as a fraction of n, in [0, 1].
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with n + m rows, laid out as in :func:`add_dot_images`.

    Raises
    ------
    ParameterError : a parameter is out of range, or ``fraction`` asks for more images than
        ``outliers`` holds (the message names ``fraction`` and the available count).
    DataError : ``data`` or ``outliers`` is not a non-empty image set.
    """
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, shape = check_data(data)
    n = X_clean.shape[0]
    if not isinstance(outliers, ImageSet):
        raise ParameterError(f"outliers must be an ImageSet, got {type(outliers).__name__}")
    m = n_hit(fraction, n)
    available = len(outliers)
    if m > available:
        raise ParameterError(f"fraction={fraction:g} asks for {m} outlier images "
                             f"(round({fraction:g} * {n})) but only {available} are available "
                             f"in {outliers.source!r}")
    rng = np.random.default_rng(seed)
    idx = np.sort(rng.choice(available, size=m, replace=False)) if m else np.zeros(0, dtype=np.intp)
    picked = np.asarray(outliers.images, dtype=np.float64)[idx]
    if tuple(outliers.shape) != tuple(shape):
        picked = resize_images(picked, shape)
    extra = picked.reshape(m, -1)
    return _append(data, X_clean, shape, m, lambda out: np.copyto(out, extra, casting="same_kind"),
                   f"{m} outlier {images_word(m)} from {outliers.source} added to "
                   f"{n} {images_word(n)}, seed {seed}")
