"""The states of one run, kept by the caller within a memory budget.

Estimators' states are immutable, so keeping every one of them lets a viewer rewind to any past
iteration. Some states are heavy (a convex method keeps E, the low-rank part and its multipliers:
~94 MB per iteration on the 5,000 digits), so :class:`History` counts the bytes each state holds
in arrays of its own (arrays shared with the previous state count once) and, beyond its budget,
replaces the oldest states (never the newest, which the next step starts from; state 0, which a
reset returns to, only once every other one is thinned and the budget is still exceeded: a reset
then starts the run again, see :attr:`History.start_thinned`) by *light* copies without
per-entry arrays or solver context. Before a state is thinned the caller's ``pin`` callback
receives it, so a viewer can keep what it draws of it (its snapshot) and still show every
iteration exactly.

Several runs open at once (the columns of a window) share one budget through a
:class:`SharedBudget`: each history that holds more than its start state may keep an equal share
of the total, so that the memory of all histories together stays within it however many columns
are open (a share shrinks when a run joins and is applied at that history's next step).
"""
from __future__ import annotations

import dataclasses
import weakref
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from .spec import shared_double

__all__ = ["History", "SharedBudget", "STATE_BYTES_BUDGET", "THIN_DETAIL_SIZE", "light_state", "own_bytes",
           "held_arrays"]

#: Memory the kept states may hold in arrays of their own (bytes): one run's, or the total of the
#: runs sharing a :class:`SharedBudget` (the app's columns). Four NMF runs on the 5,000 digits held
#: 160–330 MB each after 10 s with a budget per run of 512 MB (2 GB in all); shared, 512 MB was
#: still a quarter of the 2 GB the app may use in all, beside the start and newest state of every
#: column (~100–190 MB each for a convex method on the digits) and the solvers' temporaries.
STATE_BYTES_BUDGET = 256 * 2 ** 20
#: Thinning also drops the arrays in a state's ``details`` with more entries than this (per-entry
#: masks such as TC-NMF's "truncated"); small ones (per-sample means, restart objectives) stay.
THIN_DETAIL_SIZE = 10_000

#: the fields a light copy drops, per kind of state (those the state has): the per-entry arrays
#: and the solver context of a subspace State, D, E, the basis and the context of a RegressionState
_HEAVY_NONE = ("sparse_part", "fitted", "entry_weights", "components", "_ctx")
_HEAVY_EMPTY = ("D", "E")
_EMPTY = np.zeros((0, 0))
_EMPTY.flags.writeable = False


def held_arrays(obj: Any, depth: int = 0, max_depth: int = 3) -> Iterator[np.ndarray]:
    """The numpy arrays held by a state or by its private context (fields, tuples, mappings
    such as ``details``, attributes), ``max_depth`` levels deep (a context's warm start, a tuple
    in a tuple, is counted)."""
    if isinstance(obj, np.ndarray):
        yield obj
    elif depth < max_depth and isinstance(obj, (tuple, list)):
        for item in obj:
            yield from held_arrays(item, depth + 1, max_depth)
    elif depth < max_depth and isinstance(obj, Mapping):
        for item in obj.values():
            yield from held_arrays(item, depth + 1, max_depth)
    elif depth < max_depth and hasattr(obj, "__dict__"):
        for item in vars(obj).values():
            yield from held_arrays(item, depth + 1, max_depth)
    elif depth < max_depth and hasattr(obj, "__dataclass_fields__"):
        for name in obj.__dataclass_fields__:
            yield from held_arrays(getattr(obj, name, None), depth + 1, max_depth)


def _data_arrays(data: Any) -> Iterator[np.ndarray]:
    """The arrays of the data a run is on, with the float64 copy of its X that the runs computing
    in float64 share (:func:`core.session.spec.solver_input`)."""
    yield from held_arrays(data)
    X = getattr(data, "X", None)     # (any run's data: Corrupted, RegressionData or none)
    double = shared_double(X) if isinstance(X, np.ndarray) else None
    if double is not None:
        yield double


def own_bytes(state: Any, previous: Any = None, data: Any = None) -> int:
    """Bytes of the arrays ``state`` holds that neither ``previous`` nor ``data`` (the data the
    run is on: a solver context keeps the input X itself, or the float64 copy of a float32 X that
    every run shares, which cost nothing more) hold."""
    shared = {id(a) for a in held_arrays(previous)} if previous is not None else set()
    shared |= {id(a) for a in _data_arrays(data)} if data is not None else set()
    return sum(a.nbytes for a in {id(a): a for a in held_arrays(state)}.values() if id(a) not in shared)


def light_state(state: Any) -> Any:
    """A copy of ``state`` without its per-entry arrays and solver context: for a subspace
    :class:`~core.base.State` ``sparse_part``, ``fitted``, ``entry_weights`` and the large
    ``details`` arrays; for a :class:`~core.regression.RegressionState` D and E (emptied), the
    basis and the context. Every scalar, the objective history and the components stay."""
    names = set(state.__dataclass_fields__)
    changes: dict[str, Any] = {n: None for n in _HEAVY_NONE if n in names}
    changes.update({n: _EMPTY for n in _HEAVY_EMPTY if n in names})
    if "details" in names and isinstance(state.details, Mapping):
        changes["details"] = {k: v for k, v in state.details.items()
                              if not (isinstance(v, np.ndarray) and v.size > THIN_DETAIL_SIZE)}
    if "components" in changes and "D" not in names:
        del changes["components"]            # a subspace state's components are its result
    return dataclasses.replace(state, **changes)


