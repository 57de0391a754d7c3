"""Giving freed memory back to the system (Linux with glibc; elsewhere nothing to do).

numpy's temporaries of up to 32 MB come from glibc's heaps, and glibc keeps what is freed there
for reuse instead of returning it, so the resident memory of the app grew with every data switch
and preset although what it held did not: applying the 18 subspace presets three times in a row
took the process to 934, 1,078 and 1,181 MB resident while the runs held ~210 MB of states and
snapshots; ``malloc_trim(0)`` after each round brought it to 755, 735 and 724 MB (34 ms each).

:func:`start_trimming` starts one daemon thread for the process that calls ``malloc_trim(0)``
every :data:`TRIM_SECONDS` while the app is lively (ctypes releases the GIL during the call, so
the GUI thread never waits for it); while it is idle (:func:`set_lively`, from the window's frame
clock) the thread waits without a timeout, and the collection timers below stop after one last
check. The collection thresholds are checked each time the GUI thread's event loop is about to
wait for events (``QAbstractEventDispatcher.aboutToBlock``) as well, so garbage made by the
user's own actions is collected, in that thread, and a window nobody touches wakes for nothing. Nothing here changes how memory is allocated.

:func:`collect_in_gui_thread` moves Python's cyclic garbage collection to the GUI thread. A
collection runs in whichever thread happens to allocate when a threshold is crossed; when that was
a solver thread of the pool and the garbage held Qt objects (widgets of a removed column, a
replaced parameter group), their destructors ran there and took Qt's locks: the random-use
benchmark hung for good (seed 2, 4 columns, within two minutes: the GUI thread deleting a menu
waited for a Qt mutex held by a pool thread whose collection was deleting a QObject and waited
for the GIL). While a window collects in its GUI thread, automatic collection is off and a timer
of that thread collects by the same thresholds (:class:`GuiCollector`).
"""
from __future__ import annotations

import ctypes
import gc
import sys
import threading

from PySide6 import QtCore

__all__ = ["TRIM_SECONDS", "COLLECT_SECONDS", "release_free_memory", "start_trimming", "trimming", "stop_trimming",
           "GuiCollector", "collect_in_gui_thread", "stop_collecting", "set_lively"]

#: seconds between two trims
TRIM_SECONDS = 2.0
#: seconds the app stays idle before a full collection that waits for it runs (a full pass that
#: frees a removed column's or a closed window's Qt objects took 100-250 ms; run at the moment the
#: app went idle, it met the user's next click: bench_gui's first frames after Reset and Run)
REST_SECONDS = 1.0
#: seconds between two checks of the garbage collector's thresholds in the GUI thread while the app
#: is lively (a check costs ~1 µs; the event loop of a busy GUI thread rarely waits, and 0.5 s of a
#: preset's allocations, 10-20 thousand objects, took 7-11 ms to collect at once)
COLLECT_SECONDS = 0.05


def _load_trim():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        trim = libc.malloc_trim                     # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


_TRIM = _load_trim()
_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()
_lively = threading.Event()      # set while the app is lively: the trimming thread trims
_sources: set = set()            # what is lively now (set_lively)


