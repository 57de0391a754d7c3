"""Pixel noise: no corruption, salt & pepper, Laplace noise.

* :func:`no_corruption` — the clean data as a :class:`~core.corruption.result.Corrupted`.
* :func:`salt_and_pepper` — 0/255 pixels, independent per pixel or exactly ``round(p · pixels)``
  per image (paper 003: Guan, Liu, Zhang, Tao & Davis, *Truncated Cauchy non-negative matrix
  factorization*, IEEE TPAMI 2019, §5.2).
* :func:`laplace_noise` — additive Laplace noise of scale δ, paper 003 §5.2.
"""
from __future__ import annotations

import numpy as np

from ..datasets import ImageSet
from ..params import ParamSpec
from .result import FRACTION, SEED, Corrupted, check_data, choose, images_word, labels_copy, n_hit, row_chunks

#: :func:`salt_and_pepper`'s ``density`` (the registry's "salt_pepper" offers it as it is)
DENSITY = ParamSpec(name="density", symbol="density", kind="float", default=0.1,
                    doc="probability that a pixel is replaced by 0 or 255", low=0.0, high=1.0)
#: :func:`salt_and_pepper`'s ``exact`` (a protocol, not a registry parameter: two keys)
EXACT = ParamSpec(name="exact", symbol="exact", kind="bool", default=False,
                  doc="exactly round(density · pixels) pixels per image instead of each with probability density")
#: :func:`laplace_noise`'s ``scale`` δ and ``clip``
SCALE = ParamSpec(name="scale", symbol="δ", kind="float", default=40.0,
                  doc="Laplace scale in grey levels (Guan et al. 2019: 40 to 280)",
                  low=0.0, slider=(0.0, 300.0))
CLIP = ParamSpec(name="clip", symbol="clip at 0", kind="bool", default=True,
                 doc="set negative values to 0 (NMF methods refuse negative data)")


def no_corruption(data: ImageSet) -> Corrupted:
    """The clean data unchanged, as a :class:`Corrupted` with an empty mask.

    Returns ``X_clean is X`` (one array: the images as rows, (n, h*w) float64, 0–255), all flags
    False. Raises :class:`DataError` if ``data`` is not a non-empty image set.
    """
    X, shape = check_data(data)
    n = X.shape[0]
    return Corrupted(X=X, X_clean=X, mask=np.zeros(X.shape, dtype=bool),
                     outliers=np.zeros(n, dtype=bool), added=np.zeros(n, dtype=bool),
                     shape=shape, labels=labels_copy(data),
                     description=f"no corruption ({n} {images_word(n)})")


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
    fraction = FRACTION.validate(fraction)
    density = DENSITY.validate(density)
    seed = SEED.validate(seed)
    exact = EXACT.validate(exact)
    X_clean, shape = check_data(data)
    n, d = X_clean.shape

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
    X = X_clean.copy()
    mask = np.zeros((n, d), dtype=bool)
    if len(chosen):
        # drawn in row chunks (row_chunks: the same numbers as one draw), all the hits first
        hit = np.zeros((len(chosen), d), dtype=bool)
        k = int(round(density * d))
        for rows in row_chunks(len(chosen), d):
            u = rng.random((rows.stop - rows.start, d))
            if exact:
                np.put_along_axis(hit[rows], np.argsort(u, axis=1)[:, :k], True, axis=1)   # a random k-subset per row
            else:
                np.less(u, density, out=hit[rows])
        for rows in row_chunks(len(chosen), d):
            values = rng.integers(0, 2, size=(rows.stop - rows.start, d)) * 255.0
            block, h = X[chosen[rows]], hit[rows]
            block[h] = values[h]
            X[chosen[rows]] = block
        mask[chosen] = hit
    what = f"exactly {density:g} of the pixels" if exact else f"density {density:g}"
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=np.asarray(mask.any(axis=1)),
                     added=np.zeros(n, dtype=bool), shape=shape, labels=labels_copy(data),
                     description=f"salt & pepper ({what}) on {len(chosen)} of "
                                 f"{n} {images_word(n)}, seed {seed}")


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
    scale = SCALE.validate(scale)
    clip = CLIP.validate(clip)
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, shape = check_data(data)
    n, d = X_clean.shape

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
    X = X_clean.copy()
    if len(chosen):
        for rows in (row_chunks(len(chosen), d) if scale > 0 else ()):
            X[chosen[rows]] += rng.laplace(0.0, scale, size=(rows.stop - rows.start, d))
        if clip:
            np.maximum(X, 0.0, out=X)
    mask = X != X_clean
    clipped = "clipped at 0" if clip else "not clipped"
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=np.asarray(mask.any(axis=1)),
                     added=np.zeros(n, dtype=bool), shape=shape, labels=labels_copy(data),
                     description=f"Laplace noise (scale δ = {scale:g}, {clipped}) on {len(chosen)} of "
                                 f"{n} {images_word(n)}, seed {seed}")
