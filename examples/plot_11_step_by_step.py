"""
One iteration at a time
=======================

Every method of the catalogue can be run one iteration at a time: ``start`` gives the state at
iteration 0, ``step`` the next one, ``finished`` says when the method's stopping rule is met (or
``max_iter`` is reached), and each state carries the objective, the weights and the components
at that iteration. ``fit`` runs the same loop. Here four reweighted robust PCA methods run on
the occluded faces; their objectives are in different units, so each curve is divided by its
value at iteration 0.
"""
import matplotlib.pyplot as plt

from robust_subspace_lab.core import catalogue, corruption, datasets

faces = datasets.lfw_faces()
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)

fig, ax = plt.subplots(figsize=(6, 3.4))
for key in ("pca-gm", "rpca-om", "r1-pca", "hq-pca"):
    est = catalogue.create(key, n_components=5)
    state = est.start(data.X)
    while not est.finished(state):
        state = est.step(state)
    history = state.objective_history
    ax.plot([v / history[0] for v in history], marker=".", label=f"{state.method}: {est.status(state)}")
ax.set_xlabel("iteration")
ax.set_ylabel("objective / objective at iteration 0")
ax.legend(fontsize=8)
fig.tight_layout()
