"""
A sweep on a Dask cluster
=========================

:func:`~robust_subspace_lab.core.sweep.run_sweep` runs methods × a parameter grid × seeds, each
seed re-drawing the corruption, locally or on the workers of a Dask distributed scheduler, and
gives the same rows either way. Here the cluster is a small one in this process
(``LocalCluster(processes=False)``); on a real cluster pass its ``tcp://HOST:PORT`` address
(and read the security note in the user guide's *Sweeps* page first). Dask's ``distributed``
package is an optional extra: ``pip install "robust-subspace-lab[distributed]"``.
"""
import matplotlib.pyplot as plt
from distributed import LocalCluster

from robust_subspace_lab.core import sweep, sweep_io
from robust_subspace_lab.core.session import CorruptionSpec, DataSpec

plan = sweep.Sweep(DataSpec("builtin", "faces", size=(20, 20)),
                   CorruptionSpec("rectangles", {"fraction": 0.2, "content": "dots"}),
                   (sweep.MethodGrid("pca-gm", {"p": (0.1, 0.3, 0.6, 1.0)}, {"n_components": 5}),),
                   n_seeds=3)

with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
    rows = sweep.run_sweep(plan, dask_address=cluster.scheduler_address)
print(f"{len(rows)} runs; columns: {', '.join(rows[0])}")

fig, ax = plt.subplots(figsize=(6, 3.4))
for metric, color in (("reconstruction_error", "tab:blue"),):
    for method, line in sweep_io.aggregate(rows, "p", metric).items():
        ax.errorbar(line["x"], line["mean"], yerr=line["std"], marker="o", capsize=3, color=color,
                    label=f"{method}: mean ± sd over {max(line['n'])} seeds")
ax.set_xlabel("p")
ax.set_ylabel("eq. 14 error vs clean faces")
ax.legend()
fig.tight_layout()
