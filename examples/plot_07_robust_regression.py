"""
Robust regression on the 3-D example
=====================================

Paper 004 (Huang, Cabral & De la Torre, IEEE TPAMI 2016, §5.1) regresses one coordinate of 200
points on a plane in 3-D from the other two, with 20 points pushed along the plane and 20 out of
it. Robust regression (RR) cleans the inputs while it learns the regressor: X = D + E with D low
rank and E sparse. Least squares (LSR) fits the outliers too. The error is the paper's RAE_Y,
the relative error of the predicted outputs on the test points.
"""
import matplotlib.pyplot as plt

from robust_subspace_lab.core import catalogue, metrics
from robust_subspace_lab.core.regression import data as regression_data

problem = regression_data.synthetic_3d(seed=0)
X, Y, train = problem.X, problem.Y, problem.train

fits = {key: catalogue.create(key).fit(X[train], Y[train]) for key in ("lsr", "rr")}
errors = {key: metrics.prediction_relative_error(Y[~train], est.predict(X[~train]))
          for key, est in fits.items()}

fig, axes = plt.subplots(1, 2, figsize=(8, 3.6), sharex=True, sharey=True)
for ax, (key, est) in zip(axes, fits.items()):
    ax.scatter(Y[~train, 0], est.predict(X[~train])[:, 0], s=10)
    lo, hi = Y[~train, 0].min(), Y[~train, 0].max()
    ax.plot([lo, hi], [lo, hi], color="gray", linewidth=1)
    ax.set_title(f"{est.name}: RAE_Y {errors[key]:.3f}")
    ax.set_xlabel("true output (test points)")
axes[0].set_ylabel("predicted output")
fig.tight_layout()
