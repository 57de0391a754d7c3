"""Occlusions: a region of each chosen image replaced (rectangles, value blocks, black squares,
missing blocks).

* :func:`occlude_rectangles` — paper 000 (Oh & Kwak, *Generalized mean for robust principal
  component analysis*, Pattern Recognition 2016) §5.1 outlier type 1, paper 001 (Nie, Yuan &
  Huang, *Optimal mean robust principal component analysis*, ICML 2014) §5.2 and paper 002
  (Zhao, Meng & Xu, *Robust sparse principal component analysis*, Sci China Inf Sci 2014) §3.3.
* :func:`value_block` — paper 003 (Guan, Liu, Zhang, Tao & Davis, *Truncated Cauchy non-negative matrix
  factorization*, IEEE TPAMI 2019) §5.2.
* :func:`black_square`, :func:`missing_blocks` — paper 004 (Huang, Cabral & De la Torre,
  *Robust regression*, IEEE TPAMI 2016) §5.3, §2.7 / §5.5.

Every function takes a ``seed`` (``np.random.default_rng(seed)``), copies its input and returns a
:class:`~core.corruption.result.Corrupted` with nothing appended.
"""
from __future__ import annotations

import numpy as np

from .. import interrupt
from ..datasets import ImageSet
from ..errors import ParameterError
from ..params import ParamSpec
from .result import FRACTION, SEED, Corrupted, check_data, choose, images_word, labels_copy, n_hit

# The parameters of the functions below: each function checks its arguments with these specs, and
# the registry (core.corruption.registry) offers the same specs (other defaults or texts where a
# protocol has its own), so that a value is refused by one rule whichever way it comes in.
#: :func:`occlude_rectangles`'s ``content``
CONTENT = ParamSpec(name="content", symbol="content", kind="choice", default="dots",
                    doc="what fills the rectangle: random 0/255 dots, black or white",
                    choices=("dots", "black", "white"))
#: the two ends of :func:`occlude_rectangles`'s ``size_range`` (the registry's ``size_min`` / ``size_max``)
SIZE_MIN = ParamSpec(name="size_min", symbol="size min", kind="float", default=0.3,
                     doc="smallest rectangle side, as a fraction of the image side",
                     low=0.0, high=1.0, low_open=True)
SIZE_MAX = ParamSpec(name="size_max", symbol="size max", kind="float", default=0.6,
                     doc="largest rectangle side, as a fraction of the image side",
                     low=0.0, high=1.0, low_open=True)
#: :func:`value_block`'s ``size`` b and ``value``
BLOCK_SIZE = ParamSpec(name="size", symbol="b (px)", kind="int", default=12,
                       doc="block side in pixels (Guan et al. 2019: 10 to 22 on 32 × 32 faces)",
                       low=1, slider=(1, 64))
VALUE = ParamSpec(name="value", symbol="value", kind="float", default=550.0,
                  doc="grey level written in the block (Guan et al. 2019: 550, above the 0–255 range)",
                  low=0.0, slider=(0.0, 1000.0))
#: :func:`black_square`'s ``share``
SQUARE_SHARE = ParamSpec(name="share", symbol="share", kind="float", default=0.2,
                         doc="share of each image covered by the square (Huang et al. 2016: 5 %, 20 %, 40 %)",
                         low=0.0, high=1.0)
#: :func:`missing_blocks`'s ``share`` and ``block``
MISSING_SHARE = ParamSpec(name="share", symbol="share", kind="float", default=0.1,
                          doc="share of each image's entries that go missing (about; whole blocks)",
                          low=0.0, high=1.0)
BLOCK = ParamSpec(name="block", symbol="block (px)", kind="int", default=4,
                  doc="side of the missing square blocks in pixels", low=1, slider=(1, 32))

#: images placed between two :func:`core.interrupt.checkpoint` calls in the loops below: a cancel
#: stops them, and the app's window, whose GUI thread needs the interpreter lock these loops hold
#: in small pieces, is given way while it is late (a sweep on the 5,000 digits re-draws the
#: rectangles for every run: 20–40 ms of such a loop)
CHECK_EVERY = 64


def _check_size_range(size_range) -> tuple[float, float]:
    """``(lo, hi)`` with each end checked by :data:`SIZE_MIN` / :data:`SIZE_MAX` and lo <= hi, or
    ParameterError naming ``size_range``."""
    try:
        lo, hi = size_range
        lo, hi = SIZE_MIN.validate(lo), SIZE_MAX.validate(hi)
        if lo > hi:
            raise ParameterError("lo > hi")
    except (TypeError, ValueError):             # ParameterError is a ValueError
        raise ParameterError(f"size_range must be (lo, hi) with 0 < lo <= hi <= 1, got {size_range!r}") from None
    return lo, hi


