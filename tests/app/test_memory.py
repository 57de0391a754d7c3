"""app.memory: freed heap memory is given back to the system by one trimming thread per process."""
import sys
import threading

import numpy as np
import pytest

from robust_subspace_lab.app import memory
from robust_subspace_lab.app.monkey import resident_mb

glibc = pytest.mark.skipif(memory._TRIM is None, reason="needs glibc's malloc_trim (Linux)")


@glibc
def test_one_trimming_thread_per_process_started_by_the_window(make_window):
    make_window()
    make_window()
    threads = [t for t in threading.enumerate() if t.name == "malloc-trim"]
    assert len(threads) == 1 and threads[0].daemon


@glibc
def test_trim_returns_freed_heap_memory(monkeypatch):
    """Arrays of 1 MB freed out of order leave the heap full of holes: glibc keeps them (the
    mmap threshold has risen to 8 MB after the first 8 MB array was freed), and the trim gives
    them back."""
    if not sys.platform.startswith("linux"):
        pytest.skip("resident memory is read from /proc")
    big = np.ones(2 ** 20)                   # 8 MB through mmap; freeing it raises the threshold
    del big
    blocks = [np.ones(2 ** 17) for _ in range(600)]      # 600 × 1 MB, now from the heap
    keep = blocks[::50]
    del blocks
    before = resident_mb()
    assert memory.release_free_memory()
    after = resident_mb()
    assert before - after > 200, (before, after)
    del keep
