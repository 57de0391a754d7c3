"""Robust non-negative matrix factorisation: Truncated Cauchy NMF (Guan et al. 2019) and its baselines.

Paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019 (arXiv:1906.00495).

The family, one module per concept (this module gathers their public names):

* :mod:`core.methods.nmf_base`: the orientation (X ≈ H W, one image per row) and the
  half-quadratic loop every method shares (``NMFBase``);
* :mod:`core.methods.nmf_frobenius`: plain Frobenius NMF (:class:`NMF`, multiplicative updates
  or Nesterov), whose step forms nothing of the data's size;
* :mod:`core.methods.nmf_state`: the state of every method (:class:`NMFState`) and its
  ``transform``;
* :mod:`core.methods.nmf_weights`: the robust statistics and weight functions (Nagy's γ, the
  three-sigma threshold, the truncated Cauchy weights and objective);
* :mod:`core.methods.nmf_cauchy`: :class:`TruncatedCauchyNMF` and :class:`CauchyNMF`;
* :mod:`core.methods.nmf_robust`: the baselines of §5.5 — :class:`L1NMF`, :class:`HuberNMF`,
  :class:`CIMNMF`, :class:`L21NMF`, :class:`RNMFL1`;
* :mod:`core.methods._wnls`: the weighted non-negative least-squares solver of both factor
  steps (Guan et al. 2019 Algorithm 1, and multiplicative updates).

Methods (catalogue keys): ``tc-nmf``, ``cauchy-nmf``, ``nmf``, ``l1-nmf``, ``rnmf-l1``,
``l21-nmf``, ``huber-nmf``, ``cim-nmf``.
"""
from __future__ import annotations

from .nmf_base import (INNER_FAST, INNER_TOL, INNER_TOL_MIN, MIN_ITER, SAMPLE_WEIGHT_FLOOR,
                       ZERO_RESIDUAL)
from .nmf_frobenius import NMF, FrobeniusNMF
from .nmf_state import NMFState, check_nonnegative
from .nmf_cauchy import GAMMA_MIN, CauchyNMF, TruncatedCauchyNMF
from .nmf_robust import CIMNMF, L1NMF, L21NMF, RNMFL1, HuberNMF
from .nmf_weights import cauchy_weights, nagy_scale, three_sigma_threshold, truncated_cauchy_objective

__all__ = ["NMFState", "FrobeniusNMF", "NMF", "TruncatedCauchyNMF", "CauchyNMF", "L1NMF", "RNMFL1", "L21NMF",
           "HuberNMF", "CIMNMF", "cauchy_weights", "nagy_scale", "three_sigma_threshold",
           "truncated_cauchy_objective", "check_nonnegative", "MIN_ITER", "INNER_TOL",
           "INNER_TOL_MIN", "INNER_FAST", "ZERO_RESIDUAL", "GAMMA_MIN", "SAMPLE_WEIGHT_FLOOR"]
