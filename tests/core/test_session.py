"""core.session: runs, their history within a memory budget, sessions as plain data, and the
domain rules the app asks of core (data limits, which regression method fits which data). No Qt."""
import json

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, convergence, metrics, views
from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.regression import data as rdata
from robust_subspace_lab.core.session import (CorruptionSpec, DataChoice, DataSpec, History, Run, Session,
                                              fit_to_data, plan_method, regressor_for)
from robust_subspace_lab.core.session.history import SharedBudget


@pytest.fixture(scope="module")
def small():
    """The 100 built-in faces at 12 × 12, 20 % occluded by rectangles of dots."""
    s = Session(DataSpec("builtin", "faces", size=(12, 12)),
                CorruptionSpec("rectangles", {"fraction": 0.2, "seed": 1}))
    return s.build()


def test_the_session_model_never_imports_qt():
    import inspect
    import robust_subspace_lab.core.session as S
    for mod in (S.run, S.session, S.history, S.choice, S.spec):
        assert "PySide6" not in inspect.getsource(mod)


def test_a_run_fits_as_its_estimator_does_and_reports_how_it_ended(small):
    run = Run("pca-gm", {"n_components": 3, "p": 0.5, "max_iter": 60})
    last = run.fit(small)
    est = catalogue.create("pca-gm", n_components=3, p=0.5, max_iter=60).fit(small.X)
    assert [s.iteration for s in run.states] == list(range(len(run.states)))
    assert last.iteration == est.n_iter_
    np.testing.assert_allclose(np.abs(last.components @ est.components_.T), np.eye(3), atol=1e-8)
    kind, text = run.status()
    assert kind == (convergence.CONVERGED if est.converged_ else convergence.MAX_ITER)
    assert str(last.iteration if kind == convergence.CONVERGED else 60) in text


def test_a_run_steps_one_iteration_at_a_time_and_refuses_to_step_before_start(small):
    run = Run("pca-gm", {"n_components": 2})
    with pytest.raises(ParameterError, match="start"):
        run.step()
    run.start(small)
    run.step(3)
    assert run.iteration == 3 and run.status()[0] == convergence.RUNNING
    with pytest.raises(ParameterError, match="p"):
        Run("pca-gm", {"p": -1.0})


def test_history_thins_within_its_budget_and_pinned_snapshots_are_exact(small):
    """A run whose states exceed the budget keeps state 0 and the newest whole, thins the others,
    and what a viewer pinned before thinning equals the snapshot of the unthinned run."""
    full = Run("pcp", {"max_iter": 8})
    full.fit(small)
    per_state = full.history.sizes[2]
    assert per_state > 0
    pinned = {}
    budget = 3 * per_state + full.history.sizes[0]
    thin = Run("pcp", {"max_iter": 8}, History(budget, pin=lambda s: pinned.setdefault(
        s.iteration, views.snapshot(s, small))))
    thin.fit(small)
    assert thin.history.nbytes <= budget and pinned and len(thin.states) == len(full.states)
    assert thin.states[0].sparse_part is not None and thin.states[-1].sparse_part is not None
    for it, snap in pinned.items():
        assert thin.states[it].sparse_part is None and it in thin.history.thinned
        ref = views.snapshot(full.states[it], small)
        np.testing.assert_array_equal(snap.basis, ref.basis)
        np.testing.assert_array_equal(snap.rows, ref.rows)
        assert snap.objective == ref.objective
    # the next step starts from the newest state, which was never thinned
    assert thin.states[-1].objective == full.states[-1].objective


