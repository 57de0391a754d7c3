"""What a lesson does to the window: each step's setup, its action, and its claims checked live.

A view of :mod:`core.lessons` (issue 28) behind the lesson panel (:mod:`app.lesson_panel`); it
holds no numerics. Entering step k

1. applies the setup in force at step k (step k's own, else the nearest earlier step's) through
   the window's preset machinery (``Setup.as_preset(seed)`` → :meth:`MainWindow.apply_preset`
   without its run), unless step k follows the step shown and has no setup of its own: then the
   results there are kept, as the lesson file says;
2. does the actions from that setup's step to step k, one after another, each once the runs of
   the previous one have ended, in the lesson's workspace: ``steps`` (n iterations, its
   ``step(n)``), ``converge`` (its ``run()``), ``wait`` (nothing: the student acts, e.g. drags a point);
3. checks the step's claims (:func:`core.lessons.evaluate` on the live columns) each time the
   workspace's runs are idle and their states changed: on the workspace's signals (``activity``,
   ``frame_due``, ``drawn``, its build queue's ``idle``), never on a timer. The check runs in a pool thread of its own
   (:class:`app.worker.DataJob`); a newer request makes an older result stale (generations).
"""
from __future__ import annotations

import threading

from PySide6 import QtCore

from robust_subspace_lab.core import lessons
# the playground's points as core.lessons' headless check gives them to the claims (one definition)
from robust_subspace_lab.core.lessons.check import playground_data

from .worker import DataJob, DataRelay, error_message

__all__ = ["LessonDriver", "live_columns", "live_key"]


def live_columns(ws) -> list:
    """The runs of workspace ``ws`` as :class:`core.lessons.ColumnResult` s, left to right: each
    run's catalogue key, parameters, newest state and data (runs without a state are left out)."""
    if ws.task == "playground":                              # the playground's one fit
        model = ws.model
        if not model.states:
            return []
        return [lessons.ColumnResult(model.method, {"p": model.p}, model.states[-1],
                                     playground_data(model), "playground")]
    runners = [c.runner for c in ws.columns] if ws.task == "subspace" else [ws.runner]
    return [lessons.ColumnResult(r.key, dict(r.params), r.states[-1], r.data, ws.task)
            for r in runners if r.states and r.data is not None]


def live_key(ws) -> tuple:
    """What the claims depend on in ``ws`` (runs, their versions and iterations, the data): a
    check is repeated only when this changed."""
    if ws.task == "playground":
        return ("playground", id(ws.model), ws.model.version)
    runners = [c.runner for c in ws.columns] if ws.task == "subspace" else [ws.runner]
    return tuple((r.key, r.version, r.iteration, id(r.data)) for r in runners)


