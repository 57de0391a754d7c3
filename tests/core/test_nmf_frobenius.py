"""Plain Frobenius NMF's lean step (issue 12 point 5, core.methods.nmf_frobenius): its
multiplicative update follows scikit-learn's iterates, its objective from Gram products equals
½‖X − HW‖², the Gram matrix it keeps is its basis's, a NaN, infinity or divergence still stops
the run with SolverError naming the iteration and the cause, and the states it builds without
the dataclass constructor are the constructor's."""
import dataclasses
import itertools
import warnings

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, datasets
from robust_subspace_lab.core.errors import SolverError
from robust_subspace_lab.core.methods import nmf_base as NB
from robust_subspace_lab.core.methods.nmf_state import CARRIED, NMFState, next_state


@pytest.fixture(scope="module")
def face_data(faces):
    return faces.X


@pytest.fixture(scope="module")
def digits():
    return datasets.load_builtin("digits").X[:300]


def steps(est, X, n):
    """The start state and the states of the next n steps."""
    return list(itertools.islice(est.iterate(X), n + 1))


@pytest.mark.parametrize("data", ["face_data", "digits"])
def test_mu_iterates_equal_scikit_learns(data, request):
    """From the same start, the product HW after k multiplicative updates equals scikit-learn's
    ``NMF(solver="mu")`` after k iterations to round-off (grey levels 0–255 / 0–16), although
    our step rescales the factors and takes its Gram matrix from the last step."""
    from sklearn.decomposition import NMF as SkNMF

    X = request.getfixturevalue(data)
    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=1000, tol=0.0)
    states = steps(est, X, 40)
    H0, W0 = np.array(states[0].coefficients), np.array(states[0].components)
    for k in (1, 2, 7, 40):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = SkNMF(10, init="custom", solver="mu", max_iter=k, tol=0.0)
            Hs = sk.fit_transform(X, W=H0.copy(), H=W0.copy())
        ours = states[k].coefficients @ states[k].components
        np.testing.assert_allclose(ours, Hs @ sk.components_, rtol=0, atol=1e-9 * X.max())


@pytest.mark.parametrize("solver", ["mu", "nesterov"])
@pytest.mark.parametrize("data", ["face_data", "digits"])
def test_objective_from_gram_products_equals_the_direct_formula(solver, data, request):
    """Every state's objective, ½(‖X‖² − 2⟨HᵀX, W⟩ + ⟨HᵀH, WWᵀ⟩), equals ½ Σ (X − HW)² to a
    relative 1e-10 (the residual keeps a few % of ‖X‖², so the cancellation costs ~1e-14); the
    Gram matrix a state keeps for its next step is WWᵀ of the basis that step starts from: the
    unit-norm one (Nesterov, and the start), or the multiplicative update's raw one."""
    X = request.getfixturevalue(data)
    est = catalogue.create("nmf", n_components=10, solver=solver, max_iter=1000, tol=0.0)
    for s in steps(est, X, 15):
        R = X - s.coefficients @ s.components
        assert s.objective == pytest.approx(0.5 * float(np.sum(R * R)), rel=1e-10)
        WWt = s.__dict__["_gram"]
        raw = s.__dict__.get("_factors")
        assert (raw is not None) == (solver == "mu" and s.iteration > 0)
        W = s.components if raw is None else raw[1]
        np.testing.assert_allclose(WWt, W @ W.T, rtol=1e-13, atol=0)
        if raw is None:
            np.testing.assert_allclose(np.diagonal(WWt), 1.0, rtol=1e-13)


def test_objective_of_a_near_exact_fit_within_its_absolute_bound():
    """On data of exactly rank r the residual vanishes and the Gram-product objective can only be
    trusted to an absolute error of order eps × ‖X‖² (documented in frobenius_objective): it stays
    within 1e-14 ‖X‖² of the direct formula (measured: at most 4e-16 ‖X‖²) and is never negative,
    while the objective falls below 1e-6 ‖X‖² (there the relative error reaches ~1e-9)."""
    rng = np.random.default_rng(3)
    X = rng.random((80, 3)) @ rng.random((3, 50)) * 100.0
    est = catalogue.create("nmf", n_components=3, solver="nesterov", max_iter=1000, tol=0.0,
                           inner_max_iter=200)
    sq = float(np.sum(X * X))
    for s in steps(est, X, 150):
        R = X - s.coefficients @ s.components
        assert s.objective >= 0.0
        assert abs(s.objective - 0.5 * float(np.sum(R * R))) <= 1e-14 * sq
    assert s.objective < 1e-6 * sq                   # the fit did become near exact


