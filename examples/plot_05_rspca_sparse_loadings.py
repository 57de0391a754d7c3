"""
Sparse loadings with RSPCA
==========================

Robust sparse PCA (Zhao, Meng & Xu, Sci. China Inf. Sci. 2014) maximises the ℓ1 dispersion
``Σᵢ |xᵢ·w|`` of the samples along each component with exactly k non-zero loadings, one component
at a time with deflation. On digits, each component is a small set of pixels (here k = 60 of
784) instead of a whole image: the strokes that vary most, robustly to the dummy images of random
0/255 dots added to the sixes (10 % more images).
"""
import matplotlib.pyplot as plt
import numpy as np

from robust_subspace_lab.core import catalogue, corruption, datasets

digits = datasets.mnist_digits()                              # 5,000 digits, 28 × 28, 0–255
sixes = digits.images[digits.labels == 6]
data = corruption.corrupt(sixes, "dot_images", fraction=0.1, seed=0)
shape = sixes.shape[1:]

rspca = catalogue.create("rspca", n_components=4, k_nonzero=60).fit(data.X)
pca = catalogue.create("pca", n_components=4).fit(data.X)

fig, axes = plt.subplots(2, 4, figsize=(7, 3.8))
for j in range(4):
    for row, (name, est) in enumerate((("PCA", pca), ("RSPCA", rspca))):
        w = est.components_[j].reshape(shape)
        lim = np.abs(w).max()
        axes[row, j].imshow(w, cmap="RdBu_r", vmin=-lim, vmax=lim)
        axes[row, j].set_title(f"{name} {j + 1}: {np.count_nonzero(w)} px", fontsize=9)
        axes[row, j].set_axis_off()
fig.suptitle("Loadings on the shipped sixes (red +, blue −; non-zero pixels in the titles)")
fig.tight_layout()
