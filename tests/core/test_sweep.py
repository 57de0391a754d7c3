"""core.sweep: the sweep's tasks and seeds, one row per run with its metrics, the same rows from
a thread, worker processes and a Dask cluster, and Cancel."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, interrupt, metrics, sweep as sw, sweep_io
from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session.spec import CorruptionSpec, DataSpec, prepare

SIZE = (20, 20)


def _sweep(n_seeds=3, methods=None, grids=(("p", ("0.1", "0.5", "1.0")),)) -> sw.Sweep:
    """The issue's command (faces, rectangles, pca-gm, p = 0.1, 0.5, 1.0, 3 seeds) on 20×20 faces."""
    methods = methods or [sweep_io.parse_method("pca-gm:max_iter=30")]
    return sweep_io.build_sweep(DataSpec(size=SIZE), sweep_io.parse_corruption("rectangles"), methods, list(grids),
                          n_seeds=n_seeds)


def _without_time(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_seeds_come_from_seedsequence_spawn():
    seeds = sw.spawn_seeds(7, 3)
    children = np.random.SeedSequence(7).spawn(3)
    assert seeds == [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]
    assert len(set(seeds)) == 3
    with pytest.raises(ParameterError, match="n_seeds"):
        sw.spawn_seeds(0, 0)


def test_issue_command_gives_nine_rows_with_the_columns(tmp_path):
    s = _sweep()
    rows = sw.run_sweep(s)
    assert len(rows) == 9
    path = tmp_path / "results.csv"
    cols = sweep_io.write_csv(path, rows, s.swept_names)
    for c in ("method", "p", "seed", "n_iter", "converged", "seconds", "reconstruction_error", "outlier_auc"):
        assert c in cols
    assert cols[:2] == ["method", "p"]
    back = sweep_io.read_csv(path)
    assert [(r["method"], r["p"], r["seed"]) for r in back] == [
        ("pca-gm", p, seed) for p in (0.1, 0.5, 1.0) for seed in s.seeds]
    assert all(isinstance(r["converged"], bool) and r["n_iter"] >= 1 for r in back)
    # p = 1 is PCA: equal weights, so the weights cannot tell the outliers apart (AUC ½)
    assert all(r["outlier_auc"] == pytest.approx(0.5) for r in back if r["p"] == 1.0)


def test_a_row_is_the_metric_of_the_run_on_the_data_redrawn_from_its_seed():
    """run_task's row equals a fit done by hand on the corruption drawn with the task's seed."""
    task = _sweep().tasks()[4]                       # p = 0.5, second seed
    row = sw.run_task(task)
    data = prepare(DataSpec(size=SIZE), CorruptionSpec("rectangles").with_seed(task.seed))
    est = catalogue.create("pca-gm", p=0.5, max_iter=30).fit(data.X)
    keep = ~data.added
    assert row["reconstruction_error"] == pytest.approx(
        metrics.reconstruction_error(est.components_, data.X, data.X_clean, include=keep))
    assert row["outlier_auc"] == pytest.approx(metrics.outlier_auc(est.sample_weights_, data.outliers))
    assert row["n_iter"] == est.n_iter_ and row["converged"] == est.converged_


def test_seeds_redraw_the_corruption_and_repeat_exactly():
    s = _sweep(n_seeds=2, grids=(("p", ("0.5",)),))
    a, b = sw.run_sweep(s), sw.run_sweep(s)
    assert _without_time(a) == _without_time(b)
    assert a[0]["reconstruction_error"] != a[1]["reconstruction_error"]   # other seed, other corruption


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")   # PCA-GM's inner robust mean
def test_max_iter_stop_is_not_converged_and_no_nan():
    s = _sweep(n_seeds=1, methods=[sweep_io.parse_method("pca-gm:max_iter=1,tol=1e-12")], grids=(("p", ("0.2",)),))
    (row,) = sw.run_sweep(s)
    assert row["converged"] is False and row["n_iter"] == 1 and row["error"] == ""


def test_methods_without_the_swept_parameter_run_once_per_seed():
    s = _sweep(n_seeds=2, methods=[sweep_io.parse_method("pca"), sweep_io.parse_method("pca-gm:max_iter=20")])
    rows = sw.run_sweep(s, n_jobs=2)
    assert [r["method"] for r in rows] == ["pca"] * 2 + ["pca-gm"] * 6
    assert "p" not in rows[0] and "p" in rows[2]                   # PCA has no p
    agg = sweep_io.aggregate(rows, "p", "reconstruction_error")
    assert list(agg["pca-gm"]["x"]) == [0.1, 0.5, 1.0] and list(agg["pca-gm"]["n"]) == [2, 2, 2]
    assert agg["pca"]["x"].size == 0 and agg["pca"]["n"][0] == 2
    # p = 1 is plain PCA (paper 000): the same error as PCA on the same seeds
    np.testing.assert_allclose(agg["pca-gm"]["mean"][2], agg["pca"]["mean"][0], rtol=1e-6)


def test_bad_values_are_refused_before_any_run():
    with pytest.raises(ParameterError, match="p"):
        _sweep(grids=(("p", ("0.1", "1.5")),))
    with pytest.raises(ParameterError, match="nope"):
        _sweep(grids=(("nope", ("1",)),))
    with pytest.raises(ParameterError, match="fraction"):
        sweep_io.parse_corruption("rectangles:fraction=2")
    with pytest.raises(ParameterError, match="max_iter"):
        sweep_io.parse_method("pca-gm:max_iter=x")
    with pytest.raises(ParameterError, match="regression"):
        sw.Sweep(DataSpec(), CorruptionSpec(), (sw.MethodGrid("rr"),)).validate()


def test_local_processes_and_dask_localcluster_give_the_same_rows():
    distributed = pytest.importorskip("distributed")
    s = _sweep(n_seeds=2)
    local = sw.run_sweep(s, n_jobs=1)
    procs = sw.run_sweep(s, n_jobs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        streamed = []
        dask_rows = sw.run_sweep(s, dask_address=cluster.scheduler_address, on_result=streamed.append)
    assert len(streamed) == len(dask_rows) == 6
    for other in (procs, dask_rows):
        assert [r.keys() for r in other] == [r.keys() for r in local]
        for a, b in zip(local, other):
            for k, v in a.items():
                if k == "seconds":
                    continue
                if isinstance(v, float):
                    assert b[k] == pytest.approx(v, rel=1e-9), k
                else:
                    assert b[k] == v, k


def test_cancel_halfway_returns_the_finished_rows_and_stops():
    s = _sweep()
    cancel = threading.Event()
    seen = []

    def on_result(row):
        seen.append(row)
        if len(seen) == 4:
            cancel.set()

    rows = sw.run_sweep(s, n_jobs=1, on_result=on_result, cancel=cancel)
    assert 4 <= len(rows) < 9
    assert len(seen) == len(rows)
    tasks = s.tasks()
    assert all(s.task_for(r).index < len(tasks) for r in rows)


def test_cancel_stops_a_running_fit_and_nothing_starts_after_it():
    """A run inside a cancelled block stops at its checkpoint (Cancelled, not an error row);
    a sweep cancelled before it starts submits nothing."""
    cancel = threading.Event()
    cancel.set()
    with interrupt.cancellable(cancel), pytest.raises(interrupt.Cancelled):
        sw.run_task(_sweep().tasks()[0])
    assert sw.run_sweep(_sweep(), n_jobs=1, cancel=cancel) == []


def test_replay_recomputes_the_states_of_a_row():
    s = _sweep(n_seeds=1)
    row = sw.run_sweep(s)[1]
    data, states = sw.replay(s.task_for(row))
    assert states[0].iteration == 0 and states[-1].iteration == row["n_iter"]
    assert sw.measure(states[-1], data)["reconstruction_error"] == pytest.approx(row["reconstruction_error"])


def test_text_inputs_are_typed_by_their_paramspecs(tmp_path):
    c = sweep_io.parse_corruption("rectangles:fraction=0.3,content=black")
    assert c.key == "rectangles" and dict(c.params) == {"fraction": 0.3, "content": "black"}
    m = sweep_io.parse_method("rspca:pca_start=false,k_nonzero=50")
    assert m.fixed == {"pca_start": False, "k_nonzero": 50}
    assert sweep_io.parse_grid("p=0.1, 0.5") == ("p", ["0.1", "0.5"])
    assert sweep_io.parse_data("digits").name == "digits"
    assert sweep_io.parse_data(str(tmp_path)).kind == "folder"
    assert sweep_io.parse_data("toy:line").kind == "toy"
    with pytest.raises(ParameterError, match="content"):
        sweep_io.parse_corruption("rectangles:content=green")
    with pytest.raises(ParameterError, match="--data"):
        sweep_io.parse_data(str(tmp_path / "missing"))


def test_a_toy_is_redrawn_per_seed_and_the_method_seed_follows_the_run_seed():
    toy = sw.Sweep(DataSpec(kind="toy", name="line"), CorruptionSpec("none"),
                   (sw.MethodGrid("pca-gm", fixed={"n_components": 1}),), n_seeds=2).validate()
    a, b = sw.run_sweep(toy)
    assert a["seed"] != b["seed"] and a["reconstruction_error"] != b["reconstruction_error"]
    nmf = sw.Sweep(DataSpec(size=SIZE), CorruptionSpec(), (sw.MethodGrid("nmf", fixed={"max_iter": 2}),),
                   n_seeds=2)
    assert [t.params["random_state"] for t in nmf.tasks()] == nmf.seeds


def test_in_process_runs_give_way_at_their_checkpoints():
    """n_jobs = 1: the runs' checkpoints (the corruption's loop and the solver's) call the
    ``give_way`` passed in, with the sweep's cancel event (the app pauses the runs while its
    window is late); a sweep without one runs as before."""
    cancel = threading.Event()
    calls = []
    rows = sw.run_sweep(_sweep(n_seeds=1), n_jobs=1, cancel=cancel, give_way=calls.append)
    assert len(rows) == 3 and not any(r.get("error") for r in rows)
    assert len(calls) >= 3 and all(c is cancel for c in calls)


def test_a_sweep_in_this_process_keeps_no_images_once_it_ends():
    """The loaded images are cached for the sweep's tasks (one load), and let go when a sweep run in
    the calling process (the app's) ends: they are the data set's size (352 MB for the 5,000 digits
    at 96 × 96, up to four sets)."""
    sw._load.cache_clear()
    seen = []
    rows = sw.run_sweep(_sweep(n_seeds=2), n_jobs=1, on_result=lambda row: seen.append(sw._load.cache_info().currsize))
    assert len(rows) == 6 and max(seen) == 1           # loaded once while the sweep ran
    assert sw._load.cache_info().currsize == 0
