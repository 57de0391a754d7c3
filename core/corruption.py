"""Corruption models. Each returns the corrupted data with the clean data and what changed.

Intensities on the 0–255 grey-level scale. Every function takes a ``seed`` and is reproducible;
none modifies its input.

Within-sample corruption (the image keeps its place, some pixels are replaced):

* :func:`occlude_rectangles` — one rectangle per chosen image; paper 000 (PCA-GM) §5.1
  "outlier type 1" (rectangles of random 0/255 dots) and paper 001 (RPCA-OM) §5.2
  (20 % of the images, a block of 1/4 of the image: ``size_range=(0.5, 0.5)``).
* :func:`salt_and_pepper` — 0/255 pixels: independent per pixel (``exact=False``, key
  ``"salt_pepper"``) or exactly ``round(p · pixels)`` per image (``exact=True``, key
  ``"salt_pepper_exact"``, paper 003 (Truncated CauchyNMF) §5.2).
* :func:`laplace_noise` — additive Laplace noise of scale δ, paper 003 §5.2 (clipped at 0).
* :func:`value_block` — one b × b block of value 550 per image, paper 003 §5.2.
* :func:`black_square` — one black square covering a share of the image, paper 004 (Robust
  Regression) §5.3.
* :func:`missing_blocks` — square blocks of missing entries (NaN in ``X``, ``mask`` True), for the
  missing-data methods of paper 004 §2.7 / §5.5. Subspace methods refuse NaN data.

Whole-sample outliers (images appended at the end of the data set):

* :func:`add_dot_images` — paper 000 §5.1 "outlier type 2": dummy images of random 0/255 pixels.
* :func:`add_natural_outliers` — real images of something else (e.g. LFW non-faces).

:data:`CORRUPTIONS` lists them with a :class:`~core.params.ParamSpec` per parameter so that the
app can build its controls without knowing them; :func:`corrupt` applies one by key.

Which samples are hit: ``fraction`` in [0, 1] selects ``round(fraction * n)`` samples (Python's
``round``, halves to even), drawn without replacement with ``np.random.default_rng(seed)``.

Range of the values: the clean data are grey levels 0–255 and most corruptions stay in that
range. Two of paper 003's protocols deliberately leave it: :func:`laplace_noise` can exceed 255
(only the negative side is clipped, and only with ``clip=True``) and :func:`value_block` writes
550. :func:`missing_blocks` writes NaN.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .params import HasParams, ParamSpec
from .datasets import ImageSet, lfw_nonfaces, resize_images
from .errors import DataError, ParameterError


@dataclass(frozen=True, eq=False)
class Corrupted:
    """Corrupted data set and the truth it came from.

    Attributes
    ----------
    X : (n_samples, n_features) float64, the corrupted data the methods see (0–255; Laplace
        noise and value blocks can exceed 255, missing blocks are NaN: see the module notes).
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


# --------------------------------------------------------------------------- validation

def _check_data(data) -> tuple[np.ndarray, tuple[int, int]]:
    """A float64 copy of ``data.X`` and ``data.shape``, or :class:`DataError`."""
    try:
        X = np.array(data.X, dtype=np.float64)      # always a copy
        shape = tuple(int(s) for s in data.shape)
    except AttributeError:
        raise DataError(f"data must be an ImageSet, got {type(data).__name__}") from None
    if X.ndim != 2 or len(shape) != 2 or X.shape[1] != shape[0] * shape[1]:
        raise DataError(f"data must hold images of one shape; got X of shape {X.shape} and image shape {shape}")
    if X.shape[0] == 0:
        raise DataError("data is empty (0 images)")
    return X, shape


def _check_unit(name: str, value) -> float:
    """A number in [0, 1], or :class:`ParameterError` naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{name} must be a number in [0, 1], got {value!r}")
    v = float(value)
    if not 0.0 <= v <= 1.0:            # also rejects nan
        raise ParameterError(f"{name} must be in [0, 1], got {value!r}")
    return v


def _check_bool(name: str, value) -> bool:
    """A bool (``True``/``False``, numpy bools accepted), or :class:`ParameterError` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _check_real(name: str, value, low: float | None = None) -> float:
    """A finite number >= ``low``, or :class:`ParameterError` naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{name} must be a finite number, got {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ParameterError(f"{name} must be finite, got {value!r}")
    if low is not None and v < low:
        raise ParameterError(f"{name} must be >= {low:g}, got {value!r}")
    return v


def _check_int(name: str, value, low: int) -> int:
    """An integer >= ``low`` (an integral float such as 12.0 is accepted), or ParameterError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
    if isinstance(value, numbers.Integral):
        v = int(value)
    else:
        f = float(value)
        if not np.isfinite(f) or f != int(f):
            raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
        v = int(f)
    if v < low:
        raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
    return v


