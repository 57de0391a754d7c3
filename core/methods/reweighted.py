"""The sample-reweighting PCA family: one iteration, each method's loss φ.

PCA-GM (Oh & Kwak, Pattern Recognition 2016, Algorithm 2), RPCA-OM and ℓ2,p-PCA-OM (Nie, Yuan &
Huang, ICML 2014, Algorithms 1 and 2), R1-PCA (Ding, Zhou, He & Zha, ICML 2006) and HQ-PCA (He, Hu,
Zheng & Kong, IEEE TIP 2011) all minimise ``J = Σ_i φ(a_i)`` over a k-dimensional subspace (and
for some the centre), where ``a_i`` is sample i's squared residual ``‖(I − WᵀW)(x_i − m)‖²`` and φ
is concave and non-decreasing. Each iteration minimises the tangent majoriser of J at the current
iterate (the MM / half-quadratic / re-weighting bound: Oh & Kwak 2016 §3.5 in the extraction's MM
argument, Nie et al. 2014 §3.3 and Theorem 1, He et al. 2011's half-quadratic step)::

    Q_t = Σ_i φ(a_i^t) + φ′(a_i^t) (a_i − a_i^t)   >=   J,   with equality at the iterate,

which is a weighted PCA with sample weights ``w_i ∝ φ′(a_i^t)``: the top-k eigenvectors of
``Σ_i w_i (x_i − m)(x_i − m)ᵀ`` (:func:`core.linalg.weighted_top_eigenspace`). A method of the
family is a subclass of :class:`ReweightedPCA` that declares φ and φ′ (:meth:`~ReweightedPCA.phi`,
:meth:`~ReweightedPCA.dphi`), how its weights are computed from them
(:meth:`~ReweightedPCA.weight_rule`), the loss's constants (fixed for the run, or re-estimated from
the residuals at every iterate) and whether its centre moves; the base class runs the iteration.
:func:`registered` lists every subclass with a catalogue entry; the 2-D playground
(:mod:`core.playground`) builds its methods and draws their majorisers from it, so a new method of
the family appears there with no edit of the playground.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, ClassVar, Mapping

import numpy as np

from .. import interrupt
from ..base import State, SteppableEstimator
from ..linalg import (Eigenspace, WarmStart, pca_eigenspace, residual_sq, sq_distances, start_tol,
                      step_residual_tol, subspace_route, thin_product_threads, weighted_top_eigenspace)
from .pca import KeepsFloat32

__all__ = ["ReweightedPCA", "ReweightRun", "Loss", "normalised", "registered"]


def normalised(w: np.ndarray) -> np.ndarray:
    """Weights scaled so that the largest is 1 (the methods are invariant to the weights' scale)."""
    return w / w.max()


@dataclass(frozen=True, eq=False)
class ReweightRun:
    """What every state of one run of a reweighted method shares (``State._ctx``), not copied.

    Attributes
    ----------
    X : (n_samples, n_features) the input itself (float64, or float32 kept).
    sq : (n_samples,) squared distances ``‖x_i − c‖²`` to the run's fixed centre c, or to 0 (the
        squared norms ``‖x_i‖²``) when the centre moves (:attr:`ReweightedPCA.moving_mean`); None
        for a run with no subspace (:class:`~core.methods.generalized_mean.GeneralizedMean`).
    gram : (n_samples, n_samples) the Gram matrix about the same point (``(X − c)(X − c)ᵀ``, or
        ``XXᵀ`` when the centre moves), formed only when :func:`core.linalg.subspace_route` takes
        the Gram route; else None.
    warm : the previous eigensolve's Ritz block and its products (:attr:`core.linalg.Eigenspace.warm`),
        the next step's start on the block route; None on the exact routes.
    """

    X: np.ndarray
    sq: np.ndarray | None = None
    gram: np.ndarray | None = None
    warm: WarmStart | None = None


@dataclass(frozen=True)
class Loss:
    """φ and φ′ of a method at one iterate, as functions of the squared residuals a (any shape),
    with the iterate's constants (δ, ε, c, σ) bound; ``formula``: its majoriser Q_t in words."""

    phi: Callable[[np.ndarray], np.ndarray]
    dphi: Callable[[np.ndarray], np.ndarray]
    formula: str


class ReweightedPCA(KeepsFloat32, SteppableEstimator):
    """Base class of the sample-reweighting PCA methods (see the module docstring).

    The iteration, shared by every subclass:

    * start (iteration 0): PCA about the centre (:meth:`_centre`, or the plain mean when the
      centre moves), to the block route's start accuracy :func:`core.linalg.start_tol` unless
      ``exact_start``; the loss's constants (:meth:`_fixed_constants`, then :meth:`_scale`) from
      its squared residuals a_i; weights ``weight_rule(a)`` (∝ φ′(a)); objective ``Σ φ(a_i)``.
    * each step: with the previous weights w, the centre ``Σ w_i x_i / Σ w_i`` if it moves
      (Nie et al. 2014 eq. 15, He et al. 2011), then W = the top-k eigenvectors of
      ``Σ_i w_i (x_i − m)(x_i − m)ᵀ`` (:func:`core.linalg.weighted_top_eigenspace`, warm-started
      from the previous step's Ritz block on the block route, its Gram matrix kept for the run on
      the Gram route; unless ``exact_start``, stopped as soon as the residuals settle to
      :func:`core.linalg.step_residual_tol`: a hundredth of the objective's last relative change, so
      loose while the weights still move and as accurate as the angle rule near convergence; a step
      looser than ``tol`` never ends the run), the new squared residuals a_i (:func:`core.linalg.residual_sq`: round-off
      counts as 0), the re-estimated constants (:meth:`_scale`), the objective ``Σ φ(a_i)`` and the
      next weights.
    * stopping rule: the objective's relative change ``|J_t − J_{t+1}| <= tol·|J_t|``, or
      ``max_iter`` iterations.

    With constants fixed for the run each step minimises the majoriser Q_t exactly (exact routes)
    or from a start that contains the previous W (block route), so J never increases; a method
    that re-estimates a scale (R1-PCA's c, HQ-PCA's σ) gives up that guarantee.

    A subclass declares ``n_components``, ``max_iter``, ``tol`` (and ``exact_start`` if it has the
    parameter) in its constructor and implements :meth:`phi`, :meth:`dphi`; it may override
    :meth:`weight_rule`, :meth:`_fixed_constants`, :meth:`_scale`, :meth:`_centre`,
    :attr:`moving_mean` and :attr:`surrogate`. The loss's constants are the state's ``scalars``
    (one place: what the views show is what φ uses). Registered with :func:`core.params.register`
    it is listed by :func:`registered` (and so in the playground).

    X: (n_samples, n_features), grey levels 0–255; float32 X stays float32 (components, mean,
    projections); objectives and weights are computed in float64. State: ``sample_weights`` are
    the weights of the next step (max 1); ``scalars`` the constants and ``effective n``.
    """

    reweights_samples = True     # see SteppableEstimator.reweights_samples
    #: the centre is re-estimated at every step as the weighted mean of the samples (jointly with
    #: the subspace); False: fixed at the start by :meth:`_centre`
    moving_mean: ClassVar[bool] = False
    #: the start's PCA is converged to the steps' accuracy; a subclass with an ``exact_start``
    #: parameter sets it per instance (False: :func:`core.linalg.start_tol`)
    exact_start: bool = True
    #: the majoriser Q_t in words (the playground's cross-section title)
    surrogate: ClassVar[str] = "Q = Σ φ(aᵗ) + φ′(aᵗ)(a − aᵗ)"

    n_components: int
    max_iter: int
    tol: float

    # ------------------------------------------------------------ what a method declares
    def phi(self, a: np.ndarray, s: Mapping[str, float]) -> np.ndarray:
        """φ(a) of the squared residuals a with the constants ``s`` (a state's scalars): J = Σ φ(a_i)."""
        raise NotImplementedError

    def dphi(self, a: np.ndarray, s: Mapping[str, float]) -> np.ndarray:
        """φ′(a), the derivative in a (the sample weights up to scale)."""
        raise NotImplementedError

    def weight_rule(self, a: np.ndarray, s: Mapping[str, float]) -> np.ndarray:
        """The sample weights of the next step, ∝ φ′(a), largest 1 (a method computes them in its
        own numerically safe form where φ′ alone would under- or overflow)."""
        return normalised(self.dphi(a, s))

    def _fixed_constants(self, X: np.ndarray, a: np.ndarray) -> dict[str, float]:
        """The loss's constants fixed for the run (e.g. PCA-GM's δ), from the data and the start's
        squared residuals a."""
        return {}

    def _scale(self, a: np.ndarray) -> dict[str, float]:
        """The loss's constants re-estimated from the squared residuals a at every iterate (e.g.
        R1-PCA's c)."""
        return {}

    def _centre(self, X: np.ndarray) -> tuple[np.ndarray, dict[str, float], dict[str, Any]]:
        """The fixed centre (n_features,), scalars and details about it (for a method that does not
        :attr:`moving_mean`; the details stay with every state of the run): the sample mean."""
        return X.mean(axis=0), {}, {}

    # ------------------------------------------------------------ the playground's view of it
    def loss(self, state: State) -> Loss:
        """φ, φ′ and the majoriser's formula at ``state`` (its constants bound)."""
        s = dict(state.scalars)
        return Loss(lambda a: self.phi(a, s), lambda a: self.dphi(a, s), self.surrogate)

    # ------------------------------------------------------------ the shared iteration
    def _weighted_fit(self, run: ReweightRun, w: np.ndarray, init=None, stop: dict | None = None
                      ) -> tuple[Eigenspace, np.ndarray, np.ndarray]:
        """The moving centre ``b = Σ w_i x_i / Σ w_i`` and the weighted eigenspace about it; returns
        (the Eigenspace, b, ‖x_i − b‖²).

        With the uncentred Gram matrix G0 = XXᵀ (Gram route) the centred one is an O(n²) update,
        ``(X − 1bᵀ)(X − 1bᵀ)ᵀ = G0 − Xb1ᵀ − 1(Xb)ᵀ + ‖b‖²11ᵀ``, and no centred copy of X is formed."""
        X = run.X
        with thin_product_threads(X):   # memory-bound products: see core.linalg.one_blas_thread
            b = w.astype(X.dtype) @ X / X.dtype.type(w.sum())
            Xb = X @ b
        bb = b.dtype.type(b @ b)
        assert run.sq is not None                   # a reweighted PCA run keeps its squared norms
        sq = run.sq - 2 * Xb + bb                   # ‖x_i − b‖²
        gram = None if run.gram is None else run.gram - Xb[:, None] - Xb[None, :] + bb
        if init is None and stop and gram is None and not np.ptp(w):
            # the start (equal weights): the PCA start about b, single precision on the block route
            return pca_eigenspace(X, b, int(self.n_components), sq=sq, **stop)[0], b, sq
        out = weighted_top_eigenspace(X, w, int(self.n_components), b, gram=gram, init=init,
                                      checkpoint=interrupt.checkpoint,
                                      **({} if stop is None else {**stop, "sq": sq}))
        return out, b, sq

    def _start(self, X: np.ndarray) -> State:
        k = int(self.n_components)
        stop = start_tol(bool(self.exact_start))
        if self.moving_mean:
            G0 = X @ X.T if subspace_route(X.shape[0], X.shape[1], k) == "gram" else None
            run = ReweightRun(X=X, sq=sq_distances(X), gram=G0)
            out, m, sq = self._weighted_fit(run, np.ones(len(X)), stop=stop)
            about: dict[str, float] = {}
            details: dict[str, Any] = {}
        else:
            m, about, details = self._centre(X)
            sq = sq_distances(X, m)
            out, gram = pca_eigenspace(X, m, k, sq=sq, **stop)
            run = ReweightRun(X=X, sq=sq, gram=gram)
        a = residual_sq(sq, out.projections).astype(float)
        s = {**self._fixed_constants(X, a), **self._scale(a), **about}
        J = float(np.sum(self.phi(a, s)))
        return State(method=self.name, iteration=0, objective=J, objective_history=(J,),
                     components=out.components, mean=m, sample_weights=self.weight_rule(a, s), scalars=s,
                     details=details, _ctx=replace(run, warm=out.warm))

    def _step(self, state: State) -> State:
        run: ReweightRun = state._ctx
        w = state.sample_weights
        assert w is not None                          # every reweighted state carries its weights
        # warm start: the previous block route's Ritz block (k + oversampling rows) and its products, else W
        init = state.components if run.warm is None else run.warm
        # while the weights still move, the block route stops as soon as the residuals settle (step_residual_tol)
        rtol = None if self.exact_start else step_residual_tol(state.objective_history)
        if self.moving_mean:
            out, m, sq = self._weighted_fit(run, w, init, stop=None if rtol is None else {"residual_tol": rtol})
        else:
            assert run.sq is not None
            m, sq = state.mean, run.sq
            out = weighted_top_eigenspace(run.X, w, int(self.n_components), m, gram=run.gram, init=init,
                                          checkpoint=interrupt.checkpoint, residual_tol=rtol,
                                          sq=None if rtol is None else sq)
        a = residual_sq(sq, out.projections).astype(float)
        s = {**state.scalars, **self._scale(a)}
        J = float(np.sum(self.phi(a, s)))
        nxt = self._next_state(state, objective=J, components=out.components, mean=m,
                               sample_weights=self.weight_rule(a, s), scalars=s, _ctx=replace(run, warm=out.warm))
        if nxt.converged and out.route == "block" and rtol is not None and rtol > float(self.tol):
            nxt = replace(nxt, converged=False)       # a loose step never ends the run: one more, accurate
        return nxt


def registered() -> list[type[ReweightedPCA]]:
    """Every subclass of :class:`ReweightedPCA` (at any depth) with its own catalogue entry
    (:func:`core.params.register`), in the order they were defined (Python's own record of the
    subclasses, so a class that is no longer referenced drops out)."""
    out: list[type[ReweightedPCA]] = []
    todo = list(ReweightedPCA.__subclasses__())
    while todo:
        cls = todo.pop(0)
        if "_info" in vars(cls) and cls not in out:
            out.append(cls)
        todo[:0] = cls.__subclasses__()          # depth first: a subclass right after its parent
    return out
