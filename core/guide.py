""""What you are seeing": a short teaching text per method of the catalogue.

Each text says what the method minimises (its formula), what its weights mean, and what to look
for in the views. The app shows it from each column's "?" button; a script can print it::

    from robust_subspace_lab.core import guide
    print(guide.text("pca-gm"))

Plain text (Unicode symbols, no markup); samples are rows x_i, residual e_i = ‖x_i − m − WWᵀ(x_i − m)‖².
"""
from __future__ import annotations

_PCA_VIEWS = ("Views: the bar chart is each sample's weight (log scale; red bars are the corrupted "
              "samples), the basis images are the learned components, the bottom rows show clean | "
              "corrupted | reconstruction | residual for a few samples.")

_NMF_VIEWS = ("Views: the basis images are the non-negative parts W (black = 0); the weight maps show "
              "each chosen sample's per-pixel weight Q on a fixed 0–1 scale, truncated pixels in red; "
              "the reconstruction rows show clean | corrupted | WH | residual. The header gives "
              "‖X_clean − WH‖_F / ‖X_clean‖_F, the error against the clean images.")

_CONVEX_VIEWS = ("Views: the E column shows the sparse part the method removed from each chosen sample; "
                 "the objective starts at 0 because the ALM starts from L = S = 0, which does not yet "
                 "satisfy X = L + S: the curve rises while the constraint is enforced (watch the primal "
                 "residual fall) and then settles at the optimum.")

_GAMMA_SCALE = ("Larger γ, lower rank. Its default \"scale\" is max(1.5, 2√(n_samples/n_features)), "
                "from the data's shape (the γ box shows the number): with more samples than features "
                "a γ below about √(n_samples/n_features) leaves E = 0 and Z = X, the data reproduced. ")


def _collapse(why: str, fix: str) -> str:
    """The paragraph on collapsed weights of a sample-reweighting method (rule: core.collapse)."""
    return (" Collapsed weights: the scalar \"effective n\" is (Σwᵢ)²/Σwᵢ², the number of samples the "
            "weights count as (n when all weigh the same). Below max(2k, 5 % of n) the column says "
            "\"weights collapsed: m samples carry x % of the weight\": the fit rests on those few. Why: "
            + why + " The next weighted PCA fits those samples even better, so their weight grows until "
            "the fit locks onto them (often an outlier the k components have room for). What changes it: "
            + fix)


_P_COLLAPSE = _collapse(
    "a sample the subspace fits almost exactly has eᵢ ≈ 0 and weight (eᵢ + δ)^(p−1) ≈ δ^(p−1), near "
    "infinite: only the paper's δ = 0.01·min eᵢ(W_PCA) (eq. 13) bounds it, (e/δ)^(1−p) ≈ 100 times a "
    "typical sample's weight at p = 0.1 on the faces.",
    "a larger p (the weights span (e/δ)^(1−p), fewer decades), fewer components k, or more samples "
    "per component; δ is the paper's and fixed.")
_OM_COLLAPSE = _collapse(
    "dᵢ ∝ ‖rᵢ‖^(p−2) (1/(2‖rᵢ‖) for RPCA-OM): a sample with ‖rᵢ‖ ≈ 0 gets a near-infinite weight, "
    "bounded only by the tiny ε of the paper's footnote 1; a sum of unsquared norms is minimised by "
    "subspaces passing through a few samples.",
    "a larger p (ℓ2,p-PCA-OM: p towards 2 is PCA), fewer components k, or more samples per component.")

