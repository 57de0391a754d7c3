"""
Low rank + sparse with PCP
==========================

Principal component pursuit (Candès, Li, Ma & Wright, J. ACM 2011) splits the data into a low
rank part and a sparse part, X = L + S, by minimising ‖L‖* + λ‖S‖₁ (inexact augmented Lagrangian,
λ = 1/√max(n, d)). On faces with 10 % salt & pepper pixels, S collects the flipped pixels and L
is the cleaned faces.
"""
import matplotlib.pyplot as plt
import numpy as np

from robust_subspace_lab.core import catalogue, corruption, datasets

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "salt_pepper", seed=0)
shape = faces.images.shape[1:]

pcp = catalogue.create("pcp")
state = None
for state in pcp.iterate(data.X):
    pass
L, S = state.fitted, state.sparse_part

fig, axes = plt.subplots(4, 4, figsize=(5.6, 6))
for j in range(4):
    for row, (img, cmap, lim) in enumerate(((data.X_clean[j], "gray", (0, 255)),
                                             (data.X[j], "gray", (0, 255)),
                                             (L[j], "gray", (0, 255)),
                                             (S[j], "RdBu_r", (-255, 255)))):
        axes[row, j].imshow(img.reshape(shape), cmap=cmap, vmin=lim[0], vmax=lim[1])
        axes[row, j].set_axis_off()
for row, title in enumerate(("clean", "salt & pepper", "low rank L", "sparse S")):
    axes[row, 0].set_title(title, loc="left", fontsize=9)
fig.tight_layout()
rank = np.linalg.matrix_rank(L - L.mean(axis=0), tol=1e-6 * np.abs(L).max())
print(f"{state.iteration} iterations ({pcp.status(state)}); rank of L about its mean: {rank}")
