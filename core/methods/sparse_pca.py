"""ℓ1 and sparse PCA: PCA-L1 (Kwak 2008), RSPCA (Zhao et al. 2014), sPCA-rSVD and GPower.

One module per concept; this module gathers their public names (``from
robust_subspace_lab.core.methods.sparse_pca import RSPCA`` keeps working):

* :mod:`core.methods._greedy` — the greedy outer loop the four share (one component at a time,
  restarts, deflation ``X_j = X_{j−1}(I − w_{j−1} w_{j−1}ᵀ)``, the states; its docstring states
  the stepping, the stopping rule and the state fields);
* :mod:`core.methods.pca_l1` — :class:`PCAL1` (Kwak, IEEE TPAMI 2008), :func:`augment`,
  :func:`l1_dispersion`;
* :mod:`core.methods.rspca` — :class:`RSPCA` (Zhao, Meng & Xu, *Robust sparse principal
  component analysis*, Sci China Inf Sci 2014, Algorithm 1), :func:`sparse_projection`,
  :func:`sparse_lambda`;
* :mod:`core.methods.sparse_pca_baselines` — the ℓ2 baselines :class:`SPCArSVD` (Shen & Huang,
  J Multivar Anal 2008) and :class:`GPower` (Journée, Nesterov, Richtárik & Sepulchre, JMLR 2010).
"""
from __future__ import annotations

from .pca_l1 import PCAL1, augment, l1_dispersion
from .rspca import RSPCA, sparse_lambda, sparse_projection
from .sparse_pca_baselines import GPower, SPCArSVD

__all__ = ["PCAL1", "RSPCA", "SPCArSVD", "GPower", "sparse_projection", "sparse_lambda", "augment",
           "l1_dispersion"]
