"""When have a reweighting method's sample weights collapsed onto a few samples? The one rule.

A sample-reweighting fit (PCA-GM, RPCA-OM, ℓ2,p-PCA-OM, R1-PCA, HQ-PCA) is a weighted PCA whose
weights come from the residuals of the previous step. With weights such as βᵢ = (eᵢ + δ)^(p−1)
(Oh & Kwak 2016 eq. 11 with the δ of eq. 13) or dᵢ = 1/(2‖rᵢ‖) (Nie, Yuan & Huang 2014,
Algorithm 1), a sample the subspace fits almost exactly gets an almost infinite weight; the next
weighted PCA then fits it even better, and the fit can lock onto a handful of samples. Kish's
effective number of samples (:func:`core.metrics.effective_n_samples`) measures this: the weights
count as many samples as ``(Σwᵢ)²/Σwᵢ²``.

:func:`weight_collapse` says the weights have collapsed when that number falls below
``max(2k, 5 % of n)`` (:func:`collapse_threshold`): fewer than two samples per component, or
than one in twenty, carry the fit. The app shows :attr:`WeightCollapse.message` in the column.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .metrics import effective_n_samples, weight_share

__all__ = ["COLLAPSE_SHARE", "WeightCollapse", "collapse_threshold", "weight_collapse"]

#: the share of the samples below which the effective number of samples counts as collapsed
COLLAPSE_SHARE = 0.05


def collapse_threshold(n_samples: int, n_components: int) -> float:
    """``max(2k, 5 % of n)``: the effective number of samples below which weights have collapsed."""
    return max(2.0 * int(n_components), COLLAPSE_SHARE * int(n_samples))


@dataclass(frozen=True)
class WeightCollapse:
    """Collapsed sample weights, described.

    Attributes
    ----------
    effective_n : Kish's effective number of samples of the weights, in [1, n_samples].
    n_samples : number of weights.
    threshold : :func:`collapse_threshold` (``effective_n`` is below it).
    carriers : the number of largest weights reported, ``max(1, round(effective_n))``.
    share : the share of the total weight these ``carriers`` samples carry, in (0, 1].
    """

    effective_n: float
    n_samples: int
    threshold: float
    carriers: int
    share: float

    @property
    def message(self) -> str:
        """One line for the column, e.g. ``"weights collapsed: 3 samples carry 99 % of the weight"``."""
        noun = "sample carries" if self.carriers == 1 else "samples carry"
        return f"weights collapsed: {self.carriers} {noun} {100 * self.share:.0f} % of the weight"

    @property
    def detail(self) -> str:
        """The numbers behind :attr:`message` (for a tooltip)."""
        return (f"Effective number of samples (Σw)²/Σw² = {self.effective_n:.1f} of {self.n_samples}, "
                f"below max(2k, 5 % of n) = {self.threshold:g}.")


def weight_collapse(weights, n_components: int) -> WeightCollapse | None:
    """The collapse of ``weights`` (n_samples,) non-negative for a fit with ``n_components``
    components, or None when the effective number of samples is at least
    :func:`collapse_threshold` (or the weights are all 0, so that it is undefined).

    Raises :class:`~core.errors.DataError` for a negative or non-finite weight (as
    :func:`core.metrics.effective_n_samples`)."""
    n_eff = effective_n_samples(weights)
    n = len(weights)
    threshold = collapse_threshold(n, n_components)
    if math.isnan(n_eff) or n_eff >= threshold:
        return None
    carriers = max(1, int(round(n_eff)))
    return WeightCollapse(effective_n=n_eff, n_samples=n, threshold=threshold, carriers=carriers,
                          share=weight_share(weights, carriers))
