"""Exceptions raised by the core library."""
from __future__ import annotations


class ParameterError(ValueError):
    """A hyperparameter is outside its allowed range (raised before any work starts).

    The message always names the parameter, e.g. ``"p must be in (0, 1], got 1.5"``.
    """


class DataError(ValueError):
    """The data cannot be used: empty, wrong shape, non-finite, no variation, fewer samples than
    components, or no readable image in a folder. Raised before any work starts; the message
    names the condition."""


class SolverError(RuntimeError):
    """An iterative solver met a state it cannot continue from (NaN/inf, values far outside the
    data's range, empty support, ...): the run *diverged*.

    ``SolverError(method, iteration, reason)`` builds the message
    ``"<method> diverged at iteration <iteration>: <reason>"``; the three parts are kept as
    attributes (``method``, ``iteration``, ``reason``) for the app's status line. A single
    message argument is accepted too (then ``iteration`` is None and ``reason`` the message).
    """

    def __init__(self, method_or_message: str, iteration: int | None = None, reason: str | None = None):
        if iteration is None and reason is None:
            self.method, self.iteration, self.reason = "", None, str(method_or_message)
            super().__init__(str(method_or_message))
        else:
            self.method, self.iteration, self.reason = method_or_message, iteration, reason or ""
            super().__init__(f"{method_or_message} diverged at iteration {iteration}: {reason}")

    def __reduce__(self):
        if self.iteration is None:
            return (type(self), (self.reason,))
        return (type(self), (self.method, self.iteration, self.reason))