def _check_seed(seed) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ParameterError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _check_size_range(size_range) -> tuple[float, float]:
    bad = ParameterError(f"size_range must be (lo, hi) with 0 < lo <= hi <= 1, got {size_range!r}")
    try:
        lo, hi = size_range
    except (TypeError, ValueError):
        raise bad from None
    for v in (lo, hi):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise bad
    lo, hi = float(lo), float(hi)
    if not (0.0 < lo <= hi <= 1.0):
        raise bad
    return lo, hi


def _n_hit(fraction: float, n: int) -> int:
    return int(round(fraction * n))


def _choose(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """``k`` distinct sorted indices out of ``n``."""
    return np.sort(rng.choice(n, size=k, replace=False)) if k else np.zeros(0, dtype=np.intp)


def _labels_copy(data) -> np.ndarray | None:
    return None if data.labels is None else np.array(data.labels, copy=True)


def _outlier_labels(labels: np.ndarray | None, m: int) -> np.ndarray | None:
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


def _images_word(n: int) -> str:
    return "image" if n == 1 else "images"


# --------------------------------------------------------------------------- within-sample

def no_corruption(data: ImageSet) -> Corrupted:
    """The clean data unchanged, as a :class:`Corrupted` with an empty mask.

    Returns ``X == X_clean`` (separate copies of ``data.X``, (n, h*w) float64, 0–255), all flags
    False. Raises :class:`DataError` if ``data`` is not a non-empty image set.
    """
    X, shape = _check_data(data)
    n = X.shape[0]
    return Corrupted(X=X, X_clean=X.copy(), mask=np.zeros(X.shape, dtype=bool),
                     outliers=np.zeros(n, dtype=bool), added=np.zeros(n, dtype=bool),
                     shape=shape, labels=_labels_copy(data),
                     description=f"no corruption ({n} {_images_word(n)})")


def occlude_rectangles(data: ImageSet, fraction: float = 0.2, size_range=(0.3, 0.6),
                       content: str = "dots", seed: int = 0, size_px=None) -> Corrupted:
    """Occlude one random rectangle in each of a random ``fraction`` of the images.

    Source: paper 000 (PCA-GM) §5.1, outlier type 1 — "one rectangle" per selected image whose
    pixels are each set to 0 or 255 at random, size and location random (``content="dots"``);
    paper 001 (RPCA-OM) §5.2 — 20 % of the images, a block of 1/4 of the image area
    (``fraction=0.2, size_range=(0.5, 0.5)``).

    Drawing: ``round(fraction * n)`` images without replacement; for each (in index order) the
    rectangle's height is an integer drawn uniformly between ``round(lo * H)`` and
    ``round(hi * H)`` pixels (at least 1, at most H), likewise its width from W; its top-left
    corner is uniform among the positions where it fits entirely.

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    fraction : fraction of the images occluded, in [0, 1].
    size_range : ``(lo, hi)``, 0 < lo <= hi <= 1: range of each side as a fraction of the image's
        height / width.
    content : ``"dots"`` (each pixel independently 0 or 255 with probability 1/2),
        ``"black"`` (0) or ``"white"`` (255).
    seed : non-negative int for ``np.random.default_rng``.
    size_px : ``(height, width)`` in pixels, a fixed rectangle size overriding ``size_range``
        (clipped to the image); paper 002 §3.3 uses 10 × 18 on 28 × 28 digits.

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W). ``mask`` marks every pixel inside the
    rectangles, i.e. the *replaced* pixels, including those whose value happened to stay the
    same (a black pixel covered by black). ``outliers`` are the occluded images; nothing is added.

    Raises
    ------
    ParameterError : a parameter is out of range (the message names it).
    DataError : ``data`` is not a non-empty image set.
    """
    fraction = _check_unit("fraction", fraction)
    lo, hi = _check_size_range(size_range)
    if content not in ("dots", "black", "white"):
        raise ParameterError(f"content must be one of 'dots', 'black', 'white', got {content!r}")
    seed = _check_seed(seed)
    X_clean, (H, W) = _check_data(data)
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    images = X_clean.reshape(n, H, W).copy()
    mask = np.zeros((n, H, W), dtype=bool)

    def side(frac_lo: float, frac_hi: float, full: int) -> int:
        a = min(full, max(1, int(round(frac_lo * full))))
        b = min(full, max(a, int(round(frac_hi * full))))
        return int(rng.integers(a, b + 1))

    if size_px is not None:
        try:
            fixed = tuple(int(v) for v in size_px)
        except (TypeError, ValueError):
            fixed = ()
        if len(fixed) != 2 or min(fixed) < 1:
            raise ParameterError(f"size_px must be two positive integers (height, width), got {size_px!r}")
        fixed = (min(fixed[0], H), min(fixed[1], W))

    for i in chosen:
        h, w = fixed if size_px is not None else (side(lo, hi, H), side(lo, hi, W))
        top = int(rng.integers(0, H - h + 1))
        left = int(rng.integers(0, W - w + 1))
        if content == "dots":
            patch = rng.integers(0, 2, size=(h, w)).astype(np.float64) * 255.0
        else:
            patch = 0.0 if content == "black" else 255.0
        images[i, top:top + h, left:left + w] = patch
        mask[i, top:top + h, left:left + w] = True

    mask = mask.reshape(n, -1)
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=mask.any(axis=1), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=_labels_copy(data),
                     description=f"rectangles ({content}) on "
                                 f"{len(chosen)} of {n} {_images_word(n)}, seed {seed}")


