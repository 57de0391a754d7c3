"""The process-wide settings of the desktop app, in one place, and their undo.

The solvers run in threads of the same interpreter as the GUI thread (docs/architecture.md,
"Threads", says why and with what measurements). The app changes the process:

* freed memory goes back to the system from a trimming thread (:mod:`app.memory`);
* OpenBLAS's threads get the pool threads' lower priority (:func:`app.worker.lower_helper_threads_priority`);
* the cyclic garbage collector runs in the GUI thread only (:func:`app.memory.collect_in_gui_thread`);
* the objects alive at start (the ~1.4·10⁵ of the imported modules: numpy, scipy, scikit-learn,
  pyqtgraph, Qt's wrappers) are frozen (``gc.freeze``), so that a full collection skips them: with
  a window open, a full pass took 90-110 ms with them and 5-7 ms without (the window's own ~1.6·10⁴
  objects; measured on two cores). The window froze itself and the heap before issue 31's
  point 2; it now changes nothing of the process;
* BLAS runs one thread while no solver runs (:data:`core.threads.RUNNING` gives the solvers the
  policy's count and puts this one back when the last one ends).

:func:`configure` does all of it, once, from ``__main__.main()`` (and the app tests' fixture), and
returns the function that undoes it (freezing included). A :class:`app.main_window.MainWindow` built in a script
changes none of it: the garbage collector and the BLAS threads are those of the script. No
numerics here.

Measured and left out: a GIL switch interval of 1 ms instead of Python's 5 ms (set here until
issue 31) made no difference beyond the noise in ``bench_gui.py``'s A/B runs (faces, faces at
64 x 64, the default window: longest gaps with 1 ms and with 5 ms within the same 25-80 ms spread
on the loaded 2 cores, over 11 runs each; see docs/architecture.md, "Threads").
"""
from __future__ import annotations

import gc
from typing import Callable

from robust_subspace_lab.core import threads

from . import memory
from .worker import lower_helper_threads_priority

__all__ = ["configure"]


def configure() -> Callable[[], None]:
    """Apply the app's process-wide settings (see the module docstring); call it from the GUI
    thread once a QApplication exists. Returns ``restore()``, which puts back automatic garbage
    collection and the BLAS thread count and stops the trimming thread. (Threads whose priority
    was lowered keep it: they are the process's BLAS helpers, as low as its solvers.)"""
    collecting = gc.isenabled()
    gc.collect()                 # no garbage frozen with the living objects
    gc.freeze()
    trimming = memory.trimming()
    blas = threads.current_blas_threads()
    threads.set_blas_threads(1)
    memory.start_trimming()
    lower_helper_threads_priority()
    collector = memory.collect_in_gui_thread()

    def restore() -> None:
        memory.stop_collecting(collector)
        gc.unfreeze()
        if not collecting:
            gc.disable()
        if not trimming:
            memory.stop_trimming()
        threads.set_blas_threads(blas)

    return restore
