"""Quit ends the process at once (issue 13, point 4): mid-step, with a dialog open, on data whose
steps take seconds. Each case runs the app in a process of its own (``quit_child.py``: the app's
``main`` offscreen, PCA-GM | Truncated Cauchy NMF on the 5,000 digits at 48 × 48, quit during
the steps) and waits for that process to end. The wait is bounded by a timeout (far above the
1 s target, whose measurement is ``benchmarks/bench_gui.py``'s); the time measured is printed
(``pytest -s``)."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("quit_child.py")
#: seconds the child may take to load the digits and start (a loaded machine is slow)
START_TIMEOUT = 240
#: seconds from Quit to the process's end before the test fails (issue 13's measurement: 17 s
#: and more without a window before this was fixed; the target, 1 s, is the benchmark's)
END_TIMEOUT = 10


def quit_mid_step(dialog: str, tmp_path: Path, size: int = 48) -> float:
    """Run the child; seconds from its Quit to its end. Fails if it does not quit or end."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    err = tmp_path / f"quit-{dialog}.stderr"
    with open(err, "w") as err_file:
        proc = subprocess.Popen([sys.executable, str(CHILD), "--dialog", dialog, "--size", str(size)],
                                stdout=subprocess.PIPE, stderr=err_file, text=True, env=env)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    quit_at = None
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while quit_at is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                if proc.poll() is not None:
                    break
                continue
            if line.startswith("QUIT_AT"):
                quit_at = float(line.split()[1])
        assert quit_at is not None, f"the child never quit: {err.read_text()[-2000:]}"
        code = proc.wait(timeout=END_TIMEOUT)
        ended = time.time()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0, err.read_text()[-2000:]
    return ended - quit_at


@pytest.mark.slow          # a process of its own per dialog, each loading the digits (~5 s each); CI's second run has them
@pytest.mark.parametrize("dialog", ["none", "export", "message", "sweep"])
def test_quit_mid_step_ends_the_process(dialog, tmp_path):
    """The solvers are inside their steps (5,000 × 2,304 data), a dialog may be open (the
    modal Export file dialog, a modal message box, the Sweep dialog running a sweep); File ▸
    Quit ends the process, with exit code 0, well before the timeout."""
    seconds = quit_mid_step(dialog, tmp_path)
    print(f"\nquit mid-step with dialog={dialog}: the process ended {seconds * 1000:.0f} ms after Quit")