def test_runs_sharing_a_budget_hold_at_most_its_total_together(small):
    """Three runs in one SharedBudget (the app's columns): each history is thinned to an equal
    share, so all of them together stay within the total (plus each one's start and newest states,
    never thinned), where three own budgets would hold three times as much; a run still at its
    start state takes no share; the thinned states are still the same run."""
    full = Run("pcp", {"max_iter": 8})
    full.fit(small)
    per_state = full.history.sizes[2]
    total = 6 * per_state
    pool = SharedBudget(total)
    runs = [Run("pcp", {"max_iter": 8}, History(pool)) for _ in range(3)]
    idle = Run("pcp", {"max_iter": 8}, History(pool))
    idle.start(small)
    assert pool.share() == total                 # nobody has stepped yet
    for run in runs:
        run.start(small)
    for _ in range(8):
        for run in runs:
            run.step()
    assert pool.share() == total // 3
    kept = sum(r.history.nbytes for r in runs)
    never_thinned = sum(r.history.sizes[0] + r.history.sizes[-1] for r in runs)
    assert kept <= total + never_thinned
    assert full.history.nbytes > 2 * (total // 3)  # on its own budget it would keep more
    assert all(r.history.thinned and len(r.states) == len(full.states) for r in runs)
    assert runs[0].states[-1].objective == full.states[-1].objective
    assert runs[0].with_params(max_iter=9).history.pool is pool


def test_a_session_round_trips_through_json_and_rebuilds_identical_data():
    s = Session(DataSpec("builtin", "digits", size=(10, 10), options={"digits": [3, 8]}),
                CorruptionSpec("salt_pepper", {"density": 0.2, "seed": 5}),
                DataChoice(source="synthetic", options={"seed": 4, "noise": 0.5}))
    s.add_run("pca", {"n_components": 4})
    s.add_run("rlda", {})
    back = Session.from_json(json.dumps(s.to_dict()))
    assert back.to_dict() == s.to_dict()
    assert [r.task for r in back.runs] == ["subspace", "regression"]
    assert back.runs[0].params == s.runs[0].params
    a, b = s.build(), back.build()
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.mask, b.mask)
    ra, rb = s.build("regression"), back.build("regression")
    np.testing.assert_array_equal(ra.X, rb.X)
    np.testing.assert_array_equal(ra.Y, rb.Y)
    with pytest.raises(ParameterError, match="version"):
        Session.from_dict({**s.to_dict(), "version": 99})


def test_observers_hear_every_change():
    heard = []
    s = Session()
    s.subscribe(heard.append)
    s.set_corruption(CorruptionSpec("salt_pepper"))
    run = s.add_run("pca")
    s.remove_run(run)
    assert heard == ["corruption", "runs", "runs"] and not s.runs


def test_regression_runs_are_runs_of_the_same_kind():
    s = Session(regression=DataChoice(source="synthetic", options={"seed": 0}))
    data = s.build("regression")
    run = s.add_run("rr", {"max_iter": 30})
    run.fit(data)
    est = catalogue.create("rr", max_iter=30).fit(data.X_train, data.Y_train)
    np.testing.assert_allclose(run.states[-1].T, est.T_, rtol=1e-10, atol=1e-12)
    assert run.status()[0] in (convergence.CONVERGED, convergence.MAX_ITER)


def test_size_parameters_are_lowered_to_what_the_data_allow():
    info = catalogue.get("pca-gm")
    assert fit_to_data(info, {"n_components": 10, "p": 0.3}, (200, 2)) == {"n_components": 1, "p": 0.3}
    assert fit_to_data(info, {"n_components": 10}, (200, 50)) == {"n_components": 10}
    assert fit_to_data(info, {"n_components": 10}, None) == {"n_components": 10}


def test_gamma_scale_is_resolved_for_the_data_and_stays_the_users_choice():
    """γ = "scale" (Outlier Pursuit, CRPCA-OM) becomes the number for the data's shape; the number
    the controls send back for that shape is "scale" again, any other number stays a number."""
    from robust_subspace_lab.core.session.run import as_wanted, resolve_auto

    info = catalogue.get("crpca-om")
    assert fit_to_data(info, {"gamma": "scale", "n_components": 0}, (5000, 784)) == \
        {"gamma": 5.051, "n_components": 0}
    assert fit_to_data(info, {"gamma": "scale"}, (100, 625)) == {"gamma": 1.5}
    assert fit_to_data(info, {"gamma": "scale"}, None) == {"gamma": "scale"}
    assert resolve_auto(info, {"gamma": 2.0}, (5000, 784)) == {"gamma": 2.0}
    assert as_wanted(info, {"gamma": 5.051}, (5000, 784)) == {"gamma": "scale"}
    assert as_wanted(info, {"gamma": 5.051}, (100, 625)) == {"gamma": 5.051}
    assert as_wanted(info, {"gamma": 5.051}, None) == {"gamma": 5.051}
    assert as_wanted(catalogue.get("gpower"), {"gamma": 1.5}, (100, 625)) == {"gamma": 1.5}  # no word


def test_plan_method_refuses_a_classifier_on_numeric_targets_and_switches_to_the_missing_variant():
    numeric = rdata.synthetic_3d(seed=0)
    verdict, key, text = plan_method(catalogue.get("rlda"), numeric)
    assert verdict == "refuse" and "class labels" in text
    assert plan_method(catalogue.get("rr"), numeric)[:2] == ("ok", "rr")
    holes = DataChoice(source="digits", options={"per_class": 4, "size": "16×16"}, corruption="missing_blocks")
    data = Session(regression=holes).build("regression")
    assert np.isnan(data.X).any()
    assert plan_method(catalogue.get("rr"), data)[:2] == ("switch", "rr-missing")
    assert plan_method(catalogue.get("rlda"), data)[:2] == ("switch", "rlda-missing")
    assert plan_method(catalogue.get("ridge"), data)[0] == "refuse"
    assert regressor_for(data).key == "rr-missing" and regressor_for(numeric).key == "rr"


