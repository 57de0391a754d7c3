"""core.interrupt: a cancel flag per thread that solvers' inner loops check."""
import threading

import pytest

from robust_subspace_lab.core import interrupt


def test_checkpoint_outside_a_cancellable_block_never_raises():
    interrupt.checkpoint()
    assert not interrupt.cancel_requested()


def test_checkpoint_raises_once_the_event_is_set_and_not_before():
    stop = threading.Event()
    with interrupt.cancellable(stop):
        interrupt.checkpoint()
        stop.set()
        assert interrupt.cancel_requested()
        with pytest.raises(interrupt.Cancelled):
            interrupt.checkpoint()
    interrupt.checkpoint()            # the block is over: the flag no longer applies


def test_the_flag_belongs_to_its_thread():
    stop = threading.Event()
    stop.set()
    seen = []

    def other():
        try:
            interrupt.checkpoint()
            seen.append("ran")
        except interrupt.Cancelled:
            seen.append("cancelled")

    with interrupt.cancellable(stop):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == ["ran"]


def test_blocks_nest_and_restore():
    outer, inner = threading.Event(), threading.Event()
    outer.set()
    with interrupt.cancellable(outer):
        with interrupt.cancellable(inner):
            interrupt.checkpoint()
        with pytest.raises(interrupt.Cancelled):
            interrupt.checkpoint()


def test_checkpoint_gives_way_when_asked_and_a_cancel_set_meanwhile_raises():
    stop = threading.Event()
    calls = []
    with interrupt.cancellable(stop, give_way=calls.append):
        interrupt.checkpoint()
        assert calls == [stop]               # called with the block's event
        with interrupt.cancellable(None):     # an inner block without give_way: not called
            interrupt.checkpoint()
        assert calls == [stop]
    with interrupt.cancellable(stop, give_way=lambda ev: ev.set()):   # cancelled while giving way
        with pytest.raises(interrupt.Cancelled):
            interrupt.checkpoint()
    stop.set()
    calls.clear()
    with interrupt.cancellable(stop, give_way=calls.append), pytest.raises(interrupt.Cancelled):
        interrupt.checkpoint()
    assert calls == []                       # cancelled: no waiting first
