"""Random use of the window, seeded: the driver behind ``tests/app/test_monkey.py`` and
``benchmarks/monkey.py``.

A :class:`Monkey` acts on the window the way an impatient user does: it clicks enabled
buttons, picks combo-box entries, drags sliders, types into spin boxes, toggles check boxes,
switches tabs, triggers menu actions (lessons, step, run, pause, reset, columns) and resizes
the window, with short, random pauses in between. After every action it checks what the
user would see, and it records

* every exception that reached the event loop (``sys.excepthook``),
* every "nan" shown in a label, button, status bar or text box,
* the longest gap of the GUI event loop (a 10 ms timer that notes when it gets to run),
* the resident memory (current and peak).

Nothing here asserts: :meth:`Monkey.report` returns the findings, and the test or the script
decides. Actions that would open a blocking native dialog (file choosers) are not offered,
and dialogs that do appear are closed, as a user would close them.
"""
from __future__ import annotations

import random
import re
import resource
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

__all__ = ["Monkey", "Findings", "resident_mb", "peak_resident_mb"]

#: text of controls the monkey leaves alone: they open native file dialogs or quit
AVOID = re.compile(r"open folder|choose|browse|quit|save|export|…|\.\.\.", re.IGNORECASE)
#: NaN shown as a value: Python and numpy format it as lowercase "nan" ("= nan", "nan %"); "NaN" in
#: prose ("entries removed (NaN)", "refuse NaN") names missing entries and is not a finding
NAN = re.compile(r"(?<![A-Za-z])nan(?![A-Za-z])|[=:]\s*NaN\b")
#: window sizes tried: a small laptop, a common desktop, a tall narrow window
SIZES = ((1366, 768), (1600, 1000), (1024, 900), (1920, 1080))
#: event-loop gaps at least this long (ms) are listed in :attr:`Findings.gaps`
GAP_NOTE_MS = 200.0


def resident_mb() -> float:
    """Resident memory of this process now, in MB (Linux /proc; else the peak)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() / 2 ** 20
    except OSError:
        return peak_resident_mb()


def peak_resident_mb() -> float:
    """Peak resident memory of this process, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2 ** 20 if sys.platform == "darwin" else peak / 1024


@dataclass
class Findings:
    """What a random-use run found (see the module docstring)."""

    actions: int = 0
    exceptions: list[str] = field(default_factory=list)
    nan_texts: list[str] = field(default_factory=list)
    longest_gap_ms: float = 0.0
    longest_gap_cpu_ms: float = 0.0        # CPU time of the GUI thread in that gap
    gap_action: str = ""
    resident_mb: float = 0.0
    peak_resident_mb: float = 0.0
    #: the action during which the resident memory, sampled every 50 ms, was highest
    peak_action: str = ""
    log: list[str] = field(default_factory=list)
    #: event-loop gaps over :data:`GAP_NOTE_MS` as (ms, GUI-thread CPU ms, action), in the order
    #: they happened: a gap whose CPU time is much shorter than its length was spent waiting (for
    #: a lock, or for a core on a loaded machine), not computing on the GUI thread
    gaps: list[tuple[float, float, str]] = field(default_factory=list)
    #: (seconds since the start, resident MB), one entry per progress report
    memory: list[tuple[float, float]] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.actions} actions; {len(self.exceptions)} exception(s); {len(self.nan_texts)} NaN text(s); "
                f"longest event-loop gap {self.longest_gap_ms:.0f} ms, GUI thread CPU {self.longest_gap_cpu_ms:.0f} ms "
                f"({self.gap_action or '-'}); "
                f"resident {self.resident_mb:.0f} MB (peak {self.peak_resident_mb:.0f} MB"
                + (f", during {self.peak_action}" if self.peak_action else "") + ")")


