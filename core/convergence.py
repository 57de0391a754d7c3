"""How an iterative run ends, in one place for every method (subspace, NMF and regression).

A run ends in one of three ways, and the library and the app say which:

* ``"converged"``: the method's own stopping rule (stated in its docstring) was met;
* ``"max_iter"``: ``max_iter`` iterations were done first: :func:`warn_unconverged` emits
  scikit-learn's :class:`~sklearn.exceptions.ConvergenceWarning`;
* ``"diverged"``: the solver met NaN/inf or left the data's range: it raised
  :class:`~core.errors.SolverError`, whose ``iteration`` and ``reason`` say where and why.

Also the checks the bases apply to every state (:func:`check_finite`, :func:`check_within_range`)
and the refusal of data with no variation (:func:`check_varies`).
"""
from __future__ import annotations

import contextlib
import math
import warnings
from typing import Any, Iterator, Mapping

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .errors import DataError, SolverError

__all__ = ["ConvergenceWarning", "RUNNING", "CONVERGED", "MAX_ITER", "DIVERGED", "status",
           "describe", "warn_unconverged", "check_finite", "check_within_range", "check_varies",
           "check_scale", "numeric_failures", "RANGE_MARGIN", "SCALE_HEADROOM"]

RUNNING, CONVERGED, MAX_ITER, DIVERGED = "running", "converged", "max_iter", "diverged"

#: Diagnostics (state scalars) must be finite too.
CHECK_SCALARS = True

#: A fit whose values leave ``[min(X) − m·R, max(X) + m·R]`` (R = max(X) − min(X)) has diverged.
RANGE_MARGIN = 4.0


def status(converged: bool, iteration: int, max_iter: int | None) -> str:
    """``"converged"``, ``"max_iter"`` or ``"running"`` for a state at ``iteration``."""
    if converged:
        return CONVERGED
    if max_iter is not None and iteration >= int(max_iter):
        return MAX_ITER
    return RUNNING


def describe(kind: str, iteration: int, max_iter: int | None = None, reason: str = "") -> str:
    """The one sentence the app shows under a column: *converged at iteration N*, *stopped at
    max_iter (N) without converging*, *diverged at iteration N: reason*, or *iteration N*."""
    if kind == CONVERGED:
        return f"converged at iteration {iteration}"
    if kind == MAX_ITER:
        return f"stopped at max_iter ({max_iter}) without converging"
    if kind == DIVERGED:
        return f"diverged at iteration {iteration}: {reason}" if reason else f"diverged at iteration {iteration}"
    return f"running, iteration {iteration}"


def warn_unconverged(method: str, max_iter: int, stacklevel: int = 3) -> None:
    """Emit :class:`~sklearn.exceptions.ConvergenceWarning`: ``method`` stopped at ``max_iter``."""
    warnings.warn(f"{method} stopped at max_iter = {max_iter} before its stopping rule was met; "
                  "raise max_iter or tol to let it converge", ConvergenceWarning, stacklevel=stacklevel)


def _all_finite(arr: Any) -> bool:
    """Every entry of ``arr`` finite, from its minimum and maximum (NaN propagates through both,
    ±inf shows in one): two passes and no boolean temporary of the array's size (``np.isfinite``'s
    is n × d bytes, 164 MB per array at 40,000 × 4096, written and page-faulted at every state)."""
    a = np.asarray(arr)
    if a.size == 0 or a.dtype.kind in "biu":
        return True
    if a.dtype.kind != "f":
        return bool(np.all(np.isfinite(a)))
    return math.isfinite(float(a.min())) and math.isfinite(float(a.max()))


def check_finite(method: str, iteration: int, objective: float, arrays: Mapping[str, Any],
                 scalars: Mapping[str, float]) -> None:
    """Raise :class:`SolverError` if the objective, an array or a scalar is NaN or infinite."""
    if not math.isfinite(objective):
        raise SolverError(method, iteration, f"the objective is {objective} (not finite); the data may "
                          "hold extreme values or duplicate samples: try other parameters or check the data")
    for name, arr in arrays.items():
        if arr is not None and not _all_finite(arr):
            raise SolverError(method, iteration, f"{name} contains NaN or infinity")
    for name, v in (scalars.items() if CHECK_SCALARS else ()):
        try:
            ok = math.isfinite(float(v))
        except (TypeError, ValueError):
            continue
        if not ok:
            raise SolverError(method, iteration, f"its diagnostic {name} is {v}")


