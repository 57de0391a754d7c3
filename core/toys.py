"""The papers' toy data sets (small synthetic point clouds), as :class:`~core.corruption.Corrupted`.

Each generator is seeded with ``np.random.default_rng(seed)`` and reproducible. A toy is a
``Corrupted`` whose rows are points (``shape = (1, n_features)``, so a row "image" is one point):

* ``X``: the data the methods see; ``outliers``: the planted outliers; ``added``: all False
  (the outliers are part of the recipe, not appended to another data set); ``labels``: None.
* ``X_clean``: per toy, either ``X`` itself (the outliers have no clean version) or, where the
  recipe has one, the noise-free / pre-corruption version — each function says which.
* ``mask``: the entries the outlier mechanism set (not the model's own noise).

:data:`TOYS` lists them with a :class:`~core.params.ParamSpec` per parameter (like
:data:`core.corruption.CORRUPTIONS`), and :func:`make_toy` builds one by key after validating.

Sources: paper 000 (Oh & Kwak 2016) §5.0, Figs. 1 and 2; paper 002 (Zhao, Meng & Xu 2014)
§3.1 (2-D example) and §3.2 (Hastie data, eq. (15), and the outlier protocol); paper 003 (Guan et
al., Truncated CauchyNMF) §5.1, Fig. 4 (non-negative points on y = 0.2x).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .params import HasParams, ParamSpec
from .corruption import Corrupted
from .errors import ParameterError

__all__ = ["robust_mean_toy", "line_toy", "sparse_2d_toy", "hastie_toy", "nmf_line_toy", "ToyInfo", "TOYS",
           "make_toy"]


def _toy(X, X_clean, outliers, mask, description, pure_outliers: bool = False) -> Corrupted:
    """``pure_outliers``: the outliers were drawn as such and have no clean version; they are
    marked ``added`` so that the metrics compare with the inliers' truth only (as for outlier
    images appended to a data set), never with the outliers themselves."""
    n, d = X.shape
    out = np.asarray(outliers, dtype=bool)
    return Corrupted(X=np.ascontiguousarray(X, dtype=np.float64),
                     X_clean=np.ascontiguousarray(X_clean, dtype=np.float64),
                     mask=mask, outliers=out, added=out.copy() if pure_outliers else np.zeros(n, dtype=bool),
                     shape=(1, d), labels=None, description=description)


def _checked(key: str, **params: Any) -> dict[str, Any]:
    return TOYS[key].validate(**params)


def robust_mean_toy(seed: int = 0) -> Corrupted:
    """Paper 000 Fig. 1 (generalized sample mean): 100 inliers from N(0, 0.5·I₂) followed by 10
    outliers from N((5, 5), 0.3·I₂) (0.5 and 0.3 are variances).

    Returns a Corrupted of 110 points × 2 coordinates; ``outliers`` marks the last 10; ``mask``
    their two coordinates; ``X_clean`` = ``X`` (the outliers have no clean version, so they are
    marked ``added`` and left out of the metrics; the clean centre is (0, 0)). Raises ParameterError for a bad seed.
    """
    seed = _checked("robust_mean", seed=seed)["seed"]
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0.0, np.sqrt(0.5), (100, 2)),
                   rng.normal(5.0, np.sqrt(0.3), (10, 2))])
    out = np.arange(110) >= 100
    return _toy(X, X.copy(), out, np.repeat(out[:, None], 2, axis=1),
                f"robust-mean toy (paper 000 Fig. 1): 100 inliers N(0, 0.5 I), 10 outliers N((5,5), 0.3 I), seed {seed}",
                pure_outliers=True)


def line_toy(seed: int = 0) -> Corrupted:
    """Paper 000 Fig. 2 (PCA-GM in 2-D): 110 points (x, y) with x ~ N(0, 1) and y = x + ε, where
    ε ~ N(0, 0.5²) for the first 100 (inliers) and ε ~ N(0, 3²) for the last 10 (outliers). The
    clean direction is 45°.

    Returns a Corrupted of 110 points × 2; ``outliers`` marks the last 10, ``mask`` their y
    coordinate; ``X_clean`` = ``X`` (the outliers are drawn as such, they have no clean version:
    marked ``added``, so the metrics measure against the inliers).
    Raises ParameterError for a bad seed.
    """
    seed = _checked("line", seed=seed)["seed"]
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(110)
    sd = np.where(np.arange(110) < 100, 0.5, 3.0)
    y = x + rng.standard_normal(110) * sd
    X = np.column_stack([x, y])
    out = np.arange(110) >= 100
    mask = np.zeros((110, 2), dtype=bool)
    mask[out, 1] = True
    return _toy(X, X.copy(), out, mask,
                f"line toy (paper 000 Fig. 2): y = x + ε, 100 inliers ε ~ N(0, 0.5²), 10 outliers ε ~ N(0, 3²), seed {seed}",
                pure_outliers=True)


#: Indices of x = 1.3 and x = 1.5 in the 2-D example (x_i = −2.4 + 0.1 i).
SPARSE_2D_OUTLIERS = (37, 39)


def sparse_2d_toy(seed: int = 0, outlier_value: float = 7.0) -> Corrupted:
    """Paper 002 §3.1 (2-D synthetic example): 50 points with x = −2.4, −2.3, …, 2.5 (step 0.1,
    computed as ``(i − 24)/10``) and y ~ N(0, 0.25) (variance); then the y at x = 1.3 and x = 1.5
    (rows 37 and 39) are set to ``outlier_value`` ("around 7").

    The true first PC ignoring the outliers is (1, 0). Returns a Corrupted of 50 points × 2;
    ``outliers`` marks rows 37 and 39, ``mask`` their y coordinate; ``X_clean`` is the data before
    the two y values were overwritten (their N(0, 0.25) draws). Raises ParameterError for a bad
    seed or a non-finite outlier_value.
    """
    v = _checked("sparse_2d", seed=seed, outlier_value=outlier_value)
    seed, value = v["seed"], v["outlier_value"]
    rng = np.random.default_rng(seed)
    x = (np.arange(50) - 24) / 10.0
    y = rng.normal(0.0, 0.5, 50)
    X_clean = np.column_stack([x, y])
    X = X_clean.copy()
    out = np.zeros(50, dtype=bool)
    out[list(SPARSE_2D_OUTLIERS)] = True
    X[out, 1] = value
    mask = np.zeros((50, 2), dtype=bool)
    mask[out, 1] = True
    return _toy(X, X_clean, out, mask,
                f"2-D sparse toy (paper 002 §3.1): 50 points, y ~ N(0, 0.25), y = {value:g} at x = 1.3 and 1.5, seed {seed}")


#: Supports of the true PCs of the Hastie data (0-based): PC1 on x5..x8 (V2), PC2 on x1..x4 (V1).
HASTIE_SUPPORTS = ((4, 5, 6, 7), (0, 1, 2, 3))


def hastie_toy(n: int = 1000, noise_var: float = 1.0, n_outliers: int = 0, outlier_var: float = 100.0,
               seed: int = 0) -> Corrupted:
    """The Zou–Hastie–Tibshirani data of paper 002 §3.2, eq. (15), with its outlier protocol.

    Three hidden factors ``V1 ~ N(0, 290)``, ``V2 ~ N(0, 300)``, ``V3 = −0.3 V1 + 0.925 V2 + ε``,
    ``ε ~ N(0, 1)``; ten variables ``x_i = V1 + ε_i`` (i = 1..4), ``V2 + ε_i`` (5..8),
    ``V3 + ε_i`` (9, 10), ``ε_i ~ N(0, noise_var)`` (the paper's noise extent σ²). The true PC1 is
    supported on x5..x8 and PC2 on x1..x4 (:data:`HASTIE_SUPPORTS`, 0-based), loadings 0.5.

    Outliers (paper's protocol: 9500 points + 500 outliers, δ² up to 6000): the last
    ``n_outliers`` of the ``n`` rows are replaced by points whose dims 1–8 are 0 and dims 9–10
    are independent N(0, outlier_var) (δ²).

    Returns a Corrupted of ``n`` points × 10. ``X_clean``: the noise-free version of the inliers
    (``x_i = V1``, ``V2`` or ``V3`` without ε_i) and ``X`` itself for the outliers (no clean
    version). ``outliers``/``mask``: the outlier rows (all 10 entries; the additive noise, which
    touches every inlier entry, is not in ``mask``).

    Raises ParameterError: a parameter out of range (named), or ``n_outliers > n``.
    """
    v = _checked("hastie", n=n, noise_var=noise_var, n_outliers=n_outliers, outlier_var=outlier_var, seed=seed)
    n, noise_var, m, outlier_var, seed = (v[k] for k in ("n", "noise_var", "n_outliers", "outlier_var", "seed"))
    if m > n:
        raise ParameterError(f"n_outliers must be <= n = {n}, got {m}")
    rng = np.random.default_rng(seed)
    V1 = rng.normal(0.0, np.sqrt(290.0), n)
    V2 = rng.normal(0.0, np.sqrt(300.0), n)
    V3 = -0.3 * V1 + 0.925 * V2 + rng.standard_normal(n)
    X_clean = np.column_stack([V1] * 4 + [V2] * 4 + [V3] * 2)
    X = X_clean + rng.normal(0.0, np.sqrt(noise_var), (n, 10))
    out = np.arange(n) >= n - m
    X[out] = 0.0
    X[out, 8:] = rng.normal(0.0, np.sqrt(outlier_var), (m, 2))
    X_clean[out] = X[out]
    mask = np.repeat(out[:, None], 10, axis=1)
    extra = f", {m} outliers (dims 9–10 ~ N(0, {outlier_var:g}))" if m else ""
    return _toy(X, X_clean, out, mask,
                f"Hastie data (paper 002 eq. 15): {n} points, noise σ² = {noise_var:g}{extra}, seed {seed}",
                pure_outliers=True)


#: Paper 003 Fig. 4: number of points, slope of the line, range of x.
NMF_LINE_N, NMF_LINE_SLOPE, NMF_LINE_X_RANGE = 180, 0.2, (0.0, 10.0)
#: Ranges of the additive contamination of the nmf_line toy (our choice; the paper gives none).
NMF_LINE_X_SHIFT, NMF_LINE_Y_SHIFT = (15.0, 35.0), (3.0, 7.0)
#: With ``direction="both"``, how many outliers are contaminated in x before the rest go to y.
NMF_LINE_BOTH_X = 40


def nmf_line_toy(n_outliers: int = 80, direction: str = "x", noise: float = 0.0, seed: int = 0) -> Corrupted:
    """Paper 003 Fig. 4 (Truncated CauchyNMF, breakdown on a line): 180 non-negative points on
    y = 0.2x, some contaminated in one coordinate.

    Clean points: x ~ U(0, 10) (the paper gives no range), y = 0.2·x, all 180 exactly on the
    line (the paper: "all data points are distributed in a one-dimensional subspace").

    Contamination (paper 003 §5.1: "randomly select 20 data points and contaminate their
    x-coordinates, with their y-coordinates retained"; another 20 in x; "an additional 40 …
    contaminate their y-coordinates while keeping their x-coordinates"): the outliers are the
    first ``n_outliers`` of a random permutation of the points, so for one seed the outlier sets
    of 20 ⊂ 40 ⊂ 80 are nested, as in the paper's cases (b) ⊂ (c) ⊂ (d), and a point's
    contaminated value does not depend on ``n_outliers``. The paper gives no magnitude; we add
    U(15, 35) to x (``direction="x"``) or U(3, 7) to y (``"y"``); ``"both"`` is the paper's
    case (d): the first 40 outliers in x, the rest in y. These magnitudes reproduce the paper's
    story for the baselines (checked with the closed forms, seeds 0–4): the L2-NMF line (leading
    singular vector) is wrong from 20 x-outliers on; the L1-NMF line (a weighted median of
    y/x, weights x) is exact at 20 and wrong at 40 x-outliers and at 80 ("both").

    Parameters
    ----------
    n_outliers : number of contaminated points, 0 … 179 (paper: 20, 40 in x; 80 = 40 x + 40 y).
    direction : ``"x"``, ``"y"`` or ``"both"`` (above).
    noise : standard deviation of Gaussian noise added to both coordinates of every point of
        ``X`` (clipped at 0 to stay non-negative); 0 (default) as in the paper. Useful because
        robust NMF scale estimates degenerate on exactly-zero residuals.
    seed : non-negative int for ``np.random.default_rng``.

    Returns
    -------
    Corrupted of 180 points × 2 (x, y), samples as rows, ``shape = (1, 2)``, all entries >= 0.
    ``X_clean`` the points on the line (before contamination and noise); ``outliers`` the
    contaminated points; ``mask`` the contaminated coordinate of each (noise is not in it).

    Raises ParameterError: a parameter out of range (named).
    """
    v = _checked("nmf_line", n_outliers=n_outliers, direction=direction, noise=noise, seed=seed)
    m, direction, noise, seed = (v[k] for k in ("n_outliers", "direction", "noise", "seed"))
    n = NMF_LINE_N
    rng = np.random.default_rng(seed)
    x = rng.uniform(*NMF_LINE_X_RANGE, n)
    order = rng.permutation(n)
    shift = np.column_stack([rng.uniform(*NMF_LINE_X_SHIFT, n), rng.uniform(*NMF_LINE_Y_SHIFT, n)])
    eps = rng.standard_normal((n, 2))
    X_clean = np.column_stack([x, NMF_LINE_SLOPE * x])
    mask = np.zeros((n, 2), dtype=bool)
    picked = order[:m]
    if direction == "x":
        mask[picked, 0] = True
    elif direction == "y":
        mask[picked, 1] = True
    else:
        mask[picked[:NMF_LINE_BOTH_X], 0] = True
        mask[picked[NMF_LINE_BOTH_X:], 1] = True
    X = X_clean + np.where(mask, shift, 0.0)
    if noise > 0:
        X = np.maximum(X + noise * eps, 0.0)
    out = mask.any(axis=1)
    how = {"x": "in x", "y": "in y", "both": f"first {NMF_LINE_BOTH_X} in x, the rest in y"}[direction]
    extra = f", noise σ = {noise:g}" if noise > 0 else ""
    return _toy(X, X_clean, out, mask,
                f"NMF line toy (paper 003 Fig. 4): 180 points on y = 0.2x, {m} contaminated ({how}){extra}, "
                f"seed {seed}")


# --------------------------------------------------------------------------- registry

@dataclass(frozen=True)
class ToyInfo(HasParams):
    """A registry entry: everything the app needs to offer a toy data set (named as a method's
    :class:`~core.params.MethodInfo` and a corruption's :class:`~core.corruption.CorruptionInfo`;
    the user's choice of a toy is a :class:`core.session.DataSpec` of kind ``"toy"``). Its name
    was ``ToySpec``, which still gives it with a DeprecationWarning until 1.0.

    Attributes
    ----------
    key : registry key (``"robust_mean"``, ...).
    name : display name.
    function : ``function(**params) -> Corrupted`` taking exactly the names of ``params``.
    params : one :class:`~core.params.ParamSpec` per parameter.
    summary : one-line description with the paper and figure.
    """

    key: str
    name: str
    function: Callable[..., Corrupted]
    params: tuple[ParamSpec, ...]
    summary: str


_SEED = ParamSpec(name="seed", symbol="seed", kind="int", default=0,
                  doc="random seed (same seed, same data)", low=0, slider=(0, 100))

#: Toy data sets by key, in the order the app should list them.
TOYS: dict[str, ToyInfo] = {
    spec.key: spec for spec in (
        ToyInfo(key="robust_mean", name="Robust mean (2-D)", function=robust_mean_toy, params=(_SEED,),
                summary="100 inliers around (0, 0) and 10 outliers around (5, 5): the arithmetic mean is "
                        "pulled away, a robust mean is not (paper 000 Fig. 1)."),
        ToyInfo(key="line", name="Line with outliers (2-D)", function=line_toy, params=(_SEED,),
                summary="Points along y = x with 10 high-noise outliers: PCA tilts away from 45°, "
                        "robust PCA less (paper 000 Fig. 2)."),
        ToyInfo(key="sparse_2d", name="Sparse 2-D example", function=sparse_2d_toy,
                params=(_SEED,
                        ParamSpec(name="outlier_value", symbol="y_out", kind="float", default=7.0,
                                  doc="y value of the two outliers at x = 1.3 and 1.5 (paper: around 7)",
                                  slider=(-10.0, 20.0))),
                summary="50 points along the x axis with two outliers at y ≈ 7: ℓ2 sparse PCA picks (0, 1), "
                        "ℓ1 (robust sparse) PCA picks (1, 0) (paper 002 §3.1)."),
        ToyInfo(key="hastie", name="Hastie data (10-D)", function=hastie_toy,
                params=(ParamSpec(name="n", symbol="n", kind="int", default=1000,
                                  doc="number of points (outliers included)", low=2, high=1_000_000,
                                  slider=(100, 10000)),
                        ParamSpec(name="noise_var", symbol="σ²", kind="float", default=1.0,
                                  doc="variance of the noise added to every variable (paper: 1 to 4000)",
                                  low=0.0, scale="log", slider=(1.0, 4000.0)),
                        ParamSpec(name="n_outliers", symbol="outliers", kind="int", default=0,
                                  doc="last rows replaced by outliers (dims 1–8 zero, dims 9–10 N(0, δ²)); "
                                      "paper: 500 of 10000",
                                  low=0, slider=(0, 500)),
                        ParamSpec(name="outlier_var", symbol="δ²", kind="float", default=100.0,
                                  doc="variance of the outliers' dims 9–10 (paper: 1 to 6000)",
                                  low=0.0, scale="log", slider=(1.0, 6000.0)),
                        _SEED),
                summary="Ten variables driven by three hidden factors; the true sparse PCs are x5–x8 and "
                        "x1–x4 (Zou, Hastie & Tibshirani; paper 002 eq. 15), optionally with outliers."),
        ToyInfo(key="nmf_line", name="Non-negative line y = 0.2x (2-D, NMF)", function=nmf_line_toy,
                params=(ParamSpec(name="n_outliers", symbol="outliers", kind="int", default=80,
                                  doc="points contaminated in one coordinate (paper: 20, 40, 80 of 180)",
                                  low=0, high=NMF_LINE_N - 1, slider=(0, NMF_LINE_N - 1)),
                        ParamSpec(name="direction", symbol="direction", kind="choice", default="x",
                                  doc="coordinate contaminated: x, y, or both (first 40 in x, the rest "
                                      "in y: the paper's case with 80)",
                                  choices=("x", "y", "both")),
                        ParamSpec(name="noise", symbol="σ", kind="float", default=0.0,
                                  doc="Gaussian noise on every coordinate (clipped at 0); paper: none",
                                  low=0.0, slider=(0.0, 1.0)),
                        _SEED),
                summary="180 non-negative points on y = 0.2x, some pushed off in x or y: L2-NMF breaks "
                        "with 20 x-outliers, L1-NMF with 40, Truncated CauchyNMF holds at 80 "
                        "(paper 003 Fig. 4)."),
    )
}


def make_toy(key: str, **params: Any) -> Corrupted:
    """Build the toy ``TOYS[key]`` with ``params`` (missing ones take their defaults), each
    checked by its :class:`ParamSpec` first.

    Raises ParameterError: unknown key (listing the known ones), unknown parameter names, or a
    value out of range (named).
    """
    try:
        spec = TOYS[key]
    except (KeyError, TypeError):
        raise ParameterError(f"unknown toy {key!r}; known: {', '.join(TOYS)}") from None
    return spec.function(**spec.validate(**params))


def __getattr__(name: str) -> Any:
    if name == "ToySpec":             # the registry entry's former name
        warnings.warn("core.toys.ToySpec is now core.toys.ToyInfo", DeprecationWarning, stacklevel=2)
        return ToyInfo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
