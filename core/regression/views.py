"""What a regression view draws for one state, computed here so that the app holds no numerics.

:func:`regression_snapshot` turns a :class:`~core.regression.RegressionState` and the
:class:`~core.regression.data.RegressionData` it was computed on (the state was started on
``data.X_train, data.targets_train``) into ready-to-draw arrays and numbers. Intensities are in
the units of X (grey levels 0–255 for images); weight images are T's rows (signed, in output
units per grey level).

Cost: one product with T per sample and, for classifiers, a nearest-mean or 1-NN search; no
decomposition — except with ``test="clean"``, which runs the method's test-time cleaning
(paper 004 Alg. 2, a full iterative solve): use it for a final state, not for every iteration.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import RegressionState, classify
from .data import RegressionData


@dataclass(frozen=True, eq=False)
class RegressionSnapshot:
    """Display data of one regression method at one iteration.

    Attributes
    ----------
    method, iteration, objective, converged : copied from the state.
    objective_history : (iteration + 1,) objective per iteration.
    scalars : the method's numbers (``μ1``, ``μ2``, ``r1``, ``r2``, ``rank``, ``nnz(E)``, ...).
    scalar_history : name → (iteration + 1,) float array (NaN before the scalar existed).
    singular_values : (r,) non-zero singular values of the cleaned training inputs D; ``rank`` = r.
    samples : (k,) indices (into the training set) of the samples shown in ``rows``.
    rows : (k, 4, h, w) per shown sample: clean | input (corrupted) | cleaned D | outliers E, as
        images (grey levels; missing input entries drawn as 0, see ``missing_maps``; the clean
        column repeats the input when the clean data are unknown), or None for non-image data.
    missing_maps : (k, h, w) bool, True at missing input entries of the shown samples, or None.
    weights : (n_outputs, h, w) the weight images (rows of ``coef`` reshaped), or None.
    output_names : a name per output (class labels for classifiers, target names otherwise).
    coef : (n_outputs, n_features), intercept : (n_outputs,): the state's T split.
    basis : (m, h, w) leading right singular vectors of D as images (m <= 10), or None.
    outlier_score : (n_train,) ‖e_i‖₂ per training sample (how much was removed).
    corrupted : (n_train,) bool, training samples the corruption touched (any kind), for colouring.
    train_outputs : (n_train, n_outputs) the regressor on the cleaned training inputs [D, 1]Tᵀ.
    test_outputs : (n_test, n_outputs) on the test inputs (plain, or cleaned with test="clean").
    Y_train, Y_test : the targets (0/1 indicators for classifiers), for output-space scatters
        (paper Fig. 3).
    train_predictions, test_predictions : (n,) predicted labels (classifiers) or None.
    points : for inputs with at most 3 features (the 3-D example), name → (n_train, n_features):
        ``"input"``, ``"cleaned"`` and ``"clean"`` (if known); else None.
    kinds : name → (n_train,) bool, which training samples got which corruption.
    metrics : name → value:
        regression — ``"RAE_Y train"`` (‖[D,1]Tᵀ − Y‖/‖Y‖ on the training set),
        ``"RAE_Y test"`` (paper 004 §5.1 on the test set, plain or cleaned inputs),
        ``"RAE_T"`` (relative error of the scored columns of T against the truth, §5.1);
        classification — ``"train accuracy"``, ``"test accuracy"``;
        both — ``"cleaning error"`` ‖D − X_clean‖_F/‖X_clean‖_F and ``"input error"``
        ‖X − X_clean‖_F/‖X_clean‖_F (observed entries; the reference) when the clean inputs are
        known, and per corruption kind ``"distance to clean: <kind>"`` (mean ‖d_i − x_i^clean‖
        over the training samples of that kind) with ``"input distance: <kind>"``.
    test_mode : ``"plain"`` or ``"clean"``.
    """

    method: str
    iteration: int
    objective: float
    converged: bool
    objective_history: np.ndarray
    scalars: dict
    scalar_history: dict
    singular_values: np.ndarray
    rank: int
    samples: np.ndarray
    rows: np.ndarray | None
    missing_maps: np.ndarray | None
    weights: np.ndarray | None
    output_names: tuple
    coef: np.ndarray
    intercept: np.ndarray
    basis: np.ndarray | None
    outlier_score: np.ndarray
    corrupted: np.ndarray
    train_outputs: np.ndarray
    test_outputs: np.ndarray
    Y_train: np.ndarray
    Y_test: np.ndarray
    train_predictions: np.ndarray | None
    test_predictions: np.ndarray | None
    points: dict | None
    kinds: dict
    metrics: dict
    test_mode: str


def default_samples(data: RegressionData, count: int = 3) -> np.ndarray:
    """Indices (into the training set) worth showing: corrupted training samples first, then a
    clean one, in index order."""
    n_train = int(data.train.sum())
    touched = np.zeros(n_train, dtype=bool)
    for v in data.kinds.values():
        touched |= np.asarray(v)[data.train]
    first = list(np.flatnonzero(touched)[:max(count - 1, 1)])
    first += list(np.flatnonzero(~touched)[:1])
    first += [i for i in range(n_train) if i not in first]
    return np.array(first[:count], dtype=int)


def _rel(A: np.ndarray, B: np.ndarray) -> float:
    nb = float(np.linalg.norm(B))
    return float(np.linalg.norm(A - B)) / nb if nb > 0 else float("nan")


def regression_snapshot(state: RegressionState, data: RegressionData, samples=None, *,
                        test: str = "plain", estimator=None, n_basis: int = 10) -> RegressionSnapshot:
    """Everything a regression view shows for ``state`` (see :class:`RegressionSnapshot`).

    Parameters
    ----------
    state : a state of a method started on ``data.X_train, data.targets_train``.
    data : the RegressionData.
    samples : indices into the training set to show as image rows (default :func:`default_samples`).
    test : ``"plain"`` (T on the raw test inputs; missing entries filled with the feature means of
        D) or ``"clean"`` (the estimator's test-time cleaning first; needs ``estimator``, costly).
    estimator : the estimator that produced ``state`` (only for ``test="clean"``).
    n_basis : at most this many basis images.

    Raises ValueError for an unknown ``test`` or ``test="clean"`` without an estimator, and
    DataError when the state does not match the data's training set.
    """
    from ..errors import DataError

    if test not in ("plain", "clean"):
        raise ValueError(f"test must be 'plain' or 'clean', got {test!r}")
    if test == "clean" and estimator is None:
        raise ValueError("test='clean' needs the estimator (its test-time cleaning)")
    tr, te = data.train, ~data.train
    X_train = np.asarray(data.X)[tr]
    D, E = np.asarray(state.D), np.asarray(state.E)
    if D.shape != X_train.shape:
        raise DataError(f"the state's D has shape {D.shape} but the data's training set is {X_train.shape}")
    n_train, d = D.shape
    missing = np.isnan(X_train)
    X_in = np.where(missing, 0.0, X_train)
    samples = default_samples(data) if samples is None else np.asarray(samples, dtype=int)
    clean_train = None if data.X_clean is None else np.asarray(data.X_clean)[tr]

    # ---------------------------------------------------------------- images
    rows = missing_maps = weights = basis = None
    if data.shape is not None and data.shape[0] * data.shape[1] == d:
        h, w = data.shape
        ref = X_in if clean_train is None else clean_train
        rows = np.stack([ref[samples], X_in[samples], D[samples], E[samples]], axis=1).reshape(len(samples), 4, h, w)
        missing_maps = missing[samples].reshape(len(samples), h, w) if missing.any() else None
        weights = np.asarray(state.coef).reshape(-1, h, w)
        if state.components is not None:
            comps = np.asarray(state.components)[:n_basis]
            basis = comps.reshape(len(comps), h, w)

    # ---------------------------------------------------------------- outputs and predictions
    train_out = state.fitted_outputs()
    X_test = np.asarray(data.X)[te]
    if test == "clean":
        X_te_used = np.asarray(estimator.clean_inputs(X_test, state=state))
    else:
        fill = D.mean(axis=0)
        X_te_used = np.where(np.isnan(X_test), fill[None, :], X_test)
    test_out = state.predict_outputs(X_te_used)
    Y_train, Y_test = np.asarray(data.Y)[tr], np.asarray(data.Y)[te]

    metrics: dict = {}
    train_pred = test_pred = None
    if data.is_classification:
        classes = state.classes if state.classes is not None else data.classes
        assert classes is not None                    # classification data have classes
        lookup = {c: j for j, c in enumerate(classes)}
        codes = np.array([lookup[c.item() if hasattr(c, "item") else c] for c in np.asarray(data.labels)[tr]])
        rule = state.details.get("rule", "mean")
        cls = np.asarray(classes)
        train_pred = cls[classify(train_out, train_out, codes, len(classes), rule)]
        test_pred = cls[classify(test_out, train_out, codes, len(classes), rule)]
        metrics["train accuracy"] = float(np.mean(train_pred == np.asarray(data.labels)[tr]))
        metrics["test accuracy"] = float(np.mean(test_pred == np.asarray(data.labels)[te])) if te.any() else float("nan")
        output_names = tuple(str(c) for c in classes)
    else:
        metrics["RAE_Y train"] = _rel(train_out, Y_train)
        if te.any():
            metrics["RAE_Y test"] = _rel(test_out, Y_test)
        if data.T_true is not None and data.T_true.shape == state.T.shape:
            cols = list(data.scored_columns) if data.scored_columns is not None else list(range(d))
            metrics["RAE_T"] = _rel(np.asarray(state.T)[:, cols], np.asarray(data.T_true)[:, cols])
        output_names = tuple(data.target_names) or tuple(f"y{j + 1}" for j in range(state.T.shape[0]))

    # ---------------------------------------------------------------- cleaning against the truth
    kinds = {k: np.asarray(v)[tr] for k, v in data.kinds.items()}
    if clean_train is not None:
        obs = ~missing
        metrics["cleaning error"] = _rel(np.where(obs, D, 0.0), np.where(obs, clean_train, 0.0))
        metrics["input error"] = _rel(X_in, np.where(obs, clean_train, 0.0))
        for k, m in kinds.items():
            if m.any():
                metrics[f"distance to clean: {k}"] = float(np.linalg.norm(D[m] - clean_train[m], axis=1).mean())
                metrics[f"input distance: {k}"] = float(np.linalg.norm(X_in[m] - clean_train[m], axis=1).mean())
    metrics["nnz(E)"] = float(np.count_nonzero(E)) / E.size

    corrupted = np.zeros(n_train, dtype=bool)
    for m in kinds.values():
        corrupted |= m
    points = None
    if d <= 3:
        points = {"input": X_in, "cleaned": D}
        if clean_train is not None:
            points["clean"] = clean_train

    return RegressionSnapshot(
        method=state.method, iteration=state.iteration, objective=state.objective,
        converged=state.converged, objective_history=np.array(state.objective_history),
        scalars=dict(state.scalars),
        scalar_history={k: np.array(v, dtype=float) for k, v in state.scalar_history.items()},
        singular_values=np.array(state.singular_values), rank=state.rank, samples=samples, rows=rows,
        missing_maps=missing_maps, weights=weights, output_names=output_names,
        coef=np.array(state.coef), intercept=np.array(state.intercept), basis=basis,
        outlier_score=np.sqrt(np.einsum("ij,ij->i", E, E)), corrupted=corrupted,
        train_outputs=train_out, test_outputs=test_out, Y_train=Y_train, Y_test=Y_test,
        train_predictions=train_pred, test_predictions=test_pred, points=points, kinds=kinds,
        metrics=metrics, test_mode=test)


__all__ = ["RegressionSnapshot", "regression_snapshot", "default_samples"]
