"""app.memory: freed heap memory is given back to the system by one trimming thread per process."""
import threading

import pytest

from robust_subspace_lab.app import memory

glibc = pytest.mark.skipif(memory._TRIM is None, reason="needs glibc's malloc_trim (Linux)")


@glibc
def test_one_trimming_thread_per_process_started_by_the_window(make_window):
    make_window()
    make_window()
    threads = [t for t in threading.enumerate() if t.name == "malloc-trim"]
    assert len(threads) == 1 and threads[0].daemon


def test_the_trimming_thread_trims_while_the_app_is_lively(monkeypatch):
    """While the app is lively (``set_lively(True)``, from the frame clock), the process's
    trimming thread calls ``malloc_trim(0)`` every TRIM_SECONDS; whether glibc then gives pages
    back is glibc's business (the module docstring has the figures measured on the app)."""
    trims = []
    trimmed = threading.Event()

    def trim(pad):
        trims.append(pad)
        trimmed.set()
        return 1

    monkeypatch.setattr(memory, "_TRIM", trim)
    monkeypatch.setattr(memory, "TRIM_SECONDS", 0.01)
    assert memory.start_trimming() and memory.trimming()
    memory.set_lively(True)
    try:
        assert trimmed.wait(30), "the trimming thread did not trim while the app was lively"
    finally:
        memory.set_lively(False)
    assert trims[0] == 0


def test_the_app_is_lively_while_any_source_is():
    """The window's frame clock and a running sweep are separate sources: the frame clock going
    to sleep while a sweep runs leaves the app lively (no rest, no full pass inside the sweep)."""
    sweep = object()
    try:
        memory.set_lively(True)
        memory.set_lively(True, sweep)
        memory.set_lively(False)                   # the frame clock sleeps
        assert memory._lively.is_set()
        memory.set_lively(False, sweep)            # the sweep ends
        assert not memory._lively.is_set()
    finally:
        memory.set_lively(False)
        memory.set_lively(False, sweep)


class _Cycle:
    """A reference cycle: only the cyclic collector frees it."""

    def __init__(self):
        self.me = self


def _passes():
    """Record the generation of each collection pass (gc.callbacks)."""
    seen: list[int] = []

    def cb(phase, info):
        if phase == "start":
            seen.append(info["generation"])
    return seen, cb


def test_the_gui_collector_collects_by_allocations_in_the_calling_thread(qapp):
    """GuiCollector: automatic collection off; ``check`` collects cyclic garbage once more than
    threshold0 objects were allocated, the middle generation after threshold0 · threshold1 of
    them (not after a number of checks), and makes a full pass only when the objects that reached
    the oldest generation since the last full pass are a quarter of those that lived through it."""
    import gc
    import weakref

    collector = memory.collect_in_gui_thread()
    seen, cb = _passes()
    try:
        assert not gc.isenabled()
        t0, t1, _ = collector.threshold
        gc.collect()                                   # a known start: every generation empty
        collector._young, collector._survivors = 0, len(gc.get_objects(generation=2))
        gc.callbacks.append(cb)
        collector.check()
        assert seen == []                              # nothing allocated: nothing to do
        garbage = weakref.ref(_Cycle())
        keep = [[] for _ in range(t0 + 50)]            # tracked objects that live on
        collector.check()
        assert seen == [0] and garbage() is None       # the young generation, its garbage freed
        # a batch of allocations as large as the middle generation's whole threshold: collected
        # at once in a middle pass (pyqtgraph's collector waited for ten more checks)
        keep.append([[] for _ in range(t0 * t1 + collector._survivors // 4)])
        seen.clear()
        collector.check()
        assert seen == [1]
        # the oldest generation now holds those survivors, more than a quarter of what it held
        # after the last full pass: a full pass is due once its count passes threshold2
        gc.collect(1)
        for _ in range(gc.get_threshold()[2] + 1):
            gc.collect(1)
        collector._young = t0 * t1                     # and a middle pass due
        keep.append([[] for _ in range(t0 + 1)])
        seen.clear()
        collector.check()
        assert seen == [2]
        # a full pass that is due waits until the app has been idle for REST_SECONDS (unless the
        # oldest generation doubled): lively, then idle for less than that, then at rest
        for _ in range(gc.get_threshold()[2] + 1):
            gc.collect(1)
        keep.append([[] for _ in range(t0 * t1 + collector._survivors // 4)])
        memory.set_lively(True)
        collector._young = t0 * t1
        seen.clear()
        collector.check()
        assert seen == [1]
        seen.clear()
        memory.set_lively(False)                       # idle now: not at rest yet
        collector.check()
        assert seen == [] and collector.rest_timer.isActive() and collector.rest_timer.isSingleShot()
        collector.rest_timer.timeout.emit()            # REST_SECONDS later
        assert seen == [2] and collector.rested
        # at rest a full pass also runs when it is not due but something reached the oldest
        # generation since the last one (a burst when the user comes back then finds none due)
        memory.set_lively(True)
        collector._young = t0 * t1
        keep.append([[] for _ in range(2 * t0)])
        seen.clear()
        collector.check()
        assert seen == [1] and collector._pending > 0 and not collector._full_due
        memory.set_lively(False)
        collector.rest_timer.timeout.emit()
        assert seen[-1] == 2 and collector._pending == 0
        # right after a full pass, the same count but few new survivors: a middle pass only
        for _ in range(gc.get_threshold()[2] + 1):
            gc.collect(1)
        collector._young = t0 * t1
        keep.append([[] for _ in range(2 * t0)])
        seen.clear()
        collector.check()
        assert seen == [1]
    finally:
        if cb in gc.callbacks:
            gc.callbacks.remove(cb)
        memory.stop_collecting(collector)
    assert gc.isenabled() == (not memory._collectors)