def salt_and_pepper(data: ImageSet, fraction: float = 1.0, density: float = 0.1,
                    seed: int = 0, exact: bool = False) -> Corrupted:
    """Replace random pixels by 0 or 255 (half each) in a random ``fraction`` of the images.

    Two protocols:

    * ``exact=False`` (registry key ``"salt_pepper"``): on each of the ``round(fraction * n)``
      chosen images every pixel is, independently with probability ``density``, replaced by 0 or
      255 with probability 1/2 each. The number of replaced pixels per image is binomial.
    * ``exact=True`` (key ``"salt_pepper_exact"``): paper 003 (Truncated CauchyNMF) §5.2, "p % of
      the pixels in each image are set to 0 or the maximum value" — exactly
      ``round(density * H * W)`` pixels of each chosen image, a uniformly random subset, each set
      to 0 or 255 with probability 1/2 (the paper does not give the salt/pepper ratio; 50/50
      assumed). The paper uses p = 5 … 60 % on every image (``fraction=1``).

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    fraction : fraction of the images hit, in [0, 1].
    density : probability (``exact=False``) or share (``exact=True``) of the pixels of a chosen
        image that are replaced, in [0, 1].
    seed : non-negative int for ``np.random.default_rng``.
    exact : bool, which protocol (above). ``exact=False`` draws exactly as before this option
        existed (same seed, same result).

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W); ``mask`` marks the replaced pixels
    (including a pixel already 0 set to 0), ``outliers`` the images with at least one replaced
    pixel (a chosen image can, with a tiny ``density``, end up with none); nothing is added.

    Raises
    ------
    ParameterError : a parameter is out of range (the message names it).
    DataError : ``data`` is not a non-empty image set.
    """
    fraction = _check_unit("fraction", fraction)
    density = _check_unit("density", density)
    seed = _check_seed(seed)
    exact = _check_bool("exact", exact)
    X_clean, shape = _check_data(data)
    n, d = X_clean.shape

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    X = X_clean.copy()
    mask = np.zeros((n, d), dtype=bool)
    if len(chosen):
        if exact:
            k = int(round(density * d))
            order = np.argsort(rng.random((len(chosen), d)), axis=1)[:, :k]   # a random k-subset per row
            hit = np.zeros((len(chosen), d), dtype=bool)
            np.put_along_axis(hit, order, True, axis=1)
        else:
            hit = rng.random((len(chosen), d)) < density
        values = rng.integers(0, 2, size=(len(chosen), d)).astype(np.float64) * 255.0
        rows = X[chosen]
        rows[hit] = values[hit]
        X[chosen] = rows
        mask[chosen] = hit
    what = f"exactly {density:g} of the pixels" if exact else f"density {density:g}"
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=mask.any(axis=1),
                     added=np.zeros(n, dtype=bool), shape=shape, labels=_labels_copy(data),
                     description=f"salt & pepper ({what}) on {len(chosen)} of "
                                 f"{n} {_images_word(n)}, seed {seed}")


