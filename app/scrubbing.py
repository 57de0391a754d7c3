"""The iteration scrubber's logic, shared by the method columns and the regression workspace."""
from __future__ import annotations

__all__ = ["FollowsIterations"]


class FollowsIterations:
    """Mixin for a widget that shows one of ``self.runner.states``, chosen with the slider
    ``self.scrubber``: at the end of the slider it follows the solver (draws the newest state),
    elsewhere it holds the chosen iteration. The widget provides ``refresh()`` and starts with
    ``_follow = True`` and ``_drawn_key = None`` (the key of the last frame drawn)."""

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

    def _on_scrub(self, value: int) -> None:
        n = len(self.runner.states)
        self._follow = n == 0 or value >= n - 1
        self._drawn_key = None
        self.refresh()
