"""Exceptions raised by the core library."""


class ParameterError(ValueError):
    """A hyperparameter is outside its allowed range (raised before any work starts).

    The message always names the parameter, e.g. ``"p must be in (0, 1], got 1.5"``.
    """


class DataError(ValueError):
    """The data cannot be used: empty, wrong shape, non-finite, or no readable image in a folder."""


class SolverError(RuntimeError):
    """An iterative solver met a state it cannot continue from (NaN/inf objective, empty support, ...).

    The message says which method stopped, at which iteration, and why.
    """