def laplace_noise(data: ImageSet, scale: float = 40.0, clip: bool = True, fraction: float = 1.0,
                  seed: int = 0) -> Corrupted:
    """Add Laplace noise of scale δ to every pixel of a random ``fraction`` of the images.

    Source: paper 003 (Truncated CauchyNMF) §5.2: every pixel of every ORL image gets additive
    Laplace(0, δ) noise, δ ∈ {40, 80, …, 280} grey levels (Table II). The paper calls δ the
    "deviation"; here it is the Laplace *scale* b (density exp(−|x|/b)/(2b); standard deviation
    √2·b). The paper does not say whether it clips; NMF methods refuse negative data, so
    ``clip=True`` (default) sets negative results to 0. Values above 255 are kept (not clipped):
    the noise stays symmetric above the data.

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    scale : δ, the Laplace scale in grey levels, >= 0 (0 adds nothing).
    clip : bool, set negative results to 0 (True) or keep them (False).
    fraction : fraction of the images hit, in [0, 1] (the paper: 1).
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W). ``mask`` marks exactly the entries whose
    value changed (``X != X_clean``): a pixel at 0 whose negative noise was clipped back to 0 is
    unchanged and not in the mask. ``outliers``: images with a changed entry; nothing is added.
    ``X`` lies in [0, ∞) with ``clip`` and in ℝ without.

    Raises
    ------
    ParameterError : a parameter is out of range (the message names it).
    DataError : ``data`` is not a non-empty image set.
    """
    scale = _check_real("scale", scale, low=0.0)
    clip = _check_bool("clip", clip)
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, shape = _check_data(data)
    n, d = X_clean.shape

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    X = X_clean.copy()
    if len(chosen):
        X[chosen] += rng.laplace(0.0, scale, size=(len(chosen), d)) if scale > 0 else 0.0
        if clip:
            np.maximum(X, 0.0, out=X)
    mask = X != X_clean
    clipped = "clipped at 0" if clip else "not clipped"
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=mask.any(axis=1),
                     added=np.zeros(n, dtype=bool), shape=shape, labels=_labels_copy(data),
                     description=f"Laplace noise (scale δ = {scale:g}, {clipped}) on {len(chosen)} of "
                                 f"{n} {_images_word(n)}, seed {seed}")


def _place_square(images: np.ndarray, mask: np.ndarray, chosen: np.ndarray, side: int, value: float,
                  rng: np.random.Generator) -> None:
    """Fill one ``side`` × ``side`` square per chosen image (top-left corner uniform among the
    positions where it fits), in index order; mark it in ``mask``."""
    _, H, W = images.shape
    if side == 0:
        return
    for i in chosen:
        top = int(rng.integers(0, H - side + 1))
        left = int(rng.integers(0, W - side + 1))
        images[i, top:top + side, left:left + side] = value
        mask[i, top:top + side, left:left + side] = True


def value_block(data: ImageSet, size: int = 12, value: float = 550.0, fraction: float = 1.0,
                seed: int = 0) -> Corrupted:
    """One ``size`` × ``size`` block filled with ``value`` per chosen image, at a random place.

    Source: paper 003 (Truncated CauchyNMF) §5.2 / Table IV: "we randomly position a b×b-sized
    block on each face image … and fill each block with a pixel array whose pixel values equal
    550" — deliberately above the 0–255 range, an extreme outlier. b ∈ {10, 12, …, 22} on 32 × 32
    ORL faces (9.8 % … 47.3 % of the pixels).

    Drawing: ``round(fraction * n)`` images without replacement; for each (in index order) the
    block's top-left corner is uniform among the positions where it fits entirely.

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    size : b, the block side in pixels, 1 <= size <= min(H, W).
    value : the grey level written in the block, finite and >= 0 (the paper: 550).
    fraction : fraction of the images hit, in [0, 1] (the paper: 1).
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W); ``mask`` marks every pixel of the blocks
    (the replaced pixels, even one that already had the value); ``outliers`` the hit images;
    nothing is added. ``X`` exceeds 255 inside the blocks when ``value`` does.

    Raises
    ------
    ParameterError : a parameter is out of range, or ``size`` is larger than the image (the
        message names the parameter).
    DataError : ``data`` is not a non-empty image set.
    """
    size = _check_int("size", size, low=1)
    value = _check_real("value", value, low=0.0)
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, (H, W) = _check_data(data)
    if size > min(H, W):
        raise ParameterError(f"size must be at most the image's smaller side, min({H}, {W}) = "
                             f"{min(H, W)} pixels, got size={size}")
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    images = X_clean.reshape(n, H, W).copy()
    mask = np.zeros((n, H, W), dtype=bool)
    _place_square(images, mask, chosen, size, value, rng)
    mask = mask.reshape(n, -1)
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=mask.any(axis=1), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=_labels_copy(data),
                     description=f"{size}×{size} blocks of value {value:g} on {len(chosen)} of "
                                 f"{n} {_images_word(n)}, seed {seed}")


