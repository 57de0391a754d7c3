"""All methods. Importing this package registers them in :mod:`core.catalogue`."""
from .pca import PCA
from .generalized_mean import GeneralizedMean, PCAGM
from .rpca_om import RPCAOM
from . import sparse_pca, convex  # noqa: F401  (register their methods)

__all__ = ["PCA", "GeneralizedMean", "PCAGM", "RPCAOM"]