def _checked(chosen):
    """The indices of ``chosen`` in order, with :func:`core.interrupt.checkpoint` before every
    :data:`CHECK_EVERY`-th (raises ``Cancelled`` when the caller's run is cancelled)."""
    for j, i in enumerate(chosen):
        if j % CHECK_EVERY == 0:
            interrupt.checkpoint()
        yield i


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
    fraction = FRACTION.validate(fraction)
    lo, hi = _check_size_range(size_range)
    content = CONTENT.validate(content)
    seed = SEED.validate(seed)
    X_clean, (H, W) = check_data(data)
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
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

    for i in _checked(chosen):
        h, w = fixed if size_px is not None else (side(lo, hi, H), side(lo, hi, W))
        top = int(rng.integers(0, H - h + 1))
        left = int(rng.integers(0, W - w + 1))
        if content == "dots":
            patch = rng.integers(0, 2, size=(h, w)).astype(np.float64) * 255.0
        else:
            patch = np.full((h, w), 0.0 if content == "black" else 255.0)
        images[i, top:top + h, left:left + w] = patch
        mask[i, top:top + h, left:left + w] = True

    mask = mask.reshape(n, -1)                # type: ignore[assignment]
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=np.asarray(mask.any(axis=1)), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=labels_copy(data),
                     description=f"rectangles ({content}) on "
                                 f"{len(chosen)} of {n} {images_word(n)}, seed {seed}")


def _place_square(images: np.ndarray, mask: np.ndarray, chosen: np.ndarray, side: int, value: float,
                  rng: np.random.Generator) -> None:
    """Fill one ``side`` × ``side`` square per chosen image (top-left corner uniform among the
    positions where it fits), in index order; mark it in ``mask``."""
    _, H, W = images.shape
    if side == 0:
        return
    for i in _checked(chosen):
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
    size = BLOCK_SIZE.validate(size)
    value = VALUE.validate(value)
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, (H, W) = check_data(data)
    if size > min(H, W):
        raise ParameterError(f"size must be at most the image's smaller side, min({H}, {W}) = "
                             f"{min(H, W)} pixels, got size={size}")
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
    images = X_clean.reshape(n, H, W).copy()
    mask = np.zeros((n, H, W), dtype=bool)
    _place_square(images, mask, chosen, size, value, rng)
    mask = mask.reshape(n, -1)                # type: ignore[assignment]
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=np.asarray(mask.any(axis=1)), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=labels_copy(data),
                     description=f"{size}×{size} blocks of value {value:g} on {len(chosen)} of "
                                 f"{n} {images_word(n)}, seed {seed}")


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
    share = SQUARE_SHARE.validate(share)
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, (H, W) = check_data(data)
    side = 0 if share == 0 else max(1, int(round(np.sqrt(share * H * W))))
    if side > min(H, W):
        raise ParameterError(f"share={share:g} needs a square of side {side} px, which does not fit "
                             f"in {H} × {W} images; share must be at most "
                             f"{min(H, W) ** 2 / (H * W):.3g} here")
    n = X_clean.shape[0]

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
    images = X_clean.reshape(n, H, W).copy()
    mask = np.zeros((n, H, W), dtype=bool)
    _place_square(images, mask, chosen, side, 0.0, rng)
    mask = mask.reshape(n, -1)                # type: ignore[assignment]
    return Corrupted(X=images.reshape(n, -1), X_clean=X_clean, mask=mask,
                     outliers=np.asarray(mask.any(axis=1)), added=np.zeros(n, dtype=bool),
                     shape=(H, W), labels=labels_copy(data),
                     description=f"black {side}×{side} squares ({side * side / (H * W):.1%} of each image) "
                                 f"on {len(chosen)} of {n} {images_word(n)}, seed {seed}")


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
    :meth:`core.base.SteppableEstimator.start` raises
    ``DataError("X contains … NaN or infinite value(s); remove or fill them first")``.

    Raises
    ------
    ParameterError : a parameter is out of range, or ``block`` is larger than the image (named).
    DataError : ``data`` is not a non-empty image set.
    """
    share = MISSING_SHARE.validate(share)
    block = BLOCK.validate(block)
    fraction = FRACTION.validate(fraction)
    seed = SEED.validate(seed)
    X_clean, (H, W) = check_data(data)
    if block > min(H, W):
        raise ParameterError(f"block must be at most the image's smaller side, min({H}, {W}) = "
                             f"{min(H, W)} pixels, got block={block}")
    n = X_clean.shape[0]
    target = share * H * W

    rng = np.random.default_rng(seed)
    chosen = choose(rng, n, n_hit(fraction, n))
    mask = np.zeros((n, H, W), dtype=bool)
    edges_y = [_grid_edges(o, block, H).tolist() for o in range(block)]     # per grid offset
    edges_x = [_grid_edges(o, block, W).tolist() for o in range(block)]
    for i in _checked(chosen):
        oy, ox = (int(v) for v in rng.integers(0, block, size=2))
        ry, rx = edges_y[oy], edges_x[ox]
        ny, nx = len(ry) - 1, len(rx) - 1
        covered = 0
        # (plain ints: numpy scalars made this loop, which holds the interpreter lock, ~4x slower)
        for c in rng.permutation(ny * nx).tolist():
            a, b = divmod(c, nx)                  # cell c of the row-major list of cells
            size = (ry[a + 1] - ry[a]) * (rx[b + 1] - rx[b])
            if abs(covered + size - target) < abs(covered - target):
                mask[i, ry[a]:ry[a + 1], rx[b]:rx[b + 1]] = True
                covered += size
    mask = mask.reshape(n, -1)                # type: ignore[assignment]
    X = X_clean.copy()
    X[mask] = np.nan
    return Corrupted(X=X, X_clean=X_clean, mask=mask, outliers=np.asarray(mask.any(axis=1)),
                     added=np.zeros(n, dtype=bool), shape=(H, W), labels=labels_copy(data),
                     description=f"missing {block}×{block} blocks (about {share:.0%} of each image, "
                                 f"NaN) on {len(chosen)} of {n} {images_word(n)}, seed {seed}")
