"""Views built ahead, while the window is idle, for the columns a preset or "+ Column" adds.

Constructing a pyqtgraph view takes 14–24 ms of the GUI thread. A preset that adds four columns
builds twenty of them, one per event-loop turn of the build queue, while six columns run: each
such turn held the event loop 30–70 ms. :class:`ViewPool` builds spare views of the classes a
column shows by default, one per timer tick and only while ``idle()`` (nothing running, nothing
being built, the window shown) and only once the window has been so for :data:`QUIET_S` (a data
change's frames and their first paints follow its solvers' end: a view built then made one
event-loop gap of both, 55–84 ms in ``benchmarks/bench_gui.py``), up to ``per_class`` of each;
nor while another window of the app (a dialog: the sweep, an export) is the active one
(the sweep dialog's opening and its runs met a spare view's 15-21 ms build in the same event-loop
gap); a new column takes its views from
the pool (:meth:`ViewPool.take`) and builds those it lacks itself. The spares are hidden children
of the pool's parent widget, deleted with it.
"""
from __future__ import annotations

import time
from typing import Callable, Iterable

from PySide6 import QtCore, QtWidgets

__all__ = ["ViewPool", "SPARES_PER_CLASS", "FILL_INTERVAL_MS", "QUIET_S"]

#: spare views of each class: the columns a preset adds at most (six columns, two there already)
SPARES_PER_CLASS = 4
#: milliseconds between two spare views built (or two checks that the window is idle)
FILL_INTERVAL_MS = 40
#: seconds ``idle()`` must have held, checked every FILL_INTERVAL_MS, before a view is built
QUIET_S = 0.3


class ViewPool(QtCore.QObject):
    """Spare views of ``classes`` for the columns of the widget ``parent``; see the module
    docstring. ``idle()``: the window may spend a few milliseconds of GUI time now; ``clock``:
    seconds (monotonic) for :data:`QUIET_S`."""

    def __init__(self, classes: Iterable[type], idle: Callable[[], bool], parent: QtWidgets.QWidget,
                 per_class: int = SPARES_PER_CLASS, clock: Callable[[], float] = time.monotonic):
        super().__init__(parent)
        self._owner = parent
        self._clock = clock
        self._idle_since: float | None = None
        self._spares: dict[type, list] = {cls: [] for cls in classes}
        self._idle = idle
        self.per_class = int(per_class)
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FILL_INTERVAL_MS)
        self._timer.timeout.connect(self._fill_one)
        self._timer.start()

    @property
    def spares(self) -> dict[type, int]:
        """The number of spare views of each class."""
        return {cls: len(views) for cls, views in self._spares.items()}

    def take(self, cls: type):
        """A spare view of class ``cls`` (hidden, its parent the pool's widget), or None."""
        views = self._spares.get(cls)
        if not views:
            return None
        if not self._timer.isActive():
            self._timer.start()             # built again later, when the window is idle
        return views.pop()

    def _window_active_or_none(self) -> bool:
        """The owner's window is the app's active window, or none of the app's is (the user is in
        another program): not while a dialog of the app is active."""
        active = QtWidgets.QApplication.activeWindow()
        return active is None or active is self._owner.window()

    def _fill_one(self) -> None:
        short = [cls for cls, views in self._spares.items() if len(views) < self.per_class]
        if not short:
            self._idle_since = None
            return
        if not (self._owner.isVisible() and self._idle() and self._window_active_or_none()):
            self._idle_since = None
        elif self._idle_since is None:
            self._idle_since = self._clock()
        elif self._clock() - self._idle_since >= QUIET_S:
            cls = min(short, key=lambda c: len(self._spares[c]))
            view = cls()
            view.setParent(self._owner)     # hidden: a child added to a shown widget stays so
            view.hide()
            self._spares[cls].append(view)
        self._timer.start()