def release_free_memory() -> bool:
    """Return glibc's free heap memory to the system now; False where there is nothing to call."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def _loop(stop: threading.Event) -> None:
    while not stop.is_set():
        if not _lively.is_set():
            _lively.wait()               # idle: no wake-up until lively or stopped
        elif not stop.wait(TRIM_SECONDS):
            release_free_memory()


def start_trimming() -> bool:
    """Start the trimming thread (once per process; later calls do nothing). False where there
    is no ``malloc_trim``."""
    global _thread, _stop
    if _TRIM is None:
        return False
    with _lock:
        if _thread is None or not _thread.is_alive():
            _stop = threading.Event()
            _thread = threading.Thread(target=_loop, args=(_stop,), name="malloc-trim", daemon=True)
            _thread.start()
    return True


def trimming() -> bool:
    """The trimming thread runs."""
    return _thread is not None and _thread.is_alive() and not _stop.is_set()


def stop_trimming() -> None:
    """Stop the trimming thread (it ends within one period)."""
    _stop.set()
    if not _lively.is_set():           # wake a waiting thread so that it ends
        _lively.set()
        thread = _thread
        if thread is not None:
            thread.join(1.0)
        _lively.clear()


def set_lively(on: bool, source: object = "frames") -> None:
    """``source`` is lively (something runs or is drawn) or not. The app is lively while any
    source is (trim, and check the collection thresholds every :data:`COLLECT_SECONDS` besides
    each event-loop turn) and idle otherwise (no timer, no wake-up: one check now, then one
    whenever the GUI thread's event loop is about to wait; a full pass that waits runs after
    :data:`REST_SECONDS`). The window's frame clock is one source (the default); the sweep dialog
    is another while it runs a sweep: the window's frame clock sleeps meanwhile, and a full pass
    at its rest fell inside the sweep (benchmarks/bench_gui.py). Call it from the GUI thread."""
    if on:
        _sources.add(source)
    else:
        _sources.discard(source)
    on = bool(_sources)
    if on:
        _lively.set()
    else:
        _lively.clear()
    for collector in _collectors:
        collector.rested = False
        collector.rest_timer.stop()
        if on:
            if not collector.timer.isActive():
                collector.timer.start(int(COLLECT_SECONDS * 1000))
        else:
            collector.check()
            collector.timer.stop()
            collector.rest_timer.start()        # once: a full pass that waits, after REST_SECONDS


_collectors: list = []
_on_turns: list = []             # the dispatcher whose aboutToBlock checks the collectors


def _check_all() -> None:
    for collector in _collectors:
        collector.check()


def _check_on_loop_turns(on: bool) -> None:
    if on and not _on_turns:
        dispatcher = QtCore.QAbstractEventDispatcher.instance()
        if dispatcher is not None:
            dispatcher.aboutToBlock.connect(_check_all)
            _on_turns.append(dispatcher)
    elif not on and _on_turns:
        _on_turns.pop().aboutToBlock.disconnect(_check_all)


class GuiCollector:
    """Python's cyclic garbage collection by its own rules, run from the GUI thread's event loop.

    Automatic collection is off while it lives. :meth:`check` does what the interpreter would
    have done by now, reckoned in allocations, as the interpreter does: the young generation once
    more than ``threshold0`` objects were allocated since the last pass, the middle one once
    ``threshold0 · threshold1`` were (:func:`gc.get_threshold`: 700 and 10), and the oldest one (a
    full pass) once it has been passed over ``threshold2`` times and the objects that reached it
    since the last full pass are a quarter of those that lived through it (CPython's own rule;
    counted as the young objects each middle pass found less those it collected, so that no check
    lists the oldest generation).
    The thresholds are checked each time the event loop is about to wait, and every
    :data:`COLLECT_SECONDS` while the app is lively (:func:`set_lively`). A full pass takes 30-90
    ms once a few windows' objects have lived through the middle generation, 100-250 ms when it
    frees a removed column's Qt objects: a visible stall in a run, a preset or the click after
    them. So one that is due waits until the app has been idle for :data:`REST_SECONDS` (unless
    the oldest generation has doubled since the last one), and one runs then whenever anything
    reached the oldest generation since the last one.

    pyqtgraph's ``GarbageCollector``, which this replaces, checked every 0.5 s and counted its own
    passes, not allocations: the middle generation was collected after ten checks that found
    young objects, whatever their number (the 6-column preset's: 30-56 thousand objects, 20-50
    ms in one event), and the oldest at every eleventh such pass (two windows' objects: ~100 ms);
    benchmarks/bench_gui.py saw them as event-loop gaps."""

    def __init__(self):
        self.threshold = gc.get_threshold()
        self.timer = QtCore.QTimer()
        self.timer.timeout.connect(self.check)
        self._young = 0                                 # allocations since the last middle pass
        self._survivors = len(gc.get_objects(generation=2))     # after the last full pass
        self._pending = 0                               # objects that reached it since (at most)
        self.rested = True                              # idle for REST_SECONDS: full passes may run
        self._full_due = False                          # a full pass waits for the app to rest
        self.rest_timer = QtCore.QTimer()
        self.rest_timer.setSingleShot(True)
        self.rest_timer.setInterval(int(REST_SECONDS * 1000))
        self.rest_timer.timeout.connect(self._rest)
        gc.disable()

    def _rest(self) -> None:
        """The app has been idle for :data:`REST_SECONDS`: a full pass now if anything reached the
        oldest generation since the last one (so that a burst of allocations when the user comes
        back, before the app counts as lively again, finds no full pass due: a preset's first
        columns met one of 190-270 ms that freed the window closed before)."""
        self.rested = True
        if self._full_due or self._pending:
            self._full_pass()
        else:
            self.check()

    def check(self) -> None:
        """Collect what the thresholds call for (see the class docstring); nothing otherwise
        (a call costs ~1 µs)."""
        l0, l1, l2 = gc.get_count()
        t0, t1, t2 = self.threshold
        if l0 <= t0:
            return
        self._young += l0
        if self._young <= t0 * t1 and l1 <= t1:
            gc.collect(0)
            return
        self._young = 0
        # what reaches the oldest generation: at most the young objects there are now (the lists
        # of the young generations are short; the oldest one's is not, and is counted only after
        # a full pass)
        young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
        pending = self._pending + young
        due = l2 > t2 and pending > self._survivors / 4
        if due and (self.rested or pending > self._survivors):
            self._full_pass()
            return
        self._pending += max(young - gc.collect(1), 0)      # a middle pass
        self._full_due = self._full_due or due              # (a due one waits for the rest)

    def _full_pass(self) -> None:
        gc.collect(2)
        self._survivors = len(gc.get_objects(generation=2))
        self._pending = 0
        self._full_due = False
        self._young = 0


def collect_in_gui_thread() -> GuiCollector:
    """Turn Python's automatic garbage collection off and collect by its thresholds in the calling
    (GUI) thread instead (:class:`GuiCollector`; see the module docstring). Call it from the GUI
    thread; each call needs a :func:`stop_collecting` with what it returned (automatic collection
    comes back when the last one stops)."""
    collector = GuiCollector()
    if _lively.is_set():
        collector.rested = False
        collector.timer.start(int(COLLECT_SECONDS * 1000))
    _collectors.append(collector)
    _check_on_loop_turns(True)
    return collector


def stop_collecting(collector: GuiCollector) -> None:
    """Stop ``collector``'s timer; the last one stopped turns automatic collection back on."""
    collector.timer.stop()
    if collector in _collectors:
        _collectors.remove(collector)
    if not _collectors:
        _check_on_loop_turns(False)
        gc.enable()
