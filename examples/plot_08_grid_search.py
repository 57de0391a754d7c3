"""
Choosing p and k with GridSearchCV
==================================

Every estimator of the catalogue is a scikit-learn estimator with a ``score`` (for the
decompositions, minus the mean squared reconstruction error per sample), so scikit-learn's
model selection works on it without a scorer. Here the search chooses PCA-GM's exponent p and its
number of components k on the occluded faces, by 2-fold cross-validation, twice: with the
estimator's own ``score`` (the held-out corrupted faces against their reconstructions), and with
a scorer that compares the reconstructions with the clean faces, given as the target ``y``
(paper 000's eq. 14 on the held-out fold: the error a user of robust PCA cares about, known here
because the corruption is ours).
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, KFold

from robust_subspace_lab.core import catalogue, corruption, datasets

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)
grid = {"p": [0.1, 0.3, 1.0], "n_components": [3, 5]}
folds = KFold(2, shuffle=True, random_state=0)

# 1. no scorer: PCAGM.score, minus the mean squared reconstruction error of the held-out faces
own = GridSearchCV(catalogue.create("pca-gm"), grid, cv=folds).fit(data.X)


# 2. against the clean faces: minus the mean distance ‖x_clean − x̂‖ (grey levels)
def clean_reconstruction_score(estimator, X, X_clean):
    X_hat = estimator.inverse_transform(estimator.transform(X))
    return -float(np.mean(np.linalg.norm(X_clean - X_hat, axis=1)))


clean = GridSearchCV(catalogue.create("pca-gm"), grid, scoring=clean_reconstruction_score,
                     cv=folds).fit(data.X, data.X_clean)

fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
for ax, search, label in ((axes[0], own, "held-out squared error (own score)"),
                          (axes[1], clean, "held-out error vs clean faces")):
    results = search.cv_results_
    for k in grid["n_components"]:
        rows = results["param_n_components"] == k
        ax.errorbar(np.asarray(results["param_p"][rows], dtype=float), -results["mean_test_score"][rows],
                    yerr=results["std_test_score"][rows], marker="o", capsize=3, label=f"k = {k}")
    ax.set_xlabel("p (1 = PCA)")
    ax.set_ylabel(label)
    ax.set_title(f"best: p = {search.best_params_['p']}, k = {search.best_params_['n_components']}",
                 fontsize=10)
    ax.legend()
fig.tight_layout()
print("own score:", own.best_params_, " clean faces:", clean.best_params_)