def black_square(data: ImageSet, share: float = 0.2, fraction: float = 1.0, seed: int = 0) -> Corrupted:
    """One black (0) square covering ``share`` of the pixels of each chosen image, at a random place.

    Source: paper 004 (Robust Regression) §5.3 / Table 3: AR faces with "synthetic squares"
    covering 0 %, 5 %, 20 % or 40 % of the image, at a random location (the location is not
    stated; uniform assumed).

    The square's side is ``s = round(sqrt(share * H * W))`` pixels (at least 1 when
    ``share > 0``), so it covers ``s² / (H W)`` of the image: ``share`` up to pixel rounding
    (``|s² − share·H·W| <= sqrt(share·H·W) + 1/4``). Its top-left corner is uniform among the
    positions where it fits. ``share = 0`` changes nothing.

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    share : fraction of each chosen image's pixels covered, in [0, 1]; the square must fit, so at
        most ``min(H, W)² / (H W)`` (1 for square images).
    fraction : fraction of the images hit, in [0, 1].
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W); ``mask`` marks every pixel of the squares
    (replaced by 0, including pixels already black); ``outliers`` the hit images; nothing added.

    Raises
    ------
    ParameterError : a parameter is out of range, or the square for ``share`` does not fit in the
        image (the message names ``share`` and its largest value).
    DataError : ``data`` is not a non-empty image set.
    """
    share = _check_unit("share", share)
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, (H, W) = _check_data(data)
    side = 0 if share == 0 else max(1, int(round(np.sqrt(share * H * W))))
    if side > min(H, W):
        raise ParameterError(f"share={share:g} needs a square of side {side} px, which does not fit "
                             f"in {H} × {W} images; share must be at most "
                             f"{min(H, W) ** 2 / (H * W):.3g} here")
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    images = X_clean.reshape(n, H, W).copy()
    mask = np.zeros((n, H, W), dtype=bool)
    _place_square(images, mask, chosen, side, 0.0, rng)
    mask = mask.reshape(n, -1)
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=mask.any(axis=1), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=_labels_copy(data),
                     description=f"black {side}×{side} squares ({side * side / (H * W):.1%} of each image) "
                                 f"on {len(chosen)} of {n} {_images_word(n)}, seed {seed}")


def _grid_edges(offset: int, block: int, full: int) -> np.ndarray:
    """Cell boundaries 0 = e_0 < e_1 < … < e_m = full of a grid of step ``block`` shifted by
    ``offset`` (the first and last cells may be narrower)."""
    inner = np.arange(offset, full, block)
    return np.unique(np.concatenate([[0], inner, [full]]))


def missing_blocks(data: ImageSet, share: float = 0.1, block: int = 4, fraction: float = 1.0,
                   seed: int = 0) -> Corrupted:
    """Remove about ``share`` of the entries of each chosen image, in square blocks: NaN in ``X``.

    Source: paper 004 (Robust Regression) §2.7 (RR-Missing, eq. 9: Ω is the set of observed
    entries) and §5.5 (whole blocks of features missing). Here the missing blocks are square
    patches of ``block`` × ``block`` pixels.

    Drawing, for each chosen image (in index order): the image is cut into a grid of
    ``block`` × ``block`` cells whose origin is shifted by a random offset in
    ``[0, block)²`` (cells on the border are narrower), the cells are visited in a random order,
    and a cell is removed when that brings the number of missing entries closer to
    ``share · H · W``. The removed cells never overlap, and the number of missing entries ends
    within ``block² / 2`` of ``share · H · W`` (exact for ``share`` 0 and 1).

    Parameters
    ----------
    data : ImageSet, images (n, H, W) on the 0–255 scale.
    share : target fraction of each chosen image's entries that go missing, in [0, 1].
    block : side of the square blocks in pixels, 1 <= block <= min(H, W) (1 = scattered pixels).
    fraction : fraction of the images hit, in [0, 1].
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted with X, X_clean, mask of shape (n, H*W): ``X`` holds NaN exactly where ``mask`` is
    True (the missing entries, the complement of the paper's Ω: ``observed = ~mask``) and the
    clean values elsewhere; ``X_clean`` keeps every value; ``outliers`` the images with a missing
    entry; nothing is added.

    NaN data are only for methods that handle missing entries (RR-Missing / RLDA-Missing, which
    take ``~mask`` as Ω). Every subspace estimator refuses them:
    :meth:`core.base.SteppableEstimator.start` raises ``DataError("X contains … NaN or infinite
    value(s); remove or fill them first")``.

    Raises
    ------
    ParameterError : a parameter is out of range, or ``block`` is larger than the image (named).
    DataError : ``data`` is not a non-empty image set.
    """
    share = _check_unit("share", share)
    block = _check_int("block", block, low=1)
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, (H, W) = _check_data(data)
    if block > min(H, W):
        raise ParameterError(f"block must be at most the image's smaller side, min({H}, {W}) = "
                             f"{min(H, W)} pixels, got block={block}")
    n = X_clean.shape[0]
    target = share * H * W

    rng = np.random.default_rng(seed)
    chosen = _choose(rng, n, _n_hit(fraction, n))
    mask = np.zeros((n, H, W), dtype=bool)
    for i in chosen:
        oy, ox = (int(v) for v in rng.integers(0, block, size=2))
        ry, rx = _grid_edges(oy, block, H), _grid_edges(ox, block, W)
        hy, wx = np.diff(ry), np.diff(rx)
        cells = [(a, b) for a in range(len(hy)) for b in range(len(wx))]
        covered = 0
        for c in rng.permutation(len(cells)):
            a, b = cells[c]
            size = int(hy[a] * wx[b])
            if abs(covered + size - target) < abs(covered - target):
                mask[i, ry[a]:ry[a + 1], rx[b]:rx[b + 1]] = True
                covered += size
    mask = mask.reshape(n, -1)
    X = X_clean.copy()
    X[mask] = np.nan
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=mask.any(axis=1),
                     added=np.zeros(n, dtype=bool), shape=(H, W), labels=_labels_copy(data),
                     description=f"missing {block}×{block} blocks (about {share:.0%} of each image, "
                                 f"NaN) on {len(chosen)} of {n} {_images_word(n)}, seed {seed}")