class SharedBudget:
    """One memory budget for the histories of several runs.

    A history created with ``History(pool)`` joins it (weakly: a history that is no longer used
    leaves when it is garbage-collected). :meth:`share` is ``total // n`` bytes, n the number of
    member histories holding more than their start state (at least 1), so that those histories
    together hold at most ``total`` bytes (plus their start and newest states, never thinned).
    ``total`` may be changed at any time; it is read at each step.
    """

    def __init__(self, total: int = STATE_BYTES_BUDGET):
        self.total = int(total)
        self._members: weakref.WeakSet = weakref.WeakSet()

    def join(self, history: "History") -> None:
        self._members.add(history)

    def leave(self, history: "History") -> None:
        self._members.discard(history)

    def share(self) -> int:
        """Bytes one member history may hold now."""
        running = sum(1 for h in list(self._members) if len(h) > 1)
        return self.total // max(running, 1)


class History:
    """The states of a run, ``states[i].iteration == i``, within ``budget`` bytes of own arrays.

    Parameters
    ----------
    budget : bytes the states may hold in arrays of their own (default :data:`STATE_BYTES_BUDGET`),
        or a :class:`SharedBudget` this history joins (its :meth:`~SharedBudget.share`).
    light : the light copy of a state (default :func:`light_state`).
    pin : called with a state just before it is thinned (e.g. to keep its snapshot).
    """

    def __init__(self, budget: "int | SharedBudget" = STATE_BYTES_BUDGET,
                 light: Callable[[Any], Any] = light_state, pin: Callable[[Any], None] | None = None):
        self.pool: SharedBudget | None = None
        self._budget = STATE_BYTES_BUDGET
        if isinstance(budget, SharedBudget):
            self.pool = budget
            budget.join(self)
        else:
            self._budget = int(budget)
        self.light = light
        self.pin = pin
        self.states: list = []
        self.sizes: list[int] = []      # own bytes per state (0 once thinned)
        #: the data the states are computed on (its arrays are not counted as the states' own)
        self.data: Any = None
        self.thinned: set[int] = set()  # iterations whose state is a light copy

    @property
    def budget(self) -> int:
        """Bytes the states may hold now (the pool's share when the history is in a pool)."""
        return self.pool.share() if self.pool is not None else self._budget

    @budget.setter
    def budget(self, value: int) -> None:
        """A budget of its own (the history leaves its pool)."""
        if self.pool is not None:
            self.pool.leave(self)
            self.pool = None
        self._budget = int(value)

    def like(self) -> "History":
        """A new, empty history with the same budget (or pool) and light copy (no pin)."""
        return History(self.pool if self.pool is not None else self._budget, self.light)

    # ------------------------------------------------------------------ list-like
    def __len__(self) -> int:
        return len(self.states)

    def __getitem__(self, i):
        return self.states[i]

    def __iter__(self):
        return iter(self.states)

    @property
    def nbytes(self) -> int:
        return sum(self.sizes)

    @property
    def last(self):
        return self.states[-1] if self.states else None

    # ------------------------------------------------------------------ changes
    def clear(self) -> None:
        self.states, self.sizes, self.thinned = [], [], set()

    def start(self, state) -> None:
        """A new run: ``state`` (its iteration 0) is the only one."""
        self.clear()
        self.states.append(state)
        self.sizes.append(own_bytes(state, data=self.data))

    @property
    def start_thinned(self) -> bool:
        """State 0 is a light copy: a reset cannot step on from it and starts the run again
        (with a many-column window on large data, the start states of the columns alone
        exceeded the shared budget: ~100 MB each for a convex method on the 5,000 digits)."""
        return bool(self.states) and self.states[0].iteration in self.thinned

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` states (``truncate(1)``: back to iteration 0)."""
        del self.states[n:]
        del self.sizes[n:]
        self.thinned = {it for it in self.thinned if it < n}

    def append(self, state) -> None:
        """One more iteration; older states are thinned if the budget is exceeded."""
        self.sizes.append(own_bytes(state, self.states[-1] if self.states else None, self.data))
        self.states.append(state)
        self.thin()

    def thin(self) -> None:
        """Keep the states within the budget (see the module docstring)."""
        budget = self.budget
        while sum(self.sizes) > budget:
            n = len(self.states)
            heavy = [i for i in range(1, n - 1) if self.sizes[i] > 0]
            if not heavy and n > 1 and self.sizes[0] > 0:
                heavy = [0]                      # the start state last
            if not heavy:
                return
            i = heavy[0]
            state = self.states[i]
            if self.pin is not None:
                self.pin(state)
            self.states[i] = self.light(state)
            self.sizes[i] = 0
            self.thinned.add(state.iteration)
