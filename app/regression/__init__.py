"""The regression workspace of paper 004 (robust regression): a tab next to the subspace
methods. See :mod:`app.regression.workspace`."""
from .sources import DataChoice
from .workspace import RegressionWorkspace

__all__ = ["RegressionWorkspace", "DataChoice"]