GUIDE: dict[str, str] = {
    "pca": (
        "PCA minimises Σᵢ eᵢ, the sum of squared residuals to a k-dimensional subspace through the "
        "sample mean. Every sample weighs 1, so a few occluded images pull the subspace towards "
        "themselves: their occlusions show up in the eigenfaces. This is the baseline the robust "
        "methods are compared with. " + _PCA_VIEWS),
    "pca-gm": (
        "PCA-GM (Oh & Kwak 2016) minimises the generalized mean of the squared residuals, "
        "(1/n Σᵢ eᵢᵖ)^(1/p) with 0 < p ≤ 1 (p = 1 is PCA). Each iteration is a weighted PCA with "
        "weights βᵢ = (eᵢ + δ)^(p−1): a sample far from the current subspace gets a small weight, "
        "so outliers fade step by step and the eigenfaces clean up. Smaller p down-weights more "
        "strongly. Caveat: with k at or above the number of outlying images the subspace can absorb "
        "them, and they then fit well and keep large weights. " + _PCA_VIEWS + _P_COLLAPSE),
    "l2p-pca-om": (
        "ℓ2,p-PCA-OM (Nie, Yuan & Huang 2014, Algorithm 2) minimises Σᵢ ‖rᵢ‖ᵖ with the mean as a "
        "variable; weights dᵢ ∝ ‖rᵢ‖^(p−2). p = 1 is RPCA-OM, p = 2 is PCA. " + _PCA_VIEWS + _OM_COLLAPSE),
    "rpca-om": (
        "RPCA-OM (Nie, Yuan & Huang 2014) minimises Σᵢ ‖xᵢ − b − WWᵀ(xᵢ − b)‖, the sum of unsquared "
        "residual norms, and optimises the centre b too (the mean is not robust). Each step is a "
        "weighted PCA around a weighted mean with dᵢ = 1/(2‖rᵢ‖): a sample twice as far counts half "
        "as much. " + _PCA_VIEWS + _OM_COLLAPSE),
    "r1-pca": (
        "R1-PCA (Ding et al. 2006) uses Huber weights on the residual norms: samples within the "
        "cutoff c (the median residual) weigh 1, farther ones c/‖rᵢ‖. " + _PCA_VIEWS + " The scalar \"effective n\", (Σwᵢ)²/Σwᵢ², "
        "stays above n/2: half the samples weigh 1 by construction, so R1-PCA's weights cannot collapse "
        "onto a few samples as PCA-GM's and RPCA-OM's can."),
    "hq-pca": (
        "HQ-PCA (He et al. 2011) maximises correntropy by half-quadratic steps: Welsch weights "
        "exp(−‖rᵢ‖²/2σ²), σ re-estimated each iteration. Weights fall off exponentially, so gross "
        "outliers get weights near 0. " + _PCA_VIEWS + _collapse(
            "when σ is small next to most residuals, only the samples nearest the subspace keep a weight "
            "near 1 and every other exp(−‖rᵢ‖²/2σ²) is near 0.",
            "fewer components k, or more samples per component (σ follows the residuals).")),
    "pca-l1": (
        "PCA-L1 (Kwak 2008) maximises the ℓ1 dispersion Σᵢ |wᵀxᵢ| one component at a time by sign "
        "flipping, then deflates. There are no explicit weights: the ℓ1 norm counts a far sample "
        "linearly, not quadratically. " + _PCA_VIEWS),
    "rspca": (
        "RSPCA (Zhao, Meng & Xu 2014) maximises the ℓ1 dispersion Σᵢ |wᵀxᵢ| subject to ‖w‖₂ = 1 "
        "and exactly k non-zero loadings (an ℓp constraint, 0 ≤ p ≤ 1). The basis images are "
        "sparse: grey pixels are exactly zero. Robust because of the ℓ1 dispersion, interpretable "
        "because of the sparsity. " + _PCA_VIEWS),
    "spca-rsvd": (
        "sPCA-rSVD (Shen & Huang 2008) finds sparse loadings by rank-1 alternating thresholding "
        "with k non-zeros, then deflates. Not robust: a baseline for RSPCA. " + _PCA_VIEWS),
    "gpower": (
        "GPower (Journée et al. 2010): sparse PCA by a power method with an ℓ1 or ℓ0 penalty γ. Not "
        "robust: a baseline for RSPCA. " + _PCA_VIEWS),
    "pcp": (
        "PCP (Candès, Li, Ma & Wright 2011) splits X = L + S with L low-rank and S sparse, "
        "minimising ‖L‖* + λ‖S‖₁ (λ = lam_scale/√max(n, d)). Corruption is per pixel: the occluded "
        "pixels move into S, the low-rank part keeps the faces. " + _CONVEX_VIEWS),
    "outlier-pursuit": (
        "Outlier Pursuit (Xu, Caramanis & Sanghavi 2012) splits X = Z + E with Z low-rank and E "
        "sample-sparse (whole samples): ‖E‖₂,₁ + γ‖Z‖*. A sample is either an inlier or an outlier "
        "as a whole; the outlier score is ‖eᵢ‖. " + _GAMMA_SCALE + _CONVEX_VIEWS),
    "crpca-om": (
        "CRPCA-OM (Nie, Yuan & Huang 2014, Algorithm 3) is Outlier Pursuit with the mean b "
        "optimised: ‖X − b1ᵀ − Z‖₂,₁ + γ‖Z‖*. Unlike Outlier Pursuit it is not fooled by a shift of "
        "all the data. " + _GAMMA_SCALE + _CONVEX_VIEWS),
    "tc-nmf": (
        "Truncated Cauchy NMF (Guan et al. 2019) fits X ≈ WH (all non-negative) with the Cauchy loss "
        "ln(1 + (E/γ)²) and ignores errors above a threshold τ. The per-pixel weight is "
        "Q = 1/(1 + (E/γ)²): ½ where |E| = γ, and exactly 0 on truncated pixels (red). It wins on "
        "extreme outliers (blocks above the grey range); on mild noise the three-sigma truncation "
        "can also cut good pixels, and plain NMF may do better. The objective curve can rise: "
        "γ and the truncated set are re-estimated every iteration, and only for a fixed γ and "
        "threshold is each step guaranteed not to increase the cost (Guan et al. 2019, §3). "
        + _NMF_VIEWS),
    "cauchy-nmf": (
        "Cauchy NMF: Truncated Cauchy NMF without truncation. The weight Q = 1/(1 + (E/γ)²) never "
        "reaches 0: large errors are down-weighted, never ignored. " + _NMF_VIEWS),
    "nmf": (
        "NMF (Lee & Seung 2001) minimises ‖X − WH‖_F² with W, H ≥ 0: the parts-based, non-robust "
        "baseline. Every pixel weighs 1, so corrupted pixels are fitted too. " + _NMF_VIEWS),
    "l1-nmf": (
        "L1-NMF minimises ‖X − WH‖₁ by reweighting: per-pixel weights 1/|E| (smoothed), so a large "
        "error counts linearly. " + _NMF_VIEWS),
    "huber-nmf": (
        "Huber-NMF (Du et al. 2012): per-pixel Huber weights, 1 for |E| ≤ c and c/|E| beyond, with "
        "c the median |E|. " + _NMF_VIEWS),
    "cim-nmf": (
        "CIM-NMF (Du et al. 2012) maximises correntropy: Gaussian per-pixel weights exp(−E²/2σ²) "
        "with an adaptive width σ. " + _NMF_VIEWS),
    "l21-nmf": (
        "L2,1-NMF (Kong, Ding & Huang 2011) minimises Σᵢ ‖xᵢ − Whᵢ‖₂: one weight per sample, "
        "1/‖eᵢ‖, so whole outlying images are down-weighted. " + _NMF_VIEWS),
    "rnmf-l1": (
        "RNMF-L1 (Zhang et al. 2011) fits X ≈ WH + S with a sparse outlier matrix S (λ‖S‖₁), shown "
        "in the E column: the corrupted pixels move into S. " + _NMF_VIEWS),
    "rr": (
        "Robust Regression (Huang, Cabral & De la Torre 2016) learns T from inputs X = D + E: D "
        "low-rank (the cleaned inputs), E sparse (the errors removed), minimising "
        "η‖Y − T[D; 1]‖² + ‖D‖* + λ‖E‖₁ + α‖T‖². Watch the D | E images: the occlusions move into "
        "E while the regressor is learned from D only."),
    "rr-missing": "RR with missing inputs (NaN): E is unpenalised on the missing entries, which D fills in.",
    "rlda": (
        "Robust LDA (Huang et al. 2016 eq. 6): RR on 0/1 class indicators with the class weighting "
        "(YᵀY)^(−1/2); labels by the nearest class mean in the output space. Cleaning the training "
        "images (D) keeps the occlusions out of the discriminant."),
    "rlda-missing": "RLDA with missing inputs (NaN), filled from the low-rank D.",
    "lsr": "Least-squares regression: the non-robust baseline; every input error goes into T.",
    "ridge": "Ridge regression: least squares with α‖T‖²; shrinks T but does not clean the inputs.",
    "lda": "Least-squares LDA: regression on class indicators, no cleaning.",
    "tls": "Total least squares: errors in the inputs allowed, but Gaussian (not sparse) ones.",
    "rpca-lsr": "Two steps: PCP cleans the inputs without looking at the targets, then least squares.",
    "ransac": "RANSAC: ridge fits on random subsets; keeps the one with the most inliers (residual below the threshold).",
}


def text(key: str) -> str:
    """The teaching text of method ``key``; KeyError naming the key if there is none."""
    try:
        return GUIDE[key]
    except KeyError:
        raise KeyError(f"no guide text for method {key!r}") from None
