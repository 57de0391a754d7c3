"""What the regression workspace draws: the views of the shown iteration, its numbers, and the
Test section with test-time cleaning (paper 004 Alg. 2) computed in the pool, newest state
first (a mixin of :class:`app.regression.workspace.RegressionWorkspace`)."""
from __future__ import annotations

import html
import threading

import numpy as np

from robust_subspace_lab.core import metrics

from .common import format_metric, has_own_cleaning
from .runner import TestJob
from .views import RIGHT_COLOR, WRONG_COLOR, ProjectionView

__all__ = ["WorkspaceDrawing"]


class WorkspaceDrawing:
    """Draws the workspace and runs its test-time cleaning (see the module docstring)."""

    # ================================================================== scrubbing
    # ================================================================== test-time cleaning
    def set_test_cleaning(self, on: bool) -> None:
        """Test-time cleaning (Alg. 2) on or off; the Test section recomputes for the shown state."""
        on = bool(on)
        self.ensure_views()
        if self.test_checkbox.isChecked() != on:
            self.test_checkbox.setChecked(on)      # comes back here through toggled
            return
        if self.test_clean != on:
            self.session.set_test_cleaning(on)     # saved with the session
        self._drawn_key = None
        if on and self.shown_state is not None:
            self._want_test(self.shown_state)
        self.refresh()
        self.activity.emit()

    def _invalidate_tests(self) -> None:
        if self._test_job is not None:
            self._test_job[1].set()
            self._test_job = None
        self._test_token += 1
        self._test_target = None
        self._test_result = None
        self._test_done = None
        self._test_error = ""
        self._test_version += 1

    def _of_this_run(self, state) -> bool:
        """``state`` is one of the current run's (a frame drawn in parts, or a test finishing,
        may come after the method or the data changed: its state is then another estimator's)."""
        states = self.runner.states
        return state is not None and 0 <= state.iteration < len(states) and states[state.iteration] is state

    def _want_test(self, state) -> None:
        if not self.test_clean or not self._of_this_run(state) or self._closed:
            return
        if self._test_done is state:         # done (or failed) for this state already
            return
        self._test_target = state
        if self._test_job is None:
            self._submit_test(state)

    def _submit_test(self, state) -> None:
        self._test_token += 1
        cancel = threading.Event()
        self._test_job = (self._test_token, cancel, state)
        self._test_version += 1
        self.pool.start(TestJob(self.test_relay, self._test_token, cancel, self.runner.estimator, state,
                                self.data))
        self.activity.emit()

    def _on_test_finished(self, token: int, outcome) -> None:
        if self._test_job is None or token != self._test_job[0]:
            return
        state = self._test_job[2]
        self._test_job = None
        self._test_result = (state, outcome)
        self._test_done = state
        self._test_error = ""
        self._test_version += 1
        self._next_test(state)

    def _on_test_failed(self, token: int, text: str) -> None:
        if self._test_job is None or token != self._test_job[0]:
            return
        state = self._test_job[2]
        self._test_job = None
        self._test_done = state
        self._test_error = text
        self._test_version += 1
        self._next_test(state)

    def _next_test(self, done_state) -> None:
        target = self._test_target
        if self.test_clean and target is not done_state and self._of_this_run(target) and not self._closed:
            self._submit_test(target)
        self.activity.emit()

    # ================================================================== drawing
    def refresh(self, force: bool = False) -> bool:
        """Redraw if the solver, the scrubber or the Test section changed since the last frame
        (the window's frame timer calls this ~30 times a second). True if drawn.

        A frame is drawn in parts, one per call (:meth:`_frame_parts`; the window's timer calls
        again at once while :attr:`drawing`), so that no event-loop turn repaints every view: on the
        digits a whole frame was 150-170 ms of GUI time in one turn, most of it the views' repaint.
        ``force`` draws the frame (or the rest of it) at once. A frame whose data, run, iteration
        or Test section changed before its last part is dropped for the new one. The views are
        built by the first call (:meth:`ensure_views`; the window calls it for the tab shown)."""
        self.ensure_views()
        states = self.runner.states
        n = len(states)
        index = self._sync_scrubber()
        key = (self.runner.version, index, self._test_version, self.test_clean, id(self.data))
        if self._parts and key != self._drawn_key:
            self._parts = []                       # stale: drawn anew below
        if self._parts and not force:
            self._parts.pop(0)()
            return True
        if key == self._drawn_key and not force:
            return False
        self._drawn_key = key
        snap = self.runner.snapshot(index) if n else None
        state = states[index] if n else None
        self._parts = self._frame_parts(snap, index, state)
        while self._parts:
            self._parts.pop(0)()
            if not force:
                break
        return True

    @property
    def drawing(self) -> bool:
        """A frame is partly drawn: :meth:`refresh` draws its next part."""
        return bool(self._parts)

    def _frame_parts(self, snap, index: int, state) -> list:
        """The frame of ``snap`` as calls of a few views each; the texts, the Test section and the
        ``drawn`` signal come with the last."""
        def last():
            self.shown_index, self.shown_snapshot, self.shown_state = index, snap, state
            self._draw_text(snap)
            if self.test_clean and state is not None:
                self._want_test(state)
            self._draw_test(snap)
            self.frames += 1
            self.drawn.emit(-1 if snap is None else snap.iteration)
        return [lambda: self._draw_inputs(snap), lambda: self._draw_curves(snap),
                lambda: self._draw_spectrum(snap), lambda: self._draw_T(snap), last]

    def _draw_inputs(self, snap) -> None:
        images = snap is not None and snap.rows is not None
        points = snap is not None and snap.points is not None
        if snap is not None:
            page = self.inputs_view if images or not points else self.points_page
            if self.inputs_stack.currentWidget() is not page:
                self.inputs_stack.setCurrentWidget(page)
            tpage = self.weights_view if snap.weights is not None else self.coef_view
            if self.T_stack.currentWidget() is not tpage:
                self.T_stack.setCurrentWidget(tpage)
        if self.inputs_stack.currentWidget() is self.points_page:
            self.proj_xy.show_snapshot(snap)
            self.proj_xz.show_snapshot(snap)
            legend = ProjectionView.legend_html(snap)
            if self.points_legend.text() != legend:
                self.points_legend.setText(legend)
        else:
            self.inputs_view.show_snapshot(snap)

    def _draw_curves(self, snap) -> None:
        self.objective_view.show_snapshot(snap)
        self.residual_view.show_snapshot(snap)

    def _draw_spectrum(self, snap) -> None:
        ref = None
        if self.runner.states:
            first = self.runner.snapshot(0)
            ref = first.singular_values if first is not None else None
        self.sv_view.show_snapshot(snap, ref)
        self.scalar_view.show_snapshot(snap)
        if snap is not None and self._scalar_defaults_for != self.runner.info.key:
            self._scalar_defaults_for = self.runner.info.key
            if "rank" in snap.scalar_history:
                self.scalar_view.choose("rank")
            second = "nnz(E)" if "nnz(E)" in snap.scalar_history else None
            self.scalar_view.choose_second(second)

    def _draw_T(self, snap) -> None:
        if self.T_stack.currentWidget() is self.weights_view:
            self.weights_view.show_snapshot(snap)
        else:
            self.coef_view.show_snapshot(snap, None if self.data is None else self.data.T_true,
                                         None if self.data is None else self.data.scored_columns)

    def _draw_text(self, snap) -> None:
        n = len(self.runner.states)
        name = self.runner.info.name
        if snap is None:
            self.iteration_label.setText(f"{name} · iteration –")
            self.scalars_label.setText("starting…" if self.runner.busy and not self.runner.error else "")
            self.metrics_label.setText("")
            self.scrub_label.setText("")
            return
        self.iteration_label.setText(f"{name} · {self.runner.status_line(snap.iteration)}")
        parts = [("objective", f"{snap.objective:.6g}")]
        parts += [(k, f"{v:.3g}" if isinstance(v, float) else str(v)) for k, v in snap.scalars.items()]
        self.scalars_label.setText(" &nbsp;·&nbsp; ".join(
            f"<span style='white-space:nowrap'>{html.escape(k)}&nbsp;=&nbsp;{html.escape(v)}</span>"
            for k, v in parts))
        self.metrics_label.setText(self._metrics_html(snap.metrics))
        live = "live" if self._follow else "past"
        self.scrub_label.setText(f"{self.shown_index} / {n - 1} ({live})")
        self.live_button.setEnabled(not self._follow)

    @staticmethod
    def _metrics_html(m: dict) -> str:
        cells = []
        for key in ("train accuracy", "test accuracy", "RAE_Y train", "RAE_Y test", "RAE_T"):
            if key in m:
                label = key + (" (plain)" if key.startswith("test") or key == "RAE_Y test" else "")
                cells.append((label, format_metric(key, m[key])))
        if "cleaning error" in m:
            cells.append(("cleaning error (input)", f"{format_metric('', m['cleaning error'])} ({format_metric('', m['input error'])})"))
        for key, v in m.items():
            if key.startswith("distance to clean: "):
                kind = key.split(": ", 1)[1]
                cells.append((f"distance to clean, {kind}",
                              f"{format_metric('', m.get('input distance: ' + kind))} → {format_metric('', v)}"))
        td = [f"<td><span style='color:#555'>{html.escape(k)}</span>&nbsp;</td>"
              f"<td align='right'><b>{v}</b>&nbsp;&nbsp;&nbsp;</td>" for k, v in cells]
        rows = ["<tr>" + "".join(td[i:i + 2]) + "</tr>" for i in range(0, len(td), 2)]
        return "<table cellspacing='0' cellpadding='0'>" + "".join(rows) + "</table>"

    # ---------------------------------------------------------------- the Test section
    def _draw_test(self, snap) -> None:
        data = self.data
        tsnap, outcome, status = snap, None, ""
        mode = "plain"
        if snap is None or data is None:
            self.test_metrics.setText("")
            self.test_status.setText("")
            self.confusion_view.show_counts(None)
            self.prediction_view.show_predictions(None, None)
            self.test_samples_view.show_rows(None)
            self.test_snapshot, self.test_outcome, self.test_mode_shown = None, None, "plain"
            return
        info = self.runner.info
        if self.test_clean:
            result = self._test_result
            computing = self._test_job is not None
            if result is not None:
                outcome = result[1]
                tsnap, mode = outcome.snapshot, "clean"
                how = self._cleaning_text(info)
                if result[0] is self.shown_state:
                    status = (f"{how}: cleaned in {outcome.seconds:.2f} s (iteration {outcome.iteration})"
                              if has_own_cleaning(info) else how)
                else:
                    status = (f"{how}: results of iteration {outcome.iteration}"
                              + (f"; cleaning iteration {self.shown_state.iteration}…" if computing else ""))
            else:
                tsnap, mode = snap, "plain"
                status = ("cleaning the test inputs (Alg. 2)… — plain predictions shown meanwhile"
                          if computing else "")
            if self._test_error and self._test_done is self.shown_state:
                status = self._test_error + (f" — showing iteration {outcome.iteration}" if outcome else "")
        else:
            status = "plain: T applied to the test inputs as they are"
        self.test_snapshot, self.test_outcome, self.test_mode_shown = tsnap, outcome, mode
        self.test_status.setText(status)
        m = tsnap.metrics
        n_te = int((~data.train).sum())
        corrupted = sum(int(np.asarray(v)[~data.train].sum()) for v in data.kinds.values())
        where = f"{n_te} test samples, {corrupted} corrupted"
        if data.is_classification:
            acc = m.get("test accuracy", float("nan"))
            text = (f"test accuracy <b>{format_metric('accuracy', acc)}</b> "
                    f"<span style='color:#555'>({'cleaned' if mode == 'clean' else 'plain'}; train "
                    f"{format_metric('accuracy', m.get('train accuracy'))}; {where})</span>")
            classes = list(data.classes)
            counts = metrics.confusion_matrix(np.asarray(data.labels)[~data.train],
                                              np.asarray(tsnap.test_predictions), classes)
            # the accuracy is in the line above, in bold: a short title leaves the matrix its height
            self.confusion_view.show_counts(counts, [str(c) for c in classes],
                                            f"Confusion ({'cleaned' if mode == 'clean' else 'plain'})")
            if self.test_plot_stack.currentWidget() is not self.confusion_view:
                self.test_plot_stack.setCurrentWidget(self.confusion_view)
        else:
            rae = m.get("RAE_Y test", float("nan"))
            text = (f"test RAE_Y <b>{format_metric('', rae)}</b> <span style='color:#555'>"
                    f"({'cleaned' if mode == 'clean' else 'plain'}; train {format_metric('', m.get('RAE_Y train'))}; "
                    f"{where})</span>")
            self.prediction_view.show_predictions(tsnap.Y_test, tsnap.test_outputs, tsnap.output_names,
                                                  f"Test predictions vs truth ({'cleaned' if mode == 'clean' else 'plain'}): "
                                                  f"RAE_Y {format_metric('', rae)}")
            if self.test_plot_stack.currentWidget() is not self.prediction_view:
                self.test_plot_stack.setCurrentWidget(self.prediction_view)
        self.test_metrics.setText(text)
        self._draw_test_samples(tsnap, outcome)

    @staticmethod
    def _cleaning_text(info) -> str:
        if hasattr(info.estimator, "clean"):
            return "cleaned by Alg. 2"
        if has_own_cleaning(info):
            return f"cleaned by {info.name}'s own test-time cleaning"
        return f"{info.name} has no test-time cleaning (inputs used as they are)"

    def _draw_test_samples(self, tsnap, outcome) -> None:
        data = self.data
        if data.shape is None or not len(self._test_samples):
            self.test_samples_view.setVisible(False)
            return
        self.test_samples_view.setVisible(True)
        h, w = data.shape
        te = ~data.train
        idx = self._test_samples
        X = np.asarray(data.X)[te][idx]
        missing = np.isnan(X)
        X_in = np.where(missing, 0.0, X)
        clean = np.asarray(data.X_clean)[te][idx] if data.X_clean is not None else X_in
        cols = [clean, X_in]
        if outcome is not None and outcome.cleaning is not None:
            cols.append(np.asarray(outcome.cleaning.D)[idx])
            cols.append(np.asarray(outcome.cleaning.E)[idx])
        elif outcome is not None and outcome.cleaned is not None and has_own_cleaning(self.runner.info):
            cols.append(np.asarray(outcome.cleaned)[idx])
        rows = np.stack(cols, axis=1).reshape(len(idx), len(cols), h, w)
        captions, colors = [], []
        if data.is_classification:
            truth = np.asarray(data.labels)[te][idx]
            pred = np.asarray(tsnap.test_predictions)[idx]
            for p, t in zip(pred, truth):
                captions.append(f"pred {p}\ntrue {t}")
                colors.append(RIGHT_COLOR if p == t else WRONG_COLOR)
        else:
            Yp, Yt = np.asarray(tsnap.test_outputs)[idx], np.asarray(tsnap.Y_test)[idx]
            def num(v):
                return f"{v:.2f}" if abs(v) < 100 else f"{v:.3g}"
            for p, t in zip(Yp, Yt):
                captions.append("pred " + ", ".join(num(v) for v in p[:2]) + "\ntrue "
                                + ", ".join(num(v) for v in t[:2]))
                colors.append("#333333")
        what = {2: "clean | test input", 3: "clean | test input | cleaned",
                4: "clean | test input | cleaned Dₜₑ | outliers Eₜₑ"}[len(cols)]
        self.test_samples_view.show_rows(rows, captions, colors, missing.reshape(len(idx), h, w) if missing.any()
                                         else None, title=f"Test samples: {what}")
