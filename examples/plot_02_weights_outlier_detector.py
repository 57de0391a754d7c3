"""
Weights as an outlier detector
==============================

A reweighted method gives every sample a weight at every iteration. PCA-GM's weights
βᵢ = eᵢ^(p−1) (Oh & Kwak 2016, eq. 13) fall for the samples its subspace fits badly, so they
rank the samples from most to least suspect. Here 20 of the 100 faces are occluded by a
rectangle of random dots (the app's opening lesson); the area under the ROC curve of the weights as a detector of them
(:func:`~robust_subspace_lab.core.metrics.outlier_auc`) is 1.0 when every occluded face weighs
less than every clean one.
"""
import matplotlib.pyplot as plt
import numpy as np

from robust_subspace_lab.core import catalogue, corruption, datasets, metrics

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)
est = catalogue.create("pca-gm", n_components=5, p=0.3)

state = est.start(data.X)                      # iteration 0: PCA, every weight 1
aucs = []
while not est.finished(state):
    state = est.step(state)
    aucs.append(metrics.outlier_auc(state.sample_weights, data.outliers))
weights = state.sample_weights

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [3, 1]})
order = np.argsort(weights)
colors = np.where(data.outliers[order], "tab:red", "tab:blue")
ax0.bar(np.arange(len(weights)), weights[order], color=colors, width=1.0)
ax0.set_xlabel("samples, by weight (red: occluded faces)")
ax0.set_ylabel("PCA-GM weight (largest = 1)")
ax0.set_yscale("log")
ax1.plot(np.arange(1, len(aucs) + 1), aucs, marker=".")
ax1.set_xlabel("iteration")
ax1.set_ylabel("weights' AUC")
ax1.set_ylim(0, 1.05)
fig.tight_layout()
print(f"{data.n_outliers} occluded faces, AUC after {state.iteration} iterations: {aucs[-1]:.3f}")
