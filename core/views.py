"""What the app draws for one state, computed here so that the app holds no numerics.

:func:`snapshot` turns a :class:`~core.base.State` and the :class:`~core.corruption.Corrupted`
data it was computed on into ready-to-draw arrays: basis images, reconstructions and residuals of
a few samples, the weights, and the error metric. Images are (height, width) float64 arrays;
intensities on the 0–255 scale except basis images (unit-norm vectors, signed).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from .base import State
from .corruption import Corrupted
from .metrics import outlier_auc, principal_angles, reconstruction_error, total_reconstruction_error


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
    scalar_history : name → (iteration + 1,) array of that scalar per iteration (NaN before it existed).
    metrics : name → value, for a metrics panel: ``"eq. 14 error (000)"``, ``"Σ‖xʳ−xᵒ‖ (001)"``
        (each method's own reconstruction of the training samples vs the clean ones, added
        outliers excluded), ``"weights AUC"`` (ROC AUC of the weights as an outlier detector;
        absent without weights or without corrupted samples), ``"angle to clean PCA (°)"`` (largest
        principal angle to the subspace PCA learns from the clean data, same k).
    sparse_maps : (len(samples), h, w) the rows of the sparse part E for the chosen samples, or None.
    basis_zero : (n_basis, h, w) bool, True where a basis image is exactly 0 (sparse loadings),
        or None when no basis image has a zero.
    details : the method's other arrays (e.g. ``"restart objectives"``).
    points : (n_samples, 2) the data when it has 2 features (toy examples: draw a scatter with
        ``mean`` and the ``directions``), else None.
    directions : (n_components, 2) the components when the data has 2 features, else None.
    mean : (n_features,) the state's mean.
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
    scalar_history: dict
    metrics: dict
    sparse_maps: np.ndarray | None
    basis_zero: np.ndarray | None
    details: dict
    points: np.ndarray | None
    directions: np.ndarray | None
    mean: np.ndarray


def default_samples(data: Corrupted, count: int = 3) -> np.ndarray:
    """A few samples worth showing: corrupted originals first (they show what the method does),
    then clean ones, in index order."""
    touched = np.flatnonzero(data.outliers & ~data.added)
    clean = np.flatnonzero(~data.outliers)
    added = np.flatnonzero(data.added)
    pick = list(touched[: max(count - 1, 1)]) + list(clean[:1]) + list(added[:1])
    pick += [i for i in range(data.n_samples) if i not in pick]
    return np.array(pick[:count], dtype=int)


_CLEAN_PCA: "weakref.WeakKeyDictionary[Corrupted, dict]" = weakref.WeakKeyDictionary()


def clean_pca_components(data: Corrupted, k: int) -> np.ndarray:
    """The k components PCA learns from the clean samples (added outliers excluded), cached per
    data set; the reference of the "angle to clean PCA" metric. Shape (k, n_features)."""
    cache = _CLEAN_PCA.setdefault(data, {})
    if k not in cache:
        from .methods import PCA
        Xc = data.X_clean[~data.added]
        k_eff = min(k, min(Xc.shape) - 1)
        cache[k] = PCA(n_components=k_eff).fit(Xc).components_ if k_eff >= 1 else np.zeros((0, Xc.shape[1]))
    return cache[k]


def _metrics(state: State, data: Corrupted, eq14: float) -> dict:
    keep = ~data.added
    out = {"eq. 14 error (000)": eq14}
    rec = state.training_reconstruction(data.X)
    out["Σ‖xʳ−xᵒ‖ (001)"] = total_reconstruction_error(rec, data.X_clean, include=keep)
    if state.sample_weights is not None and data.outliers.any() and not data.outliers.all():
        out["weights AUC"] = outlier_auc(state.sample_weights, data.outliers)
    ref = clean_pca_components(data, state.n_components)
    if len(ref) and state.n_components:
        out["angle to clean PCA (°)"] = float(np.degrees(principal_angles(state.components, ref).max()))
    return out


def snapshot(state: State, data: Corrupted, samples=None, n_basis: int = 10) -> Snapshot:
    """Everything a method column shows for ``state``; see :class:`Snapshot`."""
    h, w = data.shape
    samples = default_samples(data) if samples is None else np.asarray(samples, dtype=int)
    comps = state.components[:n_basis]
    Xs = data.X[samples]
    rec = state.fitted[samples] if state.fitted is not None else state.reconstruct(Xs)
    rows = np.stack([data.X_clean[samples], Xs, rec, Xs - rec], axis=1).reshape(len(samples), 4, h, w)
    err = reconstruction_error(state.components, data.X, data.X_clean, include=~data.added)
    zero = comps == 0
    two_d = data.X.shape[1] == 2
    return Snapshot(method=state.method, iteration=state.iteration, objective=state.objective,
                    converged=state.converged, objective_history=np.array(state.objective_history),
                    basis=comps.reshape(len(comps), h, w), sample_weights=state.sample_weights,
                    log_weights=None if state.sample_weights is None else np.log10(state.sample_weights),
                    outliers=data.outliers, rows=rows, samples=samples, error=err,
                    scalars=dict(state.scalars),
                    scalar_history={k: np.array(v, dtype=float) for k, v in state.scalar_history.items()},
                    metrics=_metrics(state, data, err),
                    sparse_maps=None if state.sparse_part is None
                    else state.sparse_part[samples].reshape(len(samples), h, w),
                    basis_zero=zero.reshape(len(comps), h, w) if zero.any() else None,
                    details=dict(state.details),
                    points=data.X if two_d else None,
                    directions=state.components if two_d else None,
                    mean=state.mean)
