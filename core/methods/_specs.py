"""Parameter specs shared by several methods (one definition each)."""
from ..params import ParamSpec

N_COMPONENTS = ParamSpec(
    "n_components", "k", "int", 10, "number of components (basis images) to learn",
    low=1, slider=(1, 60))
MAX_ITER = ParamSpec(
    "max_iter", "max iter", "int", 100, "stop after this many iterations (the papers use 100)",
    low=1, high=100000, slider=(1, 500))
TOL = ParamSpec(
    "tol", "tol", "float", 1e-6, "stop when the objective's relative decrease falls below this",
    low=0.0, scale="log", slider=(1e-12, 1e-2))
EXACT_START = ParamSpec(
    "exact_start", "exact start", "bool", False,
    "start from the PCA subspace converged to the steps' accuracy, and take every step to it (slower "
    "without a spectral gap); off: start and early steps only as accurate as the next weights need "
    "(the same converged fit)")
#: Plain PCA's own reading of ``exact_start`` (its start is its answer)
EXACT_PCA = ParamSpec(
    "exact_start", "exact start", "bool", False,
    "converge the subspace to a sine of 1e-5 between iterates (slower without a spectral gap); "
    "off: stop once every sample's residual has settled (the reconstruction error to about 1e-6)")