def check_within_range(method: str, iteration: int, values: np.ndarray | None,
                       data_range: tuple[float, float] | None, what: str = "the fitted values") -> None:
    """Raise :class:`SolverError` when ``values`` leave the data's range by more than
    :data:`RANGE_MARGIN` times its width (a fit that drifts away from the data it fits)."""
    if values is None or data_range is None:
        return
    lo, hi = data_range
    width = max(hi - lo, abs(hi), abs(lo), np.finfo(float).tiny)
    vmin, vmax = float(np.min(values)), float(np.max(values))
    if vmax > hi + RANGE_MARGIN * width or vmin < lo - RANGE_MARGIN * width:
        raise SolverError(method, iteration, f"{what} reach [{vmin:.4g}, {vmax:.4g}], far outside the "
                          f"data's range [{lo:.4g}, {hi:.4g}]")


#: headroom kept below the floating-point maximum for the products the methods form from the
#: data (weighted Gram matrices, squared residuals summed with weights, objective sums)
SCALE_HEADROOM = 1e4


def check_scale(X: np.ndarray, what: str = "X") -> None:
    """Raise :class:`DataError` when the entries of ``X`` are so large that a sum of their squares
    would overflow ``X``'s floating-point type: every method forms such sums (norms, Gram
    matrices, objectives), and one entry of 1e300 made PCA report an objective of 0.0 and other
    methods fail with a foreign OverflowError or LinAlgError. The limit is
    ``sqrt(finfo(dtype).max / (X.size · SCALE_HEADROOM))`` (about 1e148 for a million float64
    entries, 1e13 in float32): grey levels on the 0–255 scale are far below it. NaN entries are
    ignored."""
    if X.size == 0:
        return
    info = np.finfo(X.dtype if np.issubdtype(X.dtype, np.floating) else np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        top = max(abs(float(np.nanmax(X))), abs(float(np.nanmin(X))))
    limit = math.sqrt(float(info.max) / (X.size * SCALE_HEADROOM))
    if top > limit:
        raise DataError(f"{what} has entries as large as {top:.3g}: sums of their squares would overflow "
                        f"{info.dtype} (the largest magnitude these data may have is about {limit:.3g}); "
                        "rescale the data, e.g. to grey levels 0-255")


@contextlib.contextmanager
def numeric_failures(method: str, iteration: int) -> Iterator[None]:
    """Within this block, a numerical failure (OverflowError, FloatingPointError, a division by a
    parameter as small as 5e-324, numpy's LinAlgError: an SVD or eigensolver that did not
    converge) becomes a
    :class:`SolverError` naming ``method`` and ``iteration``, so a run never ends in a foreign
    exception."""
    try:
        yield
    except (OverflowError, FloatingPointError, ZeroDivisionError, np.linalg.LinAlgError) as exc:
        raise SolverError(method, iteration, f"{type(exc).__name__}: {str(exc)[:160]}") from exc


def check_varies(X: np.ndarray, what: str = "X") -> None:
    """Raise :class:`DataError` when every sample (row) of ``X`` is the same, e.g. all-zero data:
    there is no variation to learn a subspace or a regressor from. NaN entries are ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        spread = np.nanmax(X, axis=0) - np.nanmin(X, axis=0)
    if not np.any(spread > 0):
        finite = X[np.isfinite(X)]
        if finite.size and finite.min() == finite.max():
            kind = "all zero" if finite.max() == 0 else f"all equal to {finite.max():g}"
        else:
            kind = "identical rows"
        raise DataError(f"every sample of {what} is the same ({kind}): there is no variation to learn from; "
                        "choose other data or a corruption that leaves some of the images")
