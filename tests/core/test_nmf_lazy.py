"""What plain NMF's multiplicative update keeps between steps (issue 12 point 5): its factors
unnormalised (the update is scale-equivariant, as scikit-learn leaves them), normalised by the
state when first read, so that ``components``, ``coefficients``, ``fitted``, ``fit`` and the
session's light copies show what the documentation says; and the histories of every NMF state
as :class:`Series` sharing one append-only list per run, which never changes what an earlier
state shows, whatever is stepped from where, in whichever thread."""
import copy
import pickle
import sys
import threading

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core._readonly import Series
from robust_subspace_lab.core.methods import nmf_base as NB
from robust_subspace_lab.core.methods import nmf_frobenius as NF
from robust_subspace_lab.core.methods.nmf_state import normalise_factors
from robust_subspace_lab.core.session.history import light_state


@pytest.fixture(scope="module")
def face_data(faces):
    return faces.X


def run(est, X, n):
    states = [est.start(X)]
    for _ in range(n):
        states.append(est.step(states[-1]))
    return states


def test_mu_state_shows_unit_norm_factors_of_its_raw_product(face_data):
    """A multiplicative update's state keeps the raw factors; reading ``components`` or
    ``coefficients`` gives the unit-norm basis and the matching coefficients (those of
    ``normalise_factors``, read-only), whose product is the raw product HW (= ``fitted``) to
    round-off; ``fit`` sets ``components_`` with unit-norm rows."""
    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=30, tol=0.0)
    s = run(est, face_data, 12)[-1]
    assert s.factors_are_lazy and s.fitted_is_lazy
    H, W, sq = s.__dict__["_factors"]
    assert not np.allclose(sq, 1.0)                  # really unnormalised in this run
    P = s.fitted                                     # from the raw factors: W not normalised
    assert s.factors_are_lazy
    np.testing.assert_array_equal(P, H @ W)
    Wn = s.components
    assert not s.factors_are_lazy
    Hn, Wr = normalise_factors(np.array(H), np.array(W))
    np.testing.assert_allclose(Wn, Wr, rtol=1e-14, atol=0)
    np.testing.assert_allclose(s.coefficients, Hn, rtol=1e-14, atol=0)
    np.testing.assert_allclose(np.linalg.norm(Wn, axis=1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(s.coefficients @ Wn, P, rtol=0, atol=1e-10 * face_data.max())
    assert not Wn.flags.writeable and not s.coefficients.flags.writeable
    assert s.components is Wn                        # normalised once
    final = est.fit_state(face_data)
    np.testing.assert_allclose(np.linalg.norm(est.components_, axis=1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(final.coefficients @ est.components_, final.fitted,
                               rtol=0, atol=1e-10 * face_data.max())


def test_lazy_and_per_step_normalisation_give_the_same_iterates(face_data, monkeypatch):
    """Normalising in every step (what a step does when the squared row norms leave
    ``LAZY_SQ_NORMS``) and only when read give the same products HW and objectives after 30
    steps, to round-off: the update is scale-equivariant."""
    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=100, tol=0.0)
    lazy = run(est, face_data, 30)
    monkeypatch.setattr(NF, "LAZY_SQ_NORMS", (np.inf, -np.inf))     # never lazy
    eager = run(est, face_data, 30)
    assert not eager[-1].factors_are_lazy and lazy[-1].factors_are_lazy
    for a, b in zip(lazy[1:], eager[1:]):
        assert a.objective == pytest.approx(b.objective, rel=1e-12)
    np.testing.assert_allclose(lazy[-1].fitted, eager[-1].fitted, rtol=0, atol=1e-9)
    np.testing.assert_allclose(lazy[-1].components, eager[-1].components, rtol=0, atol=1e-12)


def test_a_dead_basis_row_is_replaced_by_the_uniform_row(face_data, monkeypatch):
    """A basis row the update sets to 0 leaves the lazy route: the step normalises, the row
    becomes 1/√d with zero coefficients (documented in nmf_base), the product unchanged."""
    real = NB.mu_update

    def kill_row(X, F, Y, *args, **kwargs):
        out = real(X, F, Y, *args, **kwargs)
        if kwargs.get("side") == "right":
            out = np.array(out)
            out[3] = 0.0
        return out

    est = catalogue.create("nmf", n_components=10, solver="mu", max_iter=50, tol=0.0)
    s = est.step(est.start(face_data))
    monkeypatch.setattr(NB, "mu_update", kill_row)
    s = est.step(s)
    assert not s.factors_are_lazy
    d = face_data.shape[1]
    np.testing.assert_allclose(s.components[3], 1.0 / np.sqrt(d), rtol=1e-14)
    assert not s.coefficients[:, 3].any()
    R = face_data - s.coefficients @ s.components
    assert s.objective == pytest.approx(0.5 * float(np.sum(R * R)), rel=1e-10)


@pytest.mark.parametrize("key, solver", [("nmf", "mu"), ("nmf", "nesterov"), ("tc-nmf", "nesterov")])
def test_histories_stay_what_each_state_saw(face_data, key, solver):
    """Every state's ``objective_history`` and ``scalar_history`` are its own objectives and
    scalars of iterations 0..t, as tuples read them, after the run goes on and after a branch
    is stepped from an earlier state (which shares nothing it can change); they pickle, copy
    and convert to arrays as tuples do."""
    est = catalogue.create(key, n_components=5, solver=solver, max_iter=100, tol=0.0)
    states = run(est, face_data, 12)
    branch = [states[5]]
    for _ in range(4):
        branch.append(est.step(branch[-1]))
    states.append(est.step(states[-1]))
    for line in (states, states[:6] + branch[1:]):
        for t, s in enumerate(line):
            assert s.objective_history == tuple(x.objective for x in line[:t + 1])
            assert len(s.objective_history) == t + 1 and s.objective_history[-1] == s.objective
            for name, values in s.scalar_history.items():
                assert tuple(values) == tuple(x.scalars[name] for x in line[:t + 1]), name
    last = states[-1]
    assert type(last.objective_history) is Series
    np.testing.assert_array_equal(np.asarray(last.objective_history),
                                  [x.objective for x in states])
    for clone in (pickle.loads(pickle.dumps(last.objective_history)),
                  copy.deepcopy(last.objective_history)):
        assert clone == last.objective_history
    light = light_state(last)                            # the session's thinned copy
    assert light.objective_history == last.objective_history
    assert dict(light.scalar_history) == dict(last.scalar_history)
    np.testing.assert_allclose(np.linalg.norm(light.components, axis=1), 1.0, rtol=1e-13)


def test_series_appends_from_many_threads_at_once():
    """Histories appended from the same Series by several threads at once each get exactly
    their own item (one shares the list, the others copy); the Series appended from is
    unchanged. (The interpreter switches threads every microsecond here, so that the threads'
    appends interleave; the window in which two appends to one list race is a few bytecodes,
    which this does not hit deterministically.)"""
    base = Series(range(50))
    n = 8
    out = [None] * n
    barrier = threading.Barrier(n)

    def work(i):
        barrier.wait()
        s = base
        for j in range(500):
            s = s.appended((i, j))
        out[i] = s

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert base == tuple(range(50))
    for i, s in enumerate(out):
        assert s == tuple(range(50)) + tuple((i, j) for j in range(500))
