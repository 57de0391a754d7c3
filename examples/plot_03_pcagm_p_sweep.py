"""
The exponent p of PCA-GM
========================

PCA-GM minimises the generalized mean of the squared residuals, Σ eᵢᵖ: p = 1 is PCA, and the
smaller p, the less a large residual counts. This sweep fits PCA-GM on the occluded faces for p
from 0.1 to 1 and draws paper 000's eq. (14) error against the clean faces and the weights' AUC
as a detector of the occluded faces.
"""
import matplotlib.pyplot as plt
import numpy as np

from robust_subspace_lab.core import catalogue, corruption, datasets, metrics

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)

ps = np.array([0.1, 0.2, 0.3, 0.5, 0.7, 1.0])
errors, aucs = [], []
for p in ps:
    est = catalogue.create("pca-gm", n_components=5, p=p)
    state = None
    for state in est.iterate(data.X):          # start, then every step until the stopping rule
        pass
    errors.append(metrics.reconstruction_error(state.components, data.X, data.X_clean))
    aucs.append(metrics.outlier_auc(state.sample_weights, data.outliers))

fig, ax = plt.subplots(figsize=(6, 3.4))
ax.plot(ps, errors, marker="o", color="tab:blue")
ax.set_xlabel("p (1 = PCA)")
ax.set_ylabel("eq. 14 error (grey levels)", color="tab:blue")
ax2 = ax.twinx()
ax2.plot(ps, aucs, marker="s", color="tab:red")
ax2.set_ylabel("weights' AUC", color="tab:red")
ax2.set_ylim(0, 1.05)
fig.tight_layout()
