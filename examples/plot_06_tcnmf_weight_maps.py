"""
Truncated Cauchy NMF's per-pixel weights
========================================

Every face gets a 12 × 12 block of value 550, far above the grey levels of a face. Truncated
Cauchy NMF (Guan et al., IEEE TPAMI 2019) weighs every pixel by Q = 1/(1 + (E/γ)²) and gives
weight exactly 0 to the pixels whose error exceeds its threshold τ (three-sigma rule, §3.5): the
weight maps find the blocks, and the parts it learns stay free of them. Frobenius NMF has no
weights, and its parts absorb the blocks.
"""
import matplotlib.pyplot as plt
import numpy as np

from robust_subspace_lab.core import catalogue, corruption, datasets

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "value_block", seed=0)
shape = faces.images.shape[1:]

tc = catalogue.create("tc-nmf", n_components=5, max_iter=150)
state = None
for state in tc.iterate(data.X):
    pass
nmf = catalogue.create("nmf", n_components=5, max_iter=150).fit(data.X)

show = np.flatnonzero(data.outliers)[:4]
fig, axes = plt.subplots(4, 4, figsize=(6.4, 6.6))
for j, i in enumerate(show):
    axes[0, j].imshow(data.images[i], cmap="gray", vmin=0, vmax=550)
    axes[1, j].imshow(state.entry_weights[i].reshape(shape), cmap="viridis", vmin=0, vmax=1)
    axes[2, j].imshow(state.components[j].reshape(shape), cmap="gray")
    axes[3, j].imshow(nmf.components_[j].reshape(shape), cmap="gray")
for ax in axes.ravel():
    ax.set_axis_off()
axes[0, 0].set_title("corrupted faces", loc="left", fontsize=9)
axes[1, 0].set_title("TC-NMF pixel weights (0 = truncated)", loc="left", fontsize=9)
axes[2, 0].set_title("TC-NMF parts", loc="left", fontsize=9)
axes[3, 0].set_title("Frobenius NMF parts", loc="left", fontsize=9)
fig.tight_layout()
truncated = np.mean(state.entry_weights[data.mask] == 0)
print(f"{100 * truncated:.0f} % of the block pixels get weight 0 after {state.iteration} iterations")
