"""The iteration scrubber's logic, shared by the method columns and the regression workspace."""
from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["FollowsIterations"]


class FollowsIterations:
    """Mixin for a widget that shows one of ``self.runner.states``, chosen with the slider
    ``self.scrubber``: at the end of the slider it follows the solver (draws the newest state),
    elsewhere it holds the chosen iteration. The widget provides ``refresh()`` and starts with
    ``_follow = True`` and ``_drawn_key = None`` (the key of the last frame drawn)."""

    def _build_scrubber(self, widest: str = "000 / 000 (live)  ") -> QtWidgets.QHBoxLayout:
        """The row "Iteration [slider] n / N (live) [Live]": sets ``scrubber``, ``scrub_label``
        and ``live_button``; ``widest`` is the longest label text to make room for."""
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Iteration"))
        self.scrubber = QtWidgets.QSlider(QtCore.Qt.Horizontal)
        self.scrubber.setRange(0, 0)
        self.scrubber.setPageStep(1)
        self.scrubber.setToolTip("Go back to any past iteration; at the right end the view follows the solver")
        self.scrubber.valueChanged.connect(self._on_scrub)
        self.scrub_label = QtWidgets.QLabel("")
        self.scrub_label.setMinimumWidth(self.scrub_label.fontMetrics().horizontalAdvance(widest))
        self.live_button = QtWidgets.QPushButton("Live")
        self.live_button.setToolTip("Jump to the newest iteration and follow the solver")
        self.live_button.clicked.connect(self.follow_live)
        row.addWidget(self.scrubber, 1)
        row.addWidget(self.scrub_label)
        row.addWidget(self.live_button)
        return row

    def follow_live(self) -> None:
        """Follow the solver again: the scrubber jumps to the newest state."""
        self._follow = True
        n = len(self.runner.states)
        if n:
            blocked = self.scrubber.blockSignals(True)
            self.scrubber.setValue(n - 1)
            self.scrubber.blockSignals(blocked)
        self._drawn_key = None

    def show_iteration(self, index: int) -> None:
        """Show ``states[index]`` (stop following the solver unless it is the newest)."""
        self.scrubber.setValue(index)
        self._on_scrub(self.scrubber.value())

    def _sync_scrubber(self) -> int:
        """Stretch the slider over the states kept (to the newest while following); the index of
        the state to draw, -1 when there is none."""
        n = len(self.runner.states)
        blocked = self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(n - 1, 0))
        if self._follow and n:
            self.scrubber.setValue(n - 1)
        self.scrubber.blockSignals(blocked)
        return self.scrubber.value() if n else -1

    def _on_scrub(self, value: int) -> None:
        n = len(self.runner.states)
        self._follow = n == 0 or value >= n - 1
        self._drawn_key = None
        self.refresh()
