"""The process-wide settings of the desktop app, in one place, and their undo.

The solvers run in threads of the same interpreter as the GUI thread. To keep the event loop
within ``benchmarks/bench_gui.py``'s 50 ms targets while they run, the app changes the process:

* the GIL switch interval is :data:`GIL_SWITCH_INTERVAL_S` (5 ms by default): when a solver runs
  Python code, the GUI thread waits for the GIL each time it comes back from Qt, up to the switch
  interval per hand-over, tens of them per frame. 1 ms cut the longest event-loop gap while the
  faces ran from a median of 63–90 ms to 42–48 ms (``bench_gui.py --only faces``, three runs each);
* freed memory goes back to the system from a trimming thread (:mod:`app.memory`);
* OpenBLAS's threads get the pool threads' lower priority (:func:`app.worker.lower_helper_threads_priority`);
* the cyclic garbage collector runs in the GUI thread only (:func:`app.memory.collect_in_gui_thread`);
* BLAS runs one thread while no solver runs (:data:`core.threads.RUNNING` gives the solvers the
  policy's count and puts this one back when the last one ends).

:func:`configure` does all of it, once, from ``__main__.main()`` (and the app tests' fixture), and
returns the function that undoes it. A :class:`app.main_window.MainWindow` built in a script
changes none of it: the switch interval, the garbage collector and the numerical routes are
those of the script. No numerics here.
"""
from __future__ import annotations

import gc
import sys
from typing import Callable

from robust_subspace_lab.core import threads

from . import memory
from .worker import lower_helper_threads_priority

__all__ = ["configure", "GIL_SWITCH_INTERVAL_S"]

#: seconds a thread holding the GIL runs before handing it to a waiting one (see the module docstring)
GIL_SWITCH_INTERVAL_S = 0.001


def configure() -> Callable[[], None]:
    """Apply the app's process-wide settings (see the module docstring); call it from the GUI
    thread once a QApplication exists. Returns ``restore()``, which puts back the switch interval,
    automatic garbage collection and the BLAS thread count and stops the trimming thread. (Threads whose
    priority was lowered keep it: they are the process's BLAS helpers, as low as its solvers.)"""
    interval = sys.getswitchinterval()
    collecting = gc.isenabled()
    trimming = memory.trimming()
    blas = threads.current_blas_threads()
    threads.set_blas_threads(1)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    memory.start_trimming()
    lower_helper_threads_priority()
    collector = memory.collect_in_gui_thread()

    def restore() -> None:
        memory.stop_collecting(collector)
        if not collecting:
            gc.disable()
        if not trimming:
            memory.stop_trimming()
        sys.setswitchinterval(interval)
        threads.set_blas_threads(blas)

    return restore
