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
