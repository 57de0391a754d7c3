"""The reweighted PCA family (core.methods.reweighted): every member's declared φ and φ′ are
what its iteration uses, and a new member written as a subclass runs, descends and appears in
the 2-D playground with no edit of the playground."""
import gc
import itertools

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, playground
from robust_subspace_lab.core.linalg import residual_sq, sq_distances
from robust_subspace_lab.core.methods import HQPCA, PCAGM, R1PCA, RPCAOM, L2pPCAOM
from robust_subspace_lab.core.methods._specs import MAX_ITER, N_COMPONENTS, TOL
from robust_subspace_lab.core.methods.reweighted import ReweightedPCA, ReweightRun, registered
from robust_subspace_lab.core.params import register

FAMILY = [PCAGM, L2pPCAOM, RPCAOM, R1PCA, HQPCA]
KEY = "cauchy-pca-test"


@pytest.fixture(scope="module")
def data():
    """60 samples near a 3-dimensional subspace of R^20, 8 of them far off it (grey-level scale)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3)) @ rng.normal(size=(3, 20)) * 20 + 100 + rng.normal(size=(60, 20))
    X[:8] += rng.normal(size=(8, 20)) * 60
    return X


def _own_residuals(state, X):
    """The squared residuals of X to the state's affine subspace, computed here from scratch."""
    return residual_sq(sq_distances(X, state.mean), (X - state.mean) @ state.components.T).astype(float)


def test_the_family_is_every_catalogue_method_that_reweights_its_samples_through_the_base():
    members = set(registered())
    assert members == set(FAMILY)
    # and the catalogue lists no other method that declares itself a sample reweighter with a subspace
    others = {i.estimator for i in catalogue.methods("subspace") if i.estimator.reweights_samples} - members
    assert all(not issubclass(cls, ReweightedPCA) for cls in others)


@pytest.mark.parametrize("cls", FAMILY, ids=lambda c: c.__name__)
def test_objective_is_the_sum_of_phi_and_weights_are_phi_prime_at_every_iterate(cls, data):
    """J_t = Σ φ(a_i^t) and w^t ∝ φ′(a^t), with a^t the residuals of the state itself and φ the
    method's declared loss at that state (its constants: δ, ε, c or σ)."""
    est = cls(n_components=3)
    for state in itertools.islice(est.iterate(data), 6):
        a = _own_residuals(state, data)
        loss = est.loss(state)
        np.testing.assert_allclose(state.objective, np.sum(loss.phi(a)), rtol=1e-7)
        d = loss.dphi(a)
        np.testing.assert_allclose(state.sample_weights, d / d.max(), rtol=1e-6, atol=1e-12)
        assert isinstance(state._ctx, ReweightRun) and state._ctx.X is data      # named, not a copy


def _cauchy_class():
    @register(key=KEY, name="Cauchy PCA (test)", family="PCA", reference="a test of the family's base class",
              summary="PCA with the Cauchy loss of the squared residuals", params=[N_COMPONENTS, MAX_ITER, TOL])
    class CauchyPCA(ReweightedPCA):
        """φ(a) = log(1 + a/γ²), concave; γ² = the start's median squared residual, fixed."""

        def __init__(self, n_components=10, max_iter=100, tol=1e-6):
            self.n_components = n_components
            self.max_iter = max_iter
            self.tol = tol

        def phi(self, a, s):
            return np.log1p(a / s["γ²"])

        def dphi(self, a, s):
            return 1.0 / (s["γ²"] + a)

        def _fixed_constants(self, X, a):
            return {"γ²": float(np.median(a))}

    return CauchyPCA


def _check_a_new_member(data):
    cls = _cauchy_class()
    assert cls in registered()
    # it runs with the shared iteration and, its constant fixed, never increases its objective (MM)
    states = list(cls(n_components=3, max_iter=30).iterate(data))
    J = np.array(states[-1].objective_history)
    assert len(J) > 2 and np.all(np.diff(J) <= 1e-12 * J[:-1]) and J[-1] < J[0]
    assert states[-1].sample_weights[:8].mean() < states[-1].sample_weights[8:].mean()   # outliers weigh less
    # the playground lists it (after the catalogue's members, before the line fit) and runs it
    keys = list(playground.methods())
    assert keys.index(KEY) == len(keys) - 2 and playground.methods()[KEY] == "Cauchy PCA (test)"
    pg = playground.Playground(method=KEY)
    pg.step(2)
    cs = pg.cross_section(n_angles=361)
    assert cs.formula == ReweightedPCA.surrogate
    np.testing.assert_allclose(cs.objective_now, pg.state.objective, rtol=1e-9)
    assert np.all(cs.surrogate >= cs.objective - 1e-12 * np.abs(cs.objective).max())


def test_a_new_subclass_runs_descends_and_appears_in_the_playground_and_leaves_with_its_class(data):
    _check_a_new_member(data)
    gc.collect()                      # the class (a reference cycle with its methods) is gone
    assert KEY not in playground.methods() and len(registered()) == len(FAMILY)
