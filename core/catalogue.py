"""The one catalogue of methods: every estimator, listed explicitly.

Each method's entry (display name, family, the paper and equations it implements, a
:class:`~core.params.ParamSpec` per hyperparameter) is attached to its estimator class by
:func:`core.params.register`; this module lists the estimator classes, so that the app builds its
controls from one place and adding a method is one line here::

    from robust_subspace_lab.core import catalogue
    info = catalogue.get("pca-gm")
    est = info.create(n_components=10, p=0.3)
"""
from __future__ import annotations

from typing import Any

from .methods.convex import CRPCAOM, PCP, OutlierPursuit
from .methods.generalized_mean import PCAGM
from .methods.nmf import (FrobeniusNMF, RNMFL1, CauchyNMF, CIMNMF, HuberNMF, L1NMF, L21NMF,
                          TruncatedCauchyNMF)
from .methods.pca import PlainPCA
from .methods.pca_l1 import PCAL1
from .methods.robust_pca import HQPCA, R1PCA
from .methods.rpca_om import RPCAOM, L2pPCAOM
from .methods.rspca import RSPCA
from .methods.sparse_pca_baselines import GPower, SPCArSVD
from .params import TASKS, EstimatorParams, MethodInfo
from .regression.baselines import LDA, RANSAC, TLS, LeastSquares, RidgeRegression, RPCALS
from .regression.estimators import RLDA, RR, RLDAMissing, RRMissing

#: every estimator, in the order the app lists them
ESTIMATORS: tuple[type[EstimatorParams], ...] = (
    PlainPCA, PCAGM, L2pPCAOM, RPCAOM, R1PCA, HQPCA,                        # PCA family (papers 000, 001)
    PCAL1, RSPCA, SPCArSVD, GPower,                                    # sparse PCA (paper 002)
    PCP, OutlierPursuit, CRPCAOM,                                      # low-rank + sparse (paper 001)
    TruncatedCauchyNMF, CauchyNMF, FrobeniusNMF, L1NMF, HuberNMF, CIMNMF, L21NMF, RNMFL1,   # NMF (paper 003)
    RR, RRMissing, RLDA, RLDAMissing,                                  # robust regression (paper 004)
    LeastSquares, RidgeRegression, LDA, TLS, RPCALS, RANSAC,                     # its baselines
)


def _registry() -> dict[str, MethodInfo]:
    out: dict[str, MethodInfo] = {}
    for cls in ESTIMATORS:
        info = cls._info
        if info is None or info.key in out:
            raise ValueError(f"{cls.__name__}: missing or duplicate catalogue key")
        out[info.key] = info
    return out


_REGISTRY: dict[str, MethodInfo] = _registry()

__all__ = ["ESTIMATORS", "TASKS", "MethodInfo", "methods", "get", "create"]


def methods(task: str | None = "subspace") -> list[MethodInfo]:
    """The methods of ``task`` (``"subspace"``, ``"regression"``, or None for all), in the
    order of :data:`ESTIMATORS`."""
    return [m for m in _REGISTRY.values() if task is None or m.task == task]


def get(key: str) -> MethodInfo:
    """The catalogue entry for ``key`` (e.g. ``"pca"``, ``"pca-gm"``, ``"rpca-om"``)."""
    try:
        return _REGISTRY[key]
    except KeyError:
        raise KeyError(f"unknown method {key!r}; known: {sorted(_REGISTRY)}") from None


def create(key: str, **params: Any):
    """Shorthand for ``get(key).create(**params)``."""
    return get(key).create(**params)
