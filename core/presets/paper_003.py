"""Presets of paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy
Non-negative Matrix Factorization", IEEE TPAMI 41(1), 2019 (see :mod:`core.presets`)."""
from .preset import Preset

_PAPER = ("Guan, Liu, Zhang, Tao & Davis, Truncated Cauchy Non-negative Matrix Factorization, "
          "IEEE TPAMI 2019")

PRESETS: list = [
    Preset(
        key="paper003-fig4", title="Paper 003 · Fig. 4: a line y = 0.2x with 80 of 180 outliers",
        paper=_PAPER, reproduces="Fig. 4(d): breakdown of L2-NMF, L1-NMF and TC-NMF on a 2-D line "
        "(40 points contaminated in x, 40 in y)",
        task="subspace", data=("toy", "nmf_line"),
        data_params={"n_outliers": 80, "direction": "both", "noise": 0.1, "seed": 0},
        methods=(("nmf", {"n_components": 1}), ("l1-nmf", {"n_components": 1}),
                 ("tc-nmf", {"n_components": 1})),
        note="Look at the fitted line: L2-NMF and L1-NMF tilt towards the outliers; the paper's "
             "TC-NMF stays on y = 0.2x. Ours needs a little noise (0.1) for its scale estimate."),
    Preset(
        key="paper003-table4-blocks", title="Paper 003 · Table IV: faces with 550-valued blocks",
        paper=_PAPER, reproduces="Table IV: contiguous occlusion by a b × b block of value 550 "
        "(extreme outliers), TC-NMF against NMF and Cauchy NMF",
        task="subspace", data=("builtin", "faces"),
        corruption="value_block", corruption_params={"size": 10, "value": 550.0, "seed": 0},
        methods=(("nmf", {"n_components": 10}), ("cauchy-nmf", {"n_components": 10}),
                 ("tc-nmf", {"n_components": 10})),
        note="TC-NMF's weight maps go to 0 on the blocks and its basis images stay clean; plain "
             "NMF paints the blocks into its basis (error against the clean faces: NMF 123 %, "
             "TC-NMF 29 % on ours, seed 0). This is where truncation wins, as the paper says."),
    Preset(
        key="paper003-table2-laplace", title="Paper 003 · Table II: faces with Laplace noise δ = 40",
        paper=_PAPER, reproduces="Table II, δ = 40: relative reconstruction error against the "
        "clean faces under Laplace noise",
        task="subspace", data=("builtin", "faces"),
        corruption="laplace", corruption_params={"scale": 40.0, "clip": True, "seed": 0},
        methods=(("nmf", {"n_components": 10}), ("tc-nmf", {"n_components": 10}),
                 ("tc-nmf", {"n_components": 10, "tau_floor": 0.0})),
        note="The paper reports TC-NMF best (13.4 % vs 14.8 % for NMF on ORL). On the built-in "
             "faces it is not: NMF 26 %, TC-NMF 33 % with our threshold floor (c = 3), 42 % with "
             "the paper's rule (c = 0), which truncates about half of the entries."),
]
