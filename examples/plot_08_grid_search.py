"""
Choosing p and k with GridSearchCV
==================================

Every estimator of the catalogue is a scikit-learn estimator, so scikit-learn's model selection
works on it. What to score is the question: on corrupted data the plain squared reconstruction
error prefers PCA (p = 1), which fits the occlusions best. Here the corrupted faces are the
input and the clean faces the target ``y``: the scorer is the negative mean distance between
each clean face and the reconstruction of its corrupted version (paper 000's eq. 14 on the
held-out fold), so the search rewards a subspace that ignores the occlusions.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, KFold

from robust_subspace_lab.core import catalogue, corruption, datasets

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)


def clean_reconstruction_score(estimator, X, X_clean):
    """Minus the mean ‖x_clean − x̂‖ over the held-out faces (grey levels)."""
    X_hat = estimator.inverse_transform(estimator.transform(X))
    return -float(np.mean(np.linalg.norm(X_clean - X_hat, axis=1)))


search = GridSearchCV(catalogue.create("pca-gm"),
                      {"p": [0.1, 0.3, 1.0], "n_components": [3, 5]},
                      scoring=clean_reconstruction_score,
                      cv=KFold(3, shuffle=True, random_state=0))
search.fit(data.X, data.X_clean)

results = search.cv_results_
fig, ax = plt.subplots(figsize=(6, 3.4))
for k in (3, 5):
    rows = results["param_n_components"] == k
    ax.errorbar(np.asarray(results["param_p"][rows], dtype=float), -results["mean_test_score"][rows],
                yerr=results["std_test_score"][rows], marker="o", capsize=3, label=f"k = {k}")
ax.set_xlabel("p (1 = PCA)")
ax.set_ylabel("held-out error vs clean faces")
ax.set_title(f"best: {search.best_params_}")
ax.legend()
fig.tight_layout()
print(search.best_params_)