# --------------------------------------------------------------------------- whole-sample outliers

def _append(data, X_clean: np.ndarray, shape, extra: np.ndarray, description: str) -> Corrupted:
    n, m = X_clean.shape[0], extra.shape[0]
    X = np.vstack([X_clean, extra])
    flags = np.concatenate([np.zeros(n, dtype=bool), np.ones(m, dtype=bool)])
    mask = np.zeros(X.shape, dtype=bool)
    mask[n:] = True
    return Corrupted(X=X, X_clean=X.copy(), mask=mask, outliers=flags.copy(), added=flags,
                     shape=shape, labels=_outlier_labels(data.labels, m), description=description)


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
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, shape = _check_data(data)
    n, d = X_clean.shape
    m = _n_hit(fraction, n)
    rng = np.random.default_rng(seed)
    dots = rng.integers(0, 2, size=(m, d)).astype(np.float64) * 255.0
    return _append(data, X_clean, shape, dots,
                   f"{m} random-dot {_images_word(m)} added to {n} {_images_word(n)}, seed {seed}")


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
    fraction = _check_unit("fraction", fraction)
    seed = _check_seed(seed)
    X_clean, shape = _check_data(data)
    n = X_clean.shape[0]
    if not isinstance(outliers, ImageSet):
        raise ParameterError(f"outliers must be an ImageSet, got {type(outliers).__name__}")
    m = _n_hit(fraction, n)
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
    extra = picked.reshape(m, -1).copy()
    return _append(data, X_clean, shape, extra,
                   f"{m} outlier {_images_word(m)} from {outliers.source} added to "
                   f"{n} {_images_word(n)}, seed {seed}")


# --------------------------------------------------------------------------- registry

@dataclass(frozen=True)
class CorruptionSpec(HasParams):
    """A registry entry: everything the app needs to offer a corruption model.

    Attributes
    ----------
    key : registry key (``"rectangles"``, ...).
    name : display name.
    function : ``function(data, **params) -> Corrupted`` taking exactly the names of ``params``.
    params : one :class:`~core.params.ParamSpec` per parameter (defaults, ranges, tooltips).
    summary : one-line description, with the paper section where applicable.
    missing_entries : the corruption removes entries (NaN in ``X``); only methods that handle
        missing data can use it, so the subspace method columns do not offer it.
    """

    key: str
    name: str
    function: Callable[..., Corrupted]
    params: tuple[ParamSpec, ...]
    summary: str
    missing_entries: bool = False


def _fraction_spec(default: float, doc: str) -> ParamSpec:
    return ParamSpec(name="fraction", symbol="fraction", kind="float", default=default, doc=doc,
                     low=0.0, high=1.0)


_CONTENT = ParamSpec(name="content", symbol="content", kind="choice", default="dots",
                     doc="what fills the rectangle: random 0/255 dots, black or white",
                     choices=("dots", "black", "white"))
_SEED = ParamSpec(name="seed", symbol="seed", kind="int", default=0,
                  doc="random seed (same seed, same corruption)", low=0, slider=(0, 100))


def _rectangles(data, *, fraction, size_min, size_max, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_range=(size_min, size_max),
                              content=content, seed=seed)


def _quarter_block(data, *, fraction, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_range=(0.5, 0.5), content=content, seed=seed)


def _fixed_rectangle(data, *, fraction, height, width, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_px=(height, width), content=content, seed=seed)


def _salt_pepper_exact(data, *, fraction, density, seed):
    return salt_and_pepper(data, fraction=fraction, density=density, seed=seed, exact=True)


def _natural_outliers(data, *, fraction, seed):
    return add_natural_outliers(data, lfw_nonfaces(), fraction=fraction, seed=seed)


