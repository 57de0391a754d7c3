"""Working memory of solvers that run at once: admission within one budget (no Qt).

A solver's start and steps allocate temporaries on top of the data and the states they keep: the
NMF family's residuals and weights, the convex methods' low-rank and sparse parts (measured with
tracemalloc on the 5,000 digits at 28 × 28 and at 64 × 64, as multiples of the solver's input X
in bytes: PCA family 0.38 and 0.12 per start and step; PCA-L1 and sparse PCA 1.0–1.17 per start
when they copy the centred data (inputs up to 64 MB in float64; larger ones are not copied and
are centred inside the products), and nothing per step; NMF 1.72 and 1.49 per start, up to 1.32 and 1.03 per
step; PCP, Outlier Pursuit and CRPCA-OM 3.1–4.01 per start and 3.1 per step). Each class says its
own, rounded up, as :attr:`core.base.SteppableEstimator.work_factors`.

When several solvers run at once in one process (the app's columns), these temporaries add up:
three NMF columns on the 5,000 digits at 96 × 96 took the app to 3.6 GB resident in random use
while it held 0.75 GB of data. :class:`WorkingMemory` admits each start or step only while the
work already admitted plus its own estimate (:func:`work_bytes`) fits the budget, and always
admits work when nothing else runs (a step larger than the budget still runs, alone). The others
wait, checking their cancel flag (:func:`core.interrupt.checkpoint`) every
:data:`POLL_SECONDS`, so Pause and Quit still stop them at once. On two cores, running such
steps one after the other costs little: they compete for the same cores and memory bandwidth.

Scripts and ``fit`` never pass through it; the app's solver jobs do (``with WORKING.admit(...)``).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from . import interrupt

__all__ = ["WORK_BYTES_BUDGET", "POLL_SECONDS", "WorkingMemory", "WORKING", "work_bytes"]

#: Bytes of temporaries the solvers running at once may hold together (one larger step runs alone).
#: The app's target is 2 GB resident in random use; with ~0.5 GB for Qt, Python and the libraries
#: and up to 0.75 GB of data (the 5,000 digits at 96 × 96 with a float64 copy for the NMF family),
#: this leaves ~0.75 GB: at 768 MB the 10-minute random use peaked at 1,925 and 2,061 MB in two runs.
WORK_BYTES_BUDGET = 512 * 2 ** 20
#: Seconds between two checks of the cancel flag while waiting to be admitted.
POLL_SECONDS = 0.02


def work_bytes(estimator: Any, input_bytes: int, phase: str) -> int:
    """The estimated temporaries of ``estimator``'s ``phase`` (``"start"`` or ``"step"``) on an
    input X of ``input_bytes`` bytes *in float64* (``X.size * 8``, the unit the factors were
    measured in, whatever X's precision: PCA-L1 and sparse PCA centre float32 data into float64,
    the NMF family computes on a float64 copy; for the methods that stay in float32 the estimate is
    then twice their need), in bytes: the class's ``work_factors`` (start, step) times
    ``input_bytes``; (1.0, 1.0) when the class says none. A class whose need is not proportional
    to X defines ``work_estimate(input_bytes, phase)`` instead, which is then used.

    Raises ValueError for another phase."""
    if phase not in ("start", "step"):
        raise ValueError(f"phase must be 'start' or 'step', got {phase!r}")
    # (a subspace or a regression estimator: only the first declares work_factors, a few work_estimate)
    own = getattr(estimator, "work_estimate", None)
    if own is not None:            # a class whose need is not proportional to X (the greedy family)
        return int(own(int(input_bytes), phase))
    start, step = getattr(estimator, "work_factors", (1.0, 1.0))
    return int((start if phase == "start" else step) * int(input_bytes))


class WorkingMemory:
    """Admission of solver work within ``budget`` bytes of temporaries (see the module docstring).

    Thread-safe. ``held`` is the bytes admitted now, ``waiting`` the number of callers waiting.
    """

    def __init__(self, budget: int = WORK_BYTES_BUDGET):
        self.budget = int(budget)
        self.held = 0
        self.waiting = 0
        self._cond = threading.Condition()

    @contextmanager
    def admit(self, nbytes: int) -> Iterator[None]:
        """Run the enclosed work once ``nbytes`` fit beside the work admitted (at once when none
        is); raises :class:`core.interrupt.Cancelled` if the caller's cancel flag is set while it
        waits."""
        nbytes = max(int(nbytes), 0)
        with self._cond:
            self.waiting += 1
            try:
                while self.held > 0 and self.held + nbytes > self.budget:
                    self._cond.wait(POLL_SECONDS)
                    interrupt.checkpoint()
            finally:
                self.waiting -= 1
            self.held += nbytes
        try:
            yield
        finally:
            with self._cond:
                self.held -= nbytes
                self._cond.notify_all()


#: The process's admission (the app's solver jobs enter it).
WORKING = WorkingMemory()