class Monkey:
    """Seeded random use of ``window`` (a :class:`~app.main_window.MainWindow`)."""

    def __init__(self, window: QtWidgets.QMainWindow, seed: int = 0, pause_ms: tuple[int, int] = (5, 150),
                 allow_presets: bool = True, allow_data: bool = True):
        self.window = window
        self.rng = random.Random(seed)
        self.pause_ms = pause_ms
        self.allow_presets = allow_presets
        self.allow_data = allow_data
        self.findings = Findings()
        self._last_tick = None
        self._last_cpu = 0.0
        self._current = ""
        self._timer = QtCore.QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)
        self._old_hook = None

    # ------------------------------------------------------------------ monitoring
    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last_tick is not None:
            gap = (now - self._last_tick) * 1000.0
            cpu = (time.thread_time() - self._last_cpu) * 1000.0
            if gap >= GAP_NOTE_MS:
                self.findings.gaps.append((gap, cpu, self._current))
            if gap > self.findings.longest_gap_ms:
                self.findings.longest_gap_ms, self.findings.longest_gap_cpu_ms = gap, cpu
                self.findings.gap_action = self._current
        self._last_tick = now
        self._last_cpu = time.thread_time()

    def _hook(self, etype, value, tb) -> None:
        self.findings.exceptions.append(
            f"after {self._current!r}: " + "".join(traceback.format_exception(etype, value, tb)))

    def _texts(self) -> list[str]:
        # findChildren by class filters in C++, so only those widgets get Python wrappers: listing
        # every widget (Qt's own popups and tooltips included) wrapped objects Qt later deleted
        # behind shiboken's back, and the monkey crashed in its own enumeration (segfault)
        out = []
        for cls in (QtWidgets.QLabel, QtWidgets.QAbstractButton, QtWidgets.QLineEdit):
            out += [w.text() for w in self.window.findChildren(cls) if w.isVisible()]
        out += [w.toPlainText() for w in self.window.findChildren(QtWidgets.QTextEdit) if w.isVisible()]
        out.append(self.window.statusBar().currentMessage())
        return out

    def _check_texts(self) -> None:
        for text in self._texts():
            if text and NAN.search(re.sub(r"<[^>]+>", "", text).replace("&nbsp;", " ")):
                self.findings.nan_texts.append(f"after {self._current!r}: {text[:200]}")

    # ------------------------------------------------------------------ actions
    def _visible(self, cls) -> list:
        return [w for w in self.window.findChildren(cls) if w.isVisible() and w.isEnabled()]

    def _buttons(self) -> list:
        return [b for b in self._visible(QtWidgets.QAbstractButton)
                if not isinstance(b, (QtWidgets.QCheckBox, QtWidgets.QRadioButton))
                and not AVOID.search(b.text() or "") and not AVOID.search(b.toolTip() or "")]

    def _menu_actions(self) -> list:
        acts = []
        for top in self.window.menuBar().actions():
            menu = top.menu()
            if menu is None:
                continue
            stack = [menu]
            while stack:
                m = stack.pop()
                for a in m.actions():
                    if a.menu() is not None:
                        if self.allow_presets or "lesson" not in top.text().lower():
                            stack.append(a.menu())
                    elif a.isEnabled() and not a.isSeparator() and not AVOID.search(a.text()) \
                            and "about" not in a.text().lower() and "shortcut" not in a.text().lower():
                        acts.append(a)
        return acts

    def _act_button(self) -> str:
        buttons = self._buttons()
        if not buttons:
            return ""
        b = self.rng.choice(buttons)
        QTest.mouseClick(b, QtCore.Qt.LeftButton)
        return f"click {b.text() or b.toolTip() or type(b).__name__}"

    def _act_combo(self) -> str:
        combos = [c for c in self._visible(QtWidgets.QComboBox) if c.count() > 1]
        if not self.allow_data:
            combos = [c for c in combos if "data" not in (c.toolTip() or "").lower()]
        if not combos:
            return ""
        c = self.rng.choice(combos)
        i = self.rng.randrange(c.count())
        c.setCurrentIndex(i)
        c.activated.emit(i)
        return f"combo {c.objectName() or c.toolTip()[:30]!r} -> {c.itemText(i)!r}"

    def _act_slider(self) -> str:
        sliders = self._visible(QtWidgets.QSlider)
        if not sliders:
            return ""
        s = self.rng.choice(sliders)
        v = self.rng.randint(s.minimum(), s.maximum())
        s.setSliderDown(True)
        s.setValue(v)
        s.setSliderDown(False)
        return f"slider -> {v}"

    def _act_spin(self) -> str:
        spins = self._visible(QtWidgets.QAbstractSpinBox)
        if not spins:
            return ""
        s = self.rng.choice(spins)
        s.setFocus()
        if self.rng.random() < 0.5:
            s.stepBy(self.rng.choice((-3, -1, 1, 3)))
            what = "step"
        else:
            text = self.rng.choice(("0", "-1", "1,5", "2", "1e9", "abc", "0.5", "", "3"))
            s.lineEdit().selectAll()
            QTest.keyClicks(s.lineEdit(), text)
            what = f"type {text!r}"
        QTest.keyClick(s, QtCore.Qt.Key_Return)
        return f"spin {what}"

    def _act_check(self) -> str:
        boxes = self._visible(QtWidgets.QCheckBox)
        if not boxes:
            return ""
        b = self.rng.choice(boxes)
        QTest.mouseClick(b, QtCore.Qt.LeftButton)
        return f"toggle {b.text()!r}"

    def _act_tab(self) -> str:
        tabs = self._visible(QtWidgets.QTabWidget)
        if not tabs:
            return ""
        t = self.rng.choice(tabs)
        i = self.rng.randrange(t.count())
        t.setCurrentIndex(i)
        return f"tab {t.tabText(i)!r}"

    def _act_menu(self) -> str:
        acts = self._menu_actions()
        if not acts:
            return ""
        a = self.rng.choice(acts)
        a.trigger()
        return f"menu {a.text().replace('&', '')!r}"

    def _act_resize(self) -> str:
        w, h = self.rng.choice(SIZES)
        self.window.resize(w, h)
        return f"resize {w}x{h}"

    def _close_dialogs(self) -> None:
        # the window's dialogs (every dialog of the app has the window as an ancestor), not
        # QApplication.topLevelWidgets(): see _texts
        for w in self.window.findChildren(QtWidgets.QDialog):
            if w.isVisible():
                w.reject()

    def step(self) -> None:
        """One random action, a short wait, then the checks."""
        choices: list[tuple[float, Callable[[], str]]] = [
            (5, self._act_button), (3, self._act_combo), (3, self._act_slider), (2, self._act_spin),
            (1, self._act_check), (1, self._act_tab), (2, self._act_menu), (0.5, self._act_resize)]
        total = sum(w for w, _ in choices)
        r = self.rng.uniform(0, total)
        for weight, act in choices:
            r -= weight
            if r <= 0:
                break
        self._current = act.__name__
        n_gaps = len(self.findings.gaps)
        try:
            what = act()
        except Exception:          # a failure of the driver itself is a finding too
            self._hook(*sys.exc_info())
            what = "driver error"
        # gaps during the action itself were noted under its kind: name the action instead
        if what:
            self.findings.gaps[n_gaps:] = [(ms, cpu, what) for ms, cpu, _ in self.findings.gaps[n_gaps:]]
            if self.findings.gap_action == act.__name__:
                self.findings.gap_action = what
            if self.findings.peak_action == act.__name__:
                self.findings.peak_action = what
        self._current = what or self._current
        self.findings.actions += 1
        self.findings.log.append(what)
        QTest.qWait(self.rng.randint(*self.pause_ms))
        self._close_dialogs()
        self._check_texts()
        self._last_tick = time.perf_counter()      # the driver's own checks are not the app's gap
        self._last_cpu = time.thread_time()

    def _sample_memory(self, done: threading.Event) -> None:
        """Every 50 ms: note the action under way when the resident memory reaches a new high."""
        high = 0.0
        while not done.wait(0.05):
            mb = resident_mb()
            if mb > high:
                high, self.findings.peak_action = mb, self._current

    def run(self, seconds: float | None = None, on_progress: Callable[[Findings], None] | None = None,
            actions: int | None = None) -> Findings:
        """Act for ``seconds`` of wall time, or ``actions`` actions (the same seeded count on a
        fast or a loaded machine), whichever ends first; returns the findings (also in
        ``self.findings``). ``ValueError`` if neither is given."""
        if seconds is None and actions is None:
            raise ValueError("Monkey.run needs seconds or actions")
        self._old_hook = sys.excepthook
        sys.excepthook = self._hook
        self._timer.start()
        self._last_tick = None
        done = threading.Event()
        sampler = threading.Thread(target=self._sample_memory, args=(done,), daemon=True)
        sampler.start()
        try:
            start = time.monotonic()
            end = start + seconds if seconds is not None else float("inf")
            last_report = start
            while time.monotonic() < end and (actions is None or self.findings.actions < actions):
                self.step()
                self.findings.resident_mb = resident_mb()
                self.findings.peak_resident_mb = peak_resident_mb()
                if time.monotonic() - last_report > 10:
                    last_report = time.monotonic()
                    self.findings.memory.append((last_report - start, self.findings.resident_mb))
                    if on_progress is not None:
                        on_progress(self.findings)
        finally:
            done.set()
            sampler.join()
            self._timer.stop()
            sys.excepthook = self._old_hook
        self.findings.resident_mb = resident_mb()
        self.findings.peak_resident_mb = peak_resident_mb()
        return self.findings