#: Corruption models by key, in the order the app should list them.
CORRUPTIONS: dict[str, CorruptionSpec] = {
    spec.key: spec for spec in (
        CorruptionSpec(
            key="none", name="None", function=no_corruption, params=(),
            summary="The clean data, unchanged."),
        CorruptionSpec(
            key="rectangles", name="Occluding rectangles", function=_rectangles,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one rectangle"),
                ParamSpec(name="size_min", symbol="size min", kind="float", default=0.3,
                          doc="smallest rectangle side, as a fraction of the image side",
                          low=0.0, high=1.0, low_open=True),
                ParamSpec(name="size_max", symbol="size max", kind="float", default=0.6,
                          doc="largest rectangle side, as a fraction of the image side",
                          low=0.0, high=1.0, low_open=True),
                _CONTENT,
                _SEED,
            ),
            summary="One random rectangle per chosen image, filled with random 0/255 dots "
                    "(paper 000 §5.1) or black/white; paper 001 §5.2 uses 20 % of the images "
                    "and sides of 0.5."),
        CorruptionSpec(
            key="quarter_block", name="¼-area block (paper 001)", function=_quarter_block,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one block"),
                _CONTENT,
                _SEED,
            ),
            summary="Paper 001 §5.2: 20 % of the images get one block of ¼ of the image area "
                    "(half the height × half the width) at a random place."),
        CorruptionSpec(
            key="fixed_rectangle", name="10×18 dot rectangle (paper 002)", function=_fixed_rectangle,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one rectangle"),
                ParamSpec(name="height", symbol="height (px)", kind="int", default=10,
                          doc="rectangle height in pixels", low=1, slider=(1, 64)),
                ParamSpec(name="width", symbol="width (px)", kind="int", default=18,
                          doc="rectangle width in pixels", low=1, slider=(1, 64)),
                _CONTENT,
                _SEED,
            ),
            summary="Paper 002 §3.3: a 10 × 18 rectangle of random black and white dots at a random "
                    "place (on 28 × 28 digits; clipped to smaller images)."),
        CorruptionSpec(
            key="salt_pepper", name="Salt & pepper", function=salt_and_pepper,
            params=(
                _fraction_spec(1.0, "fraction of the images that get noise"),
                ParamSpec(name="density", symbol="density", kind="float", default=0.1,
                          doc="probability that a pixel is replaced by 0 or 255",
                          low=0.0, high=1.0),
                _SEED,
            ),
            summary="Independent pixels replaced by 0 or 255 in the chosen images."),
        CorruptionSpec(
            key="salt_pepper_exact", name="Salt & pepper, exact p % (paper 003)",
            function=_salt_pepper_exact,
            params=(
                _fraction_spec(1.0, "fraction of the images that get noise (paper 003: all)"),
                ParamSpec(name="density", symbol="p", kind="float", default=0.1,
                          doc="share of each image's pixels set to 0 or 255, exactly "
                              "(paper 003: 5 % to 60 %)",
                          low=0.0, high=1.0),
                _SEED,
            ),
            summary="Paper 003 §5.2: exactly p % of the pixels of each image set to 0 or 255 "
                    "(half each), at random places."),
        CorruptionSpec(
            key="laplace", name="Laplace noise (paper 003)", function=laplace_noise,
            params=(
                ParamSpec(name="scale", symbol="δ", kind="float", default=40.0,
                          doc="Laplace scale in grey levels (paper 003: 40 to 280)",
                          low=0.0, slider=(0.0, 300.0)),
                ParamSpec(name="clip", symbol="clip at 0", kind="bool", default=True,
                          doc="set negative values to 0 (NMF methods refuse negative data)"),
                _fraction_spec(1.0, "fraction of the images that get noise (paper 003: all)"),
                _SEED,
            ),
            summary="Paper 003 §5.2: Laplace(0, δ) noise added to every pixel, clipped at 0 "
                    "(values above 255 kept)."),
        CorruptionSpec(
            key="value_block", name="Block of value 550 (paper 003)", function=value_block,
            params=(
                ParamSpec(name="size", symbol="b (px)", kind="int", default=12,
                          doc="block side in pixels (paper 003: 10 to 22 on 32 × 32 faces)",
                          low=1, slider=(1, 64)),
                ParamSpec(name="value", symbol="value", kind="float", default=550.0,
                          doc="grey level written in the block (paper 003: 550, above the 0–255 range)",
                          low=0.0, slider=(0.0, 1000.0)),
                _fraction_spec(1.0, "fraction of the images that get a block (paper 003: all)"),
                _SEED,
            ),
            summary="Paper 003 §5.2: one b × b block filled with 550 per image at a random place "
                    "(an extreme outlier, above the data range)."),
        CorruptionSpec(
            key="black_square", name="Black square (paper 004)", function=black_square,
            params=(
                ParamSpec(name="share", symbol="share", kind="float", default=0.2,
                          doc="share of each image covered by the square (paper 004: 5 %, 20 %, 40 %)",
                          low=0.0, high=1.0),
                _fraction_spec(1.0, "fraction of the images that get a square"),
                _SEED,
            ),
            summary="Paper 004 §5.3: one black square covering a share of each image, at a random place."),
        CorruptionSpec(
            key="missing_blocks", name="Missing blocks (NaN, paper 004)", function=missing_blocks,
            params=(
                ParamSpec(name="share", symbol="share", kind="float", default=0.1,
                          doc="share of each image's entries that go missing (about; whole blocks)",
                          low=0.0, high=1.0),
                ParamSpec(name="block", symbol="block (px)", kind="int", default=4,
                          doc="side of the missing square blocks in pixels",
                          low=1, slider=(1, 32)),
                _fraction_spec(1.0, "fraction of the images with missing blocks"),
                _SEED,
            ),
            summary="Paper 004 §2.7/§5.5: square blocks of entries removed (NaN, mask = missing); "
                    "only for missing-data methods (RR-Missing) — subspace methods refuse NaN.",
            missing_entries=True),
        CorruptionSpec(
            key="dot_images", name="Random-dot images", function=add_dot_images,
            params=(
                _fraction_spec(0.3, "number of dummy images added, as a fraction of the data set"),
                _SEED,
            ),
            summary="Dummy images of random 0/255 pixels appended as whole-sample outliers "
                    "(paper 000 §5.1)."),
        CorruptionSpec(
            key="natural_outliers", name="Natural outliers (LFW non-faces)",
            function=_natural_outliers,
            params=(
                _fraction_spec(0.3, "number of LFW non-face images added, as a fraction of the "
                                    "data set (at most 100 images are available)"),
                _SEED,
            ),
            summary="Real non-face images (LFW background patches, resized to the data) appended "
                    "as whole-sample outliers."),
    )
}

