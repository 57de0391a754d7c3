"""Presets of paper 001: Nie, Yuan & Huang, "Optimal mean robust principal component analysis",
ICML 2014 — the reweighted part (RPCA-OM, ℓ2,p-PCA-OM). The convex CRPCA-OM presets are kept by
their owner elsewhere. Numbers behind the notes: ``benchmarks/papers/paper_001.py``.
"""
from .preset import Preset

PAPER = "Nie, Yuan & Huang, Optimal mean robust principal component analysis, ICML 2014"

_METHODS = lambda k: (("pca", {"n_components": k}), ("pca-l1", {"n_components": k}),  # noqa: E731
                      ("r1-pca", {"n_components": k}), ("rpca-om", {"n_components": k}))

PRESETS = [
    Preset(
        key="paper001-table1-faces",
        title="Paper 001 · Table 1: faces, 20 % with a ¼-area block (k = 10)",
        paper=PAPER,
        reproduces="Table 1 (face sets): reconstruction error Σ‖x_i^r − x_i^o‖ of PCA, L1PCA, R1PCA, RPCA-OM, "
                   "20 % of the images with one block of ¼ of the image area",
        task="subspace", data=("builtin", "faces"), corruption="quarter_block",
        corruption_params={"fraction": 0.2, "content": "dots", "seed": 0},
        methods=_METHODS(10),
        note="Read 'Σ‖xʳ−xᵒ‖ (001)': RPCA-OM lowest, R1-PCA next, as in the paper (AT&T: RPCA-OM/PCA = 0.981; "
             "ours ≈ 0.90 on 100 faces). At k = 30 of 100 faces the occluded faces are fitted by the "
             "subspace (RPCA-OM weight AUC ≈ 0) and the order reverses — watch the weights.",
    ),
    Preset(
        key="paper001-table1-digits",
        title="Paper 001 · Table 1: MNIST digits, 20 % with a ¼-area block (k = 10)",
        paper=PAPER,
        reproduces="Table 1 (MNIST): the same protocol on the shipped digits",
        task="subspace", data=("builtin", "digits"), corruption="quarter_block",
        corruption_params={"fraction": 0.2, "content": "dots", "seed": 0},
        methods=_METHODS(10),
        note="RPCA-OM gives every blocked digit a lower weight than every clean one (AUC ≈ 1.00) and the "
             "lowest error, but only ≈ 1 % below PCA (paper: 15 %): the blocked digits carry about a quarter "
             "of PCA's error here.",
    ),
    Preset(
        key="paper001-l2p",
        title="Paper 001 · §3.2: ℓ2,p re-weighting, p = 0.5 vs p = 1 on occluded faces",
        paper=PAPER,
        reproduces="§3.2 / Algorithm 2: the general re-weighting applied to Σ‖rᵢ‖ᵖ (claim 16: fast convergence)",
        task="subspace", data=("builtin", "faces"), corruption="quarter_block",
        corruption_params={"fraction": 0.2, "content": "dots", "seed": 0},
        methods=(("rpca-om", {"n_components": 10}), ("l2p-pca-om", {"n_components": 10, "p": 0.5})),
        note="Both objectives decrease monotonically and stop in well under the paper's '20 iterations'; "
             "smaller p pushes the occluded faces' weights further down.",
    ),
]
