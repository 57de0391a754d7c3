"""What the app draws for one state, computed here so that the app holds no numerics.

:func:`snapshot` turns a :class:`~core.base.State` and the :class:`~core.corruption.Corrupted`
data it was computed on into ready-to-draw arrays: basis images, reconstructions and residuals of
a few samples, the weights, and the error metric. Images are (height, width) float64 arrays;
intensities on the 0–255 scale except basis images (unit-norm vectors, signed).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .base import State
from .corruption import Corrupted
from .metrics import reconstruction_error


@dataclass(frozen=True, eq=False)
class Snapshot:
    """Display data of one method at one iteration.

    Attributes
    ----------
    iteration, objective, converged : copied from the state.
    objective_history : (iteration + 1,) objective per iteration so far.
    basis : (n_basis, h, w) the first basis images (components reshaped), signed, unit norm.
    sample_weights : (n_samples,) relative weights in (0, 1], or None.
    log_weights : (n_samples,) ``log10(sample_weights)`` (<= 0: orders of magnitude below the
        largest weight), or None. Reweighting spreads weights over many decades (β ∝ e^(p−1)), so
        the weight chart plots these.
    outliers : (n_samples,) bool, samples the corruption touched (for colouring).
    rows : (len(samples), 4, h, w): per chosen sample, clean | corrupted | reconstruction | residual
        (residual = corrupted − reconstruction; all in grey levels).
    samples : indices of the chosen samples.
    error : paper 000 eq. (14) against the clean images, added outlier images excluded (grey levels).
    scalars : the method's own numbers.
    """

    method: str
    iteration: int
    objective: float
    converged: bool
    objective_history: np.ndarray
    basis: np.ndarray
    sample_weights: np.ndarray | None
    log_weights: np.ndarray | None
    outliers: np.ndarray
    rows: np.ndarray
    samples: np.ndarray
    error: float
    scalars: dict


def default_samples(data: Corrupted, count: int = 3) -> np.ndarray:
    """A few samples worth showing: corrupted originals first (they show what the method does),
    then clean ones, in index order."""
    touched = np.flatnonzero(data.outliers & ~data.added)
    clean = np.flatnonzero(~data.outliers)
    added = np.flatnonzero(data.added)
    pick = list(touched[: max(count - 1, 1)]) + list(clean[:1]) + list(added[:1])
    pick += [i for i in range(data.n_samples) if i not in pick]
    return np.array(pick[:count], dtype=int)


def snapshot(state: State, data: Corrupted, samples=None, n_basis: int = 10) -> Snapshot:
    """Everything a method column shows for ``state``; see :class:`Snapshot`."""
    h, w = data.shape
    samples = default_samples(data) if samples is None else np.asarray(samples, dtype=int)
    comps = state.components[:n_basis]
    Xs = data.X[samples]
    rec = state.reconstruct(Xs)
    rows = np.stack([data.X_clean[samples], Xs, rec, Xs - rec], axis=1).reshape(len(samples), 4, h, w)
    err = reconstruction_error(state.components, data.X, data.X_clean, include=~data.added)
    return Snapshot(method=state.method, iteration=state.iteration, objective=state.objective,
                    converged=state.converged, objective_history=np.array(state.objective_history),
                    basis=comps.reshape(len(comps), h, w), sample_weights=state.sample_weights,
                    log_weights=None if state.sample_weights is None else np.log10(state.sample_weights),
                    outliers=data.outliers, rows=rows, samples=samples, error=err,
                    scalars=dict(state.scalars))