def _poison(monkeypatch, name, side, at_call, value):
    """Make the ``at_call``-th solve of the given side (counted from 1) return a result with one
    entry set to ``value``."""
    real = getattr(NB, name)
    calls = {"n": 0}

    def poisoned(X, F, Y, *args, **kwargs):
        out = real(X, F, Y, *args, **kwargs)
        if kwargs.get("side") != side:
            return out
        calls["n"] += 1
        if calls["n"] == at_call:
            Y = out.Y if name == "wnls" else out
            Y = np.array(Y)
            Y.flat[7] = value
            return dataclasses.replace(out, Y=Y) if name == "wnls" else Y
        return out

    monkeypatch.setattr(NB, name, poisoned)


@pytest.mark.parametrize("solver, name", [("mu", "mu_update"), ("nesterov", "wnls")])
@pytest.mark.parametrize("side, what", [("left", "the coefficients"), ("right", "the basis images")])
@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_nan_or_infinity_in_a_factor_stops_the_run(face_data, monkeypatch, solver, name, side, what,
                                                   value):
    """A NaN or an infinity in either factor is never carried on: the step that makes it raises
    SolverError naming the method, the iteration and the factor."""
    _poison(monkeypatch, name, side, 3, value)
    est = catalogue.create("nmf", n_components=10, solver=solver, max_iter=50, tol=0.0)
    s = est.step(est.step(est.start(face_data)))
    with pytest.raises(SolverError, match=f"NMF stopped at iteration 3: {what} contain NaN"):
        est.step(s)


def test_a_step_far_outside_the_data_range_stops_the_run(face_data, monkeypatch):
    """The divergence guard still runs on every step (from the bound on max HW, HW formed only
    when the bound exceeds the limit): a basis blown up 10⁴ × raises SolverError."""
    real = NB.mu_update

    def blown(X, F, Y, *args, **kwargs):
        out = real(X, F, Y, *args, **kwargs)
        return out * 1e4 if kwargs.get("side") == "right" else out

    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=50, tol=0.0)
    s = est.step(est.start(face_data))
    monkeypatch.setattr(NB, "mu_update", blown)
    with pytest.raises(SolverError, match="NMF diverged at iteration 2: the fitted values reach"):
        est.step(s)


def test_a_replaced_state_steps_with_its_own_gram_matrix(face_data):
    """The Gram matrix kept with a state is never stale: a state made by ``dataclasses.replace``
    with other factors has none and steps exactly as the same factors freshly started."""
    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=50, tol=0.0)
    s = est.step(est.step(est.start(face_data)))
    other = est.step(s)
    swapped = dataclasses.replace(s, components=other.components,
                                  coefficients=other.coefficients, fitted=NB.LAZY)
    assert "_gram" not in swapped.__dict__
    a, b = est.step(swapped), est.step(other)
    np.testing.assert_allclose(a.coefficients @ a.components, b.coefficients @ b.components,
                               rtol=0, atol=1e-9)


@pytest.mark.parametrize("key", ["nmf", "tc-nmf", "rnmf-l1", "l21-nmf"])
def test_a_steps_state_is_the_constructors_state(face_data, key):
    """A step builds its state with ``next_state`` (no dataclass constructor): it is the instance
    ``NMFState(**fields)`` gives for the same fields (same arrays, equal read-only mappings,
    read-only arrays), plus the step's private entries only (nothing of the state before it);
    a missing field raises KeyError."""
    est = catalogue.create(key, n_components=5, max_iter=50)
    prev = est.start(face_data)
    prev.__dict__["_stale_cache"] = object()          # a cache of prev: must not be carried
    s = est.step(prev)
    fields = {f.name: getattr(s, f.name) if f.name not in ("fitted", "entry_weights")
              else s.__dict__["_" + f.name] for f in dataclasses.fields(s)}
    made = NMFState(**{k: dict(v) if isinstance(v, dict) else v for k, v in fields.items()})
    private = set(s.__dict__) - set(made.__dict__)
    assert private <= {"_fitted_max", "_history_range", "_gram", "_checked", "_factors"}, private
    for name, v in made.__dict__.items():
        w = s.__dict__[name]
        assert type(w) is type(v), name
        assert w == v if isinstance(v, dict) else w is v, name
    assert not s.components.flags.writeable and not s.coefficients.flags.writeable
    with pytest.raises(TypeError):
        s.scalars.update({})                                        # read-only mapping
    entries = {k: v for k, v in s.__dict__.items() if k not in CARRIED and k != "_components"}
    with pytest.raises(KeyError, match="_components"):
        next_state(prev, entries)