#: The corruption the app starts with (its defaults: fraction 0.2, content "dots").
DEFAULT_CORRUPTION = "rectangles"


def as_imageset(data: Any, image_shape: tuple[int, int] | None = None) -> ImageSet:
    """``data`` as an :class:`ImageSet`: an ImageSet unchanged; a plain array of images
    ``(n_samples, height, width)``; or a data matrix ``(n_samples, n_features)`` with
    ``image_shape=(height, width)``. Grey levels 0–255 (not checked). No labels.

    Raises :class:`DataError` naming the shape when the array cannot be read as images."""
    if isinstance(data, ImageSet):
        return data
    try:
        arr = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"data must be an ImageSet or an array of images, got {type(data).__name__}") from None
    if arr.ndim == 2:
        if image_shape is None:
            raise DataError(f"a data matrix of shape {arr.shape} needs image_shape=(height, width) "
                            "to be corrupted as images; or pass images of shape (n, height, width)")
        h, w = (int(v) for v in image_shape)
        if h * w != arr.shape[1]:
            raise DataError(f"image_shape {image_shape} does not match the {arr.shape[1]} features of X")
        arr = arr.reshape(len(arr), h, w)
    elif arr.ndim != 3:
        raise DataError(f"images must have shape (n_samples, height, width), got an array of shape {arr.shape}")
    return ImageSet(images=arr, labels=None, names=tuple(f"array/{i}" for i in range(len(arr))),
                    source="array")


def corrupt(data: ImageSet | np.ndarray, key: str, *, image_shape: tuple[int, int] | None = None,
            **params: Any) -> Corrupted:
    """Apply the corruption ``CORRUPTIONS[key]`` with ``params`` (missing ones take defaults).

    ``data`` is an :class:`ImageSet`, an array of images ``(n_samples, height, width)``, or a
    data matrix ``(n_samples, n_features)`` with ``image_shape=(height, width)``
    (:func:`as_imageset`).

    Every parameter is checked with its :meth:`ParamSpec.validate`, and ``size_min <= size_max``
    for ``"rectangles"``, before any work.

    Returns
    -------
    Corrupted (see the individual functions for shapes).

    Raises
    ------
    ParameterError : unknown ``key`` (listing the known keys), unknown parameter names, or a value
        out of range (the message names the parameter).
    DataError : ``data`` is not a non-empty image set or array of images.
    """
    data = as_imageset(data, image_shape)
    try:
        spec = CORRUPTIONS[key]
    except (KeyError, TypeError):
        raise ParameterError(f"unknown corruption {key!r}; known: {', '.join(CORRUPTIONS)}") from None
    values = spec.validate(**params)
    if "size_min" in values and "size_max" in values and values["size_min"] > values["size_max"]:
        raise ParameterError(f"size_min must be <= size_max, got size_min={values['size_min']:g} "
                             f"> size_max={values['size_max']:g}")
    return spec.function(data, **values)
