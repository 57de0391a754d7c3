"""The subspace and NMF methods, one module per method or tight family (the catalogue,
:mod:`core.catalogue`, lists them)."""
from .convex import CRPCAOM, PCP, OutlierPursuit
from .generalized_mean import PCAGM, GeneralizedMean
from .nmf import NMF, FrobeniusNMF, RNMFL1, CauchyNMF, CIMNMF, HuberNMF, L1NMF, L21NMF, TruncatedCauchyNMF
from .pca import PCA, PlainPCA
from .reweighted import ReweightedPCA
from .robust_pca import HQPCA, R1PCA
from .rpca_om import RPCAOM, L2pPCAOM
from .sparse_pca import RSPCA, GPower, PCAL1, SPCArSVD

__all__ = ["PlainPCA", "FrobeniusNMF", "PCA", "GeneralizedMean", "PCAGM", "RPCAOM", "L2pPCAOM", "R1PCA", "HQPCA", "PCAL1", "RSPCA", "ReweightedPCA",
           "SPCArSVD", "GPower", "PCP", "OutlierPursuit", "CRPCAOM", "TruncatedCauchyNMF", "CauchyNMF", "NMF",
           "L1NMF", "HuberNMF", "CIMNMF", "L21NMF", "RNMFL1"]
