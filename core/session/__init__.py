"""The session model, free of Qt: what data, which corruption, which runs.

A script, a sweep and the app describe and reproduce the same work through these plain values:
:class:`DataSpec` and :class:`CorruptionSpec` (the subspace task's data), :class:`DataChoice`
(the regression task's data), :class:`Run` (a method, its parameters and seed, its states in a
:class:`History` within a memory budget, its status) and :class:`Session` (all of them, with
observers, serialised to plain data).
"""
from .choice import DataChoice
from .history import History, light_state
from .run import (DATA_LIMITS, REGRESSION, SUBSPACE, Run, fit_to_data, plan_method, regressor_for,
                  training_targets, validated)
from .session import FORMAT_VERSION, Session
from .spec import (AUTO, AUTO_SINGLE_BYTES, BUILTIN, DOUBLE, FOLDER, PRECISION_CHOICES, PRECISIONS, SINGLE, TOY,
                   CorruptionSpec, DataSpec, auto_precision, in_precision, prepare, share_clean, shared_double,
                   solver_input)

__all__ = ["BUILTIN", "FOLDER", "TOY", "AUTO", "DOUBLE", "SINGLE", "PRECISIONS", "PRECISION_CHOICES",
           "AUTO_SINGLE_BYTES", "auto_precision", "solver_input", "shared_double", "CorruptionSpec", "DataSpec", "prepare",
           "share_clean", "in_precision", "DataChoice", "History",
           "light_state", "Run", "DATA_LIMITS", "SUBSPACE", "REGRESSION", "fit_to_data", "plan_method",
           "regressor_for", "training_targets", "validated", "Session", "FORMAT_VERSION"]
