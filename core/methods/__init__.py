"""All methods. Importing this package registers them in :mod:`core.catalogue`."""
from .pca import PCA
from .generalized_mean import GeneralizedMean, PCAGM
from .rpca_om import L2pPCAOM, RPCAOM
from .robust_pca import HQPCA, R1PCA
from . import sparse_pca, convex  # noqa: F401  (register their methods)
from . import nmf  # noqa: F401  (registers the NMF family, paper 003)

__all__ = ["PCA", "GeneralizedMean", "PCAGM", "RPCAOM", "L2pPCAOM", "R1PCA", "HQPCA"]