def test_confusion_matrix_counts_and_its_trace_is_the_accuracy():
    y = np.array([0, 0, 1, 1, 2, 2, 2])
    p = np.array([0, 1, 1, 1, 2, 0, 2])
    C = metrics.confusion_matrix(y, p, classes=[0, 1, 2])
    assert C.sum() == len(y) and C[0, 1] == 1 and C[2, 0] == 1
    assert np.trace(C) / len(y) == metrics.classification_accuracy(y, p)
    np.testing.assert_array_equal(C.sum(axis=1), np.bincount(y))


@pytest.mark.parametrize("method", ["tc-nmf", "rr"])
def test_a_run_pickles_mid_way_and_continues_exactly_as_the_original(small, method):
    """The run's state is light and picklable (arrays and plain values): a copy sent to another
    process steps on to the same iterate."""
    import pickle

    data = small if method != "rr" else Session(regression=DataChoice(source="synthetic")).build("regression")
    run = Run(method, {})
    run.start(data)
    run.step(2)
    copy = pickle.loads(pickle.dumps(run))
    run.step(2)
    copy.step(2)
    assert copy.iteration == run.iteration == 4
    a, b = run.states[-1], copy.states[-1]
    np.testing.assert_array_equal(a.T if method == "rr" else a.components, b.T if method == "rr" else b.components)
    assert a.objective == b.objective


def test_runs_saved_with_former_parameter_names_reopen_with_todays():
    """RR's and RLDA's ``lam`` is ``lam_scale`` (PCP's name of the same λ·√max(n, d)) and their
    ``gamma`` is ``alpha`` (scikit-learn's and Ridge's name of the ridge weight): a session saved
    before the rename reopens with the values under today's names (a DeprecationWarning says so),
    a lesson file and a script still say the old names, and the old and new name together are
    refused rather than one silently dropped."""
    from robust_subspace_lab.core.lessons import loader

    old = Session(regression=DataChoice(source="synthetic", options={"seed": 0})).to_dict()
    old["runs"] = [{"method": "rr", "task": "regression", "params": {"lam": 3.0, "gamma": 0.02, "eta": 50.0}},
                   {"method": "rlda", "task": "regression", "params": {"lam": 7.0}}]
    with pytest.warns(DeprecationWarning) as heard:
        back = Session.from_dict(json.loads(json.dumps(old)))
    said = {str(w.message) for w in heard}
    assert {"RR: the parameter 'lam' is now 'lam_scale' (the old name goes in 1.0)",
            "RR: the parameter 'gamma' is now 'alpha' (the old name goes in 1.0)"} <= said
    rr, rlda = back.runs
    assert (rr.params["lam_scale"], rr.params["alpha"], rr.params["eta"]) == (3.0, 0.02, 50.0)
    assert rlda.params["lam_scale"] == 7.0 and rlda.params["alpha"] == 3.0      # RLDA's own default
    assert "lam" not in rr.params and "gamma" not in rr.params
    assert back.to_dict()["runs"][0]["params"]["lam_scale"] == 3.0             # saved again: today's names
    with pytest.warns(DeprecationWarning) as heard:
        assert catalogue.create("rr", lam=3.0, gamma=0.02).get_params()["alpha"] == 0.02
    assert len(heard) == 2
    with pytest.raises(ParameterError, match="give lam_scale only"):
        Run("rr", {"lam": 3.0, "lam_scale": 2.0})
    text = ('key = "old-rr"\ntitle = "t"\nconcept = "c"\nteaches = "t"\nseed = 0\n[[steps]]\ntitle = "s"\n'
            'text = "x"\nlook_at = "regression"\naction = { kind = "converge" }\n[steps.setup]\n'
            'task = "regression"\ndata = "regression:synthetic"\n'
            'methods = [ { key = "rr", params = { lam = 3.0, gamma = 0.02 } } ]\n')
    with pytest.warns(DeprecationWarning):
        lesson = loader.loads(text)
    assert dict(lesson.steps[0].setup.methods)["rr"] == {"lam_scale": 3.0, "alpha": 0.02}


def test_test_cleaning_round_trips_and_a_non_boolean_entry_is_refused_by_name():
    assert Session.from_dict(Session(test_cleaning=True).to_dict()).test_cleaning is True
    d = Session().to_dict()
    assert Session.from_dict(d).test_cleaning is False
    del d["test_cleaning"]                       # a file written before the entry existed
    assert Session.from_dict(d).test_cleaning is False
    d["test_cleaning"] = "yes"
    with pytest.raises(ParameterError, match="test_cleaning"):
        Session.from_dict(d)