class LessonDriver(QtCore.QObject):
    """Steps through a lesson in ``window`` (see the module docstring).

    Signals: ``entered(int)`` a step was entered (its setup applied, its action started);
    ``evaluated(object)`` the list of :class:`core.lessons.ClaimResult` of the step shown;
    ``state(str)`` a line on what the step is doing ("running…", "waiting for you", errors).
    """

    entered = QtCore.Signal(int)
    evaluated = QtCore.Signal(object)
    state = QtCore.Signal(str)

    def __init__(self, window, parent=None):
        super().__init__(parent)
        self.window = window
        self.lesson = None
        self.index = -1
        self.seed: int | None = None
        self.results: list | None = None     # the claims of the step shown, once checked
        self.checked_key: tuple | None = None
        self.error = ""                      # why the step could not be set up ("" if it was)
        self.check_error = ""                # why the claims could not be checked ("" if they were)
        self._gen = 0
        self._actions: list = []
        self._applying = False
        self._queued: int | None = None      # a step asked for while a setup was loading
        self._poking = False
        self._asked: tuple | None = None     # the live key of the check in flight
        self._task = "subspace"
        self._pool = QtCore.QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = DataRelay(self)
        self._relay.done.connect(self._on_checked, QtCore.Qt.QueuedConnection)
        self._cancel = threading.Event()
        self._watched: set[int] = set()
        window.data_jobs.activity.connect(self.poke)

    # ------------------------------------------------------------------ navigation
    @property
    def step(self):
        return self.lesson.steps[self.index] if self.lesson is not None and self.index >= 0 else None

    @property
    def workspace(self):
        return self.window.workspace_for(self._task)

    @property
    def settled(self) -> bool:
        """The step shown is done: its actions ran, its runs are idle and its claims are checked
        (or it has none, or they could not be checked, or the step could not be set up). For
        scripts and tests."""
        step = self.step
        if step is None or self.error:
            return True
        if self._actions or self.workspace.busy or self.window.data_jobs.busy:
            return False
        return self.results is not None or not step.claims or bool(self.check_error)

    def open(self, lesson, seed: int | None = None) -> None:
        """Start ``lesson`` at its first step (corruption seed ``seed``, default the lesson's)."""
        self.lesson = lesson
        self.seed = lesson.seed if seed is None else int(seed)
        self.index = -1
        self.go(0)

    def go(self, index: int) -> None:
        """Enter step ``index`` (clamped to the lesson): setup, actions, then the claims."""
        if self.lesson is None:
            return
        if self._applying:          # a setup is loading (its data job runs the event loop): after it
            self._queued = index
            return
        index = max(0, min(int(index), len(self.lesson.steps) - 1))
        steps = self.lesson.steps
        follows = index == self.index + 1 and steps[index].setup is None and not self.error
        self._gen += 1
        self._cancel.set()
        self._cancel = threading.Event()
        self.results, self.checked_key, self._asked, self.error, self.check_error = None, None, None, "", ""
        self.index = index
        if follows:                          # keep the results there and act on them
            first, setup = index, None
        else:
            first = next((i for i in range(index, -1, -1) if steps[i].setup is not None), 0)
            setup = steps[first].setup
        self._actions = [s.action for s in steps[first:index + 1]]
        if setup is not None:
            self._task = setup.task
            self._applying = True
            try:
                ok = self.window.apply_preset(setup.as_preset(self.seed), run=False)
            finally:
                self._applying = False
            if self._queued is not None:         # Next/Back pressed meanwhile: go there instead
                queued, self._queued, self.index = self._queued, None, -2
                self.go(queued)
                return
            if not ok:
                self._actions = []
                self.error = f"This step could not be set up: {self.window.last_error or 'see the status bar'}"
        self._watch(self.workspace)
        if self.window.current_workspace is not self.workspace:
            self.window.show_tab(self.workspace.title)
        self.entered.emit(index)
        if self.error:
            self.state.emit(self.error)
        self.poke()

    def next(self) -> None:
        if self.lesson is not None and self.index + 1 < len(self.lesson.steps):
            self.go(self.index + 1)

    def back(self) -> None:
        if self.lesson is not None and self.index > 0:
            self.go(self.index - 1)

    def rerun(self) -> None:
        """Run the step shown again from its setup."""
        if self.lesson is not None:
            i, self.index = self.index, -2        # not "the step after the one shown"
            self.go(i)

    def hold(self) -> None:
        """The user paused: the step's actions not started yet are dropped (a Pause pressed while
        a step's columns were still being built was followed by the step's Run once they were
        built); Again runs the step anew."""
        self._actions = []

    def close(self) -> None:
        """Forget the lesson (the panel was closed): no more actions or checks."""
        self._gen += 1
        self._cancel.set()
        self.lesson, self.index, self._actions, self.results = None, -1, [], None

    # ------------------------------------------------------------------ signals of the runs
    def _watch(self, ws) -> None:
        if id(ws) in self._watched:
            return
        self._watched.add(id(ws))
        queue = getattr(ws, "build_queue", None)          # columns still being built keep it busy
        for signal in (getattr(ws, "activity", None), getattr(ws, "frame_due", None), getattr(ws, "drawn", None),
                       getattr(queue, "idle", None)):
            if signal is not None:
                signal.connect(self.poke)

    @QtCore.Slot()
    def poke(self, *_args) -> None:
        """The runs changed or went idle: do the next action, or check the claims."""
        if self.lesson is None or self._applying or self._poking or self.error:
            return
        self._poking = True                    # a synchronous step (the playground) draws and signals
        try:
            ws = self.workspace
            while self._actions and not (ws.busy or self.window.data_jobs.busy):
                action = self._actions.pop(0)
                if action.kind == "steps":          # the lesson's tab, even if another one is shown
                    ws.step(max(1, int(action.n)))
                elif action.kind == "converge":
                    ws.run()
            if ws.busy or self.window.data_jobs.busy:
                self.state.emit("Running… the claims are checked when the runs stop.")
                return
            self._check(ws)
        finally:
            self._poking = False

    def _check(self, ws) -> None:
        step = self.step
        if step is None:
            return
        if step.action.kind == "wait" and not self._actions:
            self.state.emit("Your turn: do what the text says; the claims follow what you do.")
        if not step.claims:
            self.results = []
            self.evaluated.emit([])
            return
        key = live_key(ws)
        if key in (self.checked_key, self._asked):
            return
        columns = live_columns(ws)
        if not columns:
            return
        self._asked = key
        claims = tuple(step.claims)
        self._pool.start(DataJob(self._relay, self._gen, self._cancel,
                                 lambda: (key, lessons.evaluate(claims, columns))))

    @QtCore.Slot(int, object)
    def _on_checked(self, gen: int, outcome) -> None:
        if gen != self._gen:
            return
        kind, value = outcome
        if kind == "cancelled":
            return
        if kind == "error":
            self._asked = None
            self.check_error = f"The claims could not be checked: {error_message(value)}"
            self.state.emit(self.check_error)
            return
        key, results = value
        self._asked, self.check_error = None, ""
        self.checked_key = key
        self.results = list(results)
        self.evaluated.emit(self.results)
        if live_key(self.workspace) != key:       # the runs moved on meanwhile
            self.poke()

    def shutdown(self) -> None:
        self.close()
        self._pool.waitForDone(2000)
