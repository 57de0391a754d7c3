"""The lesson panel: a dock right of the columns that shows the lesson's step and its claims.

It shows the lesson's title, "Step k of N", the step's title and text (Markdown-light, formulas in
Unicode, wrapped, in the application font, a little larger), which view to look at (framed in
every column: :mod:`app.lesson_highlight`), Back / Run this step again / Next, and the step's
claims, each with ✓ or ✗ and the measured numbers, marked [paper] or [ours]; a paper's claim that
does not reproduce on our data is shown as such with its reason, never as a passing claim.

The panel only displays: :class:`app.lesson_driver.LessonDriver` applies the setups, runs the
actions and checks the claims off the GUI thread. The panel stays when the data, the methods or
the step change, and View ▸ Lesson shows or hides it (hidden, it frames no view).
"""
from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from . import lesson_highlight
from .layout import WrappedLabel
from .lesson_driver import LessonDriver

__all__ = ["LessonPanel", "install", "claim_html", "TEXT_SCALE"]

#: the step text's size relative to the application font (a class reads it from the back)
TEXT_SCALE = 1.15
#: the lesson title's size relative to the application font
TITLE_SCALE = 1.3
#: the largest share of the panel's height the claims take (more scroll)
CLAIMS_SHARE = 0.3
#: the panel's width (px) when the columns leave room for it, and its least
PANEL_WIDTH = 340
PANEL_MIN_WIDTH = 240
#: colours of the claims: holds, fails, a paper claim declared not to reproduce, not checked yet
OK_COLOR, FAIL_COLOR, DECLARED_COLOR, PENDING_COLOR = "#1a7f37", "#b42318", "#8a5a00", "#666666"
#: what "Look at:" calls the parts of a tab that are not views (:data:`app.lesson_highlight.PARTS`)
PART_NAMES = {"metrics": "the numbers under the iteration", "points": "the points and their weights",
              "majorizer": "the objective and its majorizer", "regression": "the test results",
              ("playground", "weights"): "the points' weights (size and colour)",
              ("playground", "objective"): "the objective J(θ) and its majorizer"}


def claim_html(result) -> str:
    """One checked claim as a paragraph: core's line (:class:`core.lessons.ClaimResult`: ✓ or ✗ as
    it holds, the text, the numbers, [paper]/[ours]), coloured: green holds, red an asserted claim
    that fails; a paper claim declared not to reproduce is amber with "does not reproduce: reason"
    on a line of its own (never a green ✓ unless it now reproduces, which the line says)."""
    claim, line = result.claim, str(result.line)
    note = ""
    if claim.expect == "does-not-reproduce":
        color = OK_COLOR if result.holds else DECLARED_COLOR
        cut = min((i for i in (line.find(" — does not reproduce"), line.find(" — now reproduces")) if i >= 0),
                  default=-1)
        if cut >= 0:
            line, note = line[:cut], f"<br><i>{html.escape(line[cut + 3:])}</i>"
    else:
        color = OK_COLOR if result.ok else FAIL_COLOR
    return f'<p style="color:{color}; margin:0 0 6px 0">{html.escape(line)}{note}</p>'


def _pending_html(claim) -> str:
    extra = f"<br><i>the paper's claim; does not reproduce: {html.escape(claim.reason)}</i>" \
        if claim.expect == "does-not-reproduce" else ""
    return (f'<p style="color:{PENDING_COLOR}; margin:0 0 6px 0">… {html.escape(claim.text)} '
            f'[{html.escape(claim.source)}]{extra}</p>')


class LessonPanel(QtWidgets.QDockWidget):
    """The dock (see the module docstring). ``open(lesson, seed)`` shows step 1 and runs it."""

    def __init__(self, window):
        super().__init__("Lesson", window)
        self.window = window
        self.setObjectName("lessonDock")
        self.setFeatures(QtWidgets.QDockWidget.DockWidgetClosable | QtWidgets.QDockWidget.DockWidgetMovable)
        self.setAllowedAreas(QtCore.Qt.RightDockWidgetArea | QtCore.Qt.LeftDockWidgetArea)
        self.setMinimumWidth(PANEL_MIN_WIDTH)
        self.driver = LessonDriver(window, self)
        self.driver.entered.connect(self._on_entered)
        self.driver.evaluated.connect(self._on_evaluated)
        self.driver.state.connect(self._on_state)
        self._build()
        self.visibilityChanged.connect(lambda _v: self._frame_views())
        if hasattr(window.subspace, "column_added"):
            window.subspace.column_added.connect(self._on_column_added)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        body = QtWidgets.QWidget()
        v = QtWidgets.QVBoxLayout(body)
        v.setContentsMargins(8, 6, 8, 8)
        v.setSpacing(6)

        def label(name: str, wrap: bool = True) -> QtWidgets.QLabel:
            lab = WrappedLabel("") if wrap else QtWidgets.QLabel("")
            lab.setObjectName(name)
            lab.setTextFormat(QtCore.Qt.PlainText)
            lab.setTextInteractionFlags(QtCore.Qt.TextSelectableByMouse)
            v.addWidget(lab)
            return lab

        self.title_label = label("lessonTitle")
        self.paper_label = label("lessonPaper", wrap=False)
        self.paper_label.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Preferred)
        self._paper = ""
        self.paper_label.setStyleSheet("color: #555;")
        self.count_label = label("lessonCount")
        self.count_label.setStyleSheet("color: #555;")
        self.step_title = label("stepTitle")
        self.text = QtWidgets.QTextBrowser()
        self.text.setObjectName("stepText")
        self.text.setOpenExternalLinks(True)
        self.text.setLineWrapMode(QtWidgets.QTextEdit.WidgetWidth)
        v.addWidget(self.text, 1)
        self.look_label = label("lookAt")
        self.look_label.setStyleSheet(f"color: {lesson_highlight.COLOR.name()};")
        self.claims_title = label("claimsTitle")
        self.claims_title.setText("Claims, checked on the live result")
        self.claims = QtWidgets.QTextBrowser()
        self.claims.setObjectName("claims")
        v.addWidget(self.claims, 0)          # as tall as its claims (_fit_claims); the text takes the rest
        self.state_label = label("lessonState")
        self.state_label.setStyleSheet("color: #555;")

        row = QtWidgets.QHBoxLayout()
        self.back_button = QtWidgets.QPushButton("◀ Back")
        self.back_button.setToolTip("The previous step: its setup is applied and run again (Alt+Left)")
        self.back_button.clicked.connect(self.driver.back)
        self.again_button = QtWidgets.QPushButton("↻ Again")
        self.again_button.setToolTip("Run this step again from its setup")
        self.again_button.clicked.connect(self.driver.rerun)
        self.next_button = QtWidgets.QPushButton("Next ▶")
        self.next_button.setToolTip("The next step (Alt+Right)")
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self.driver.next)
        row.addWidget(self.back_button)
        row.addWidget(self.again_button)
        row.addStretch(1)
        row.addWidget(self.next_button)
        v.addLayout(row)
        for key, button in (("Alt+Right", self.next_button), ("Alt+Left", self.back_button)):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(key), self.window)
            shortcut.activated.connect(lambda b=button: b.click() if b.isEnabled() and self.isVisible() else None)
        self.setWidget(body)
        self._apply_fonts()
        self._show_no_lesson()

    def _show_no_lesson(self) -> None:
        """What the panel says before a lesson is opened (View ▸ Lesson panel shows it)."""
        self.title_label.setText("No lesson open")
        self.paper_label.hide()
        self.text.setMarkdown("Choose a lesson from the **Lessons** menu (by concept; the papers' settings are "
                              "under *Papers*), or open your own lesson file with *File ▸ Open lesson…*.")
        for w in (self.look_label, self.claims_title, self.claims):
            w.hide()
        for b in (self.back_button, self.again_button, self.next_button):
            b.setEnabled(False)

    def _apply_fonts(self) -> None:
        """Sizes relative to the application font, so a font scale (zoom) carries over."""
        base = QtWidgets.QApplication.font()
        size = base.pointSizeF() if base.pointSizeF() > 0 else 9.0

        def scaled(scale: float, bold: bool = False) -> QtGui.QFont:
            f = QtGui.QFont(base)
            f.setPointSizeF(size * scale)
            f.setBold(bold)
            return f

        self.title_label.setFont(scaled(TITLE_SCALE, True))
        self.step_title.setFont(scaled(TEXT_SCALE, True))
        self.text.setFont(scaled(TEXT_SCALE))
        self.text.document().setDefaultFont(scaled(TEXT_SCALE))
        self.claims.setFont(scaled(1.0))
        self.claims.document().setDefaultFont(scaled(1.0))
        self.claims_title.setFont(scaled(1.0, True))
        # as wide as their texts, not the style's 80 px: the panel then gets as narrow as
        # PANEL_MIN_WIDTH, and three columns fit beside it at 1280 px
        for b in (self.back_button, self.again_button, self.next_button):
            b.setMinimumWidth(QtGui.QFontMetrics(base).horizontalAdvance(b.text()) + 24)

    def changeEvent(self, event) -> None:
        # the application font changed (a dock that sets no font of its own gets a FontChange)
        if event.type() in (QtCore.QEvent.FontChange, QtCore.QEvent.ApplicationFontChange):
            self.fit_to_font()
        super().changeEvent(event)

    def fit_to_font(self) -> None:
        """The application font changed (View ▸ Zoom, presentation mode): sizes and boxes follow."""
        self._apply_fonts()
        self._elide_paper()
        if self.claims.isVisible():
            self._fit_claims()

    # ------------------------------------------------------------------ the lesson
    @property
    def lesson(self):
        return self.driver.lesson

    @property
    def index(self) -> int:
        return self.driver.index

    @property
    def results(self):
        return self.driver.results

    def open(self, lesson, seed: int | None = None) -> None:
        """Show the panel on ``lesson``'s first step and run that step."""
        self.show()
        self.raise_()
        self.title_label.setText(lesson.title)
        self._paper = f"Reproduces: {lesson.paper}" if lesson.paper else ""
        self.paper_label.setToolTip(lesson.paper)
        self.paper_label.setVisible(bool(lesson.paper))
        self._elide_paper()
        self.driver.open(lesson, seed)

    def _on_entered(self, index: int) -> None:
        lesson, step = self.driver.lesson, self.driver.step
        n = len(lesson.steps)
        self.count_label.setText(f"Step {index + 1} of {n}")
        self.state_label.setStyleSheet("color: #555;")
        self.step_title.setText(step.title)
        # CommonMark: GitHub's dialect reads the "~" of "ε ~ N(0, 1)" as strikethrough
        self.text.document().setMarkdown(step.text, QtGui.QTextDocument.MarkdownDialectCommonMark)
        self.back_button.setEnabled(index > 0)
        self.next_button.setEnabled(index + 1 < n)
        self.again_button.setEnabled(True)
        self.look_label.setText(self._look_text(step.look_at))
        self.look_label.setVisible(bool(step.look_at))
        self.claims_title.setVisible(bool(step.claims))
        self.claims.setVisible(bool(step.claims))
        self.claims.setHtml("".join(_pending_html(c) for c in step.claims))
        self._fit_claims()
        self._fit_width()
        self.state_label.setText({"steps": f"Running {step.action.n} iteration(s)…",
                                  "converge": "Running to convergence…",
                                  "wait": "Your turn: do what the text says."}.get(step.action.kind, ""))
        self._frame_views()

    def _fit_claims(self) -> None:
        """The claims box as tall as its claims, at most :data:`CLAIMS_SHARE` of the panel (then it
        scrolls): the step's text keeps the rest, so a few sentences are read without scrolling."""
        doc = self.claims.document()
        doc.setTextWidth(self.claims.viewport().width())
        wanted = int(doc.size().height()) + 2 * self.claims.frameWidth() + 4
        self.claims.setFixedHeight(max(self.fontMetrics().lineSpacing() * 2, min(wanted, int(CLAIMS_SHARE * self.height()))))

    def _elide_paper(self) -> None:
        """The citation on one line (the whole of it in the tooltip): the step's text gets the room."""
        room = max(self.paper_label.width(), 50)
        self.paper_label.setText(self.paper_label.fontMetrics().elidedText(self._paper, QtCore.Qt.ElideRight, room))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide_paper()
        if self.claims.isVisible():
            self._fit_claims()

    def _fit_width(self) -> None:
        """As wide as :data:`PANEL_WIDTH` where the step's columns still fit beside it (1280 px
        with two columns), else narrower down to :data:`PANEL_MIN_WIDTH`."""
        win, ws = self.window, self.driver.workspace
        if self.isFloating() or ws.task != "subspace":
            return
        from .subspace_workspace import COLUMN_MIN_WIDTH
        from .views.scaling import scale
        n = max(len(ws.columns), len(self.driver.step.setup.methods) if self.driver.step.setup else 0)
        dock = win.data_dock
        zoom = scale()
        used = (dock.width() if dock is not None and dock.isVisible() else 0) + n * (COLUMN_MIN_WIDTH * zoom + 6) + 60
        least = int(round(PANEL_MIN_WIDTH * zoom))
        self.setMinimumWidth(least)        # (shown, the dock's layout had raised it to its contents' 268 px)
        win.resizeDocks([self], [int(max(least, min(PANEL_WIDTH * zoom, win.width() - used)))], QtCore.Qt.Horizontal)

    def _look_text(self, key: str | None) -> str:
        if not key:
            return ""
        ws = self.driver.workspace
        title = PART_NAMES.get((ws.task, key)) or PART_NAMES.get(key) or \
            lesson_highlight.view_title(ws.task, key) or key.replace("_", " ")
        where = "in every column" if ws.task == "subspace" else "in the tab"
        return f"Look at: {title} (framed in orange {where})"

    def _on_evaluated(self, results) -> None:
        step = self.driver.step
        if step is None:
            return
        if not step.claims:
            self.state_label.setText("Your turn: do what the text says." if step.action.kind == "wait"
                                     else "Done: this step checks no claim; read the views.")
            self._say_if_not_shown()
            return
        self.claims.setHtml("".join(claim_html(r) for r in results))
        self._fit_claims()
        ws = self.driver.workspace
        its = sorted({c.runner.iteration for c in ws.columns}) if ws.task == "subspace" else []
        at = f" at iteration {its[0]}" if len(its) == 1 else ""
        failed = sum(1 for r in results if not r.ok and r.claim.expect == "holds")
        declared = [r for r in results if r.claim.expect != "holds"]
        text = "every claim it asserts holds" if not failed else f"{failed} claim(s) do not hold on this run"
        if any(not r.holds for r in declared):
            text += f"; {sum(not r.holds for r in declared)} paper claim(s) do not reproduce (as declared)"
        if any(r.holds for r in declared):
            text += f"; {sum(r.holds for r in declared)} declared not to reproduce does on this run"
        self.state_label.setText(f"Checked{at}: {text}.")
        self._say_if_not_shown()

    def _say_if_not_shown(self) -> None:
        """The runs have stopped: if the view to look at is not shown for these data (a loadings
        map of 2-D points), "Look at" says so rather than send the student looking for it."""
        step = self.driver.step
        if step is not None and step.look_at and self.isVisible() and not self._frame_views():
            self.look_label.setText(self._look_text(step.look_at).split(" (framed")[0] + " (not shown for these data)")

    def _on_state(self, text: str) -> None:
        if text != self.state_label.text():
            self.state_label.setText(text)
            self.state_label.setStyleSheet(f"color: {FAIL_COLOR};" if self.driver.error else "color: #555;")

    # ------------------------------------------------------------------ the framed view
    def _frame_views(self) -> int:
        """Frame the step's view in the lesson's workspace (none when hidden); the number framed."""
        step = self.driver.step
        key = step.look_at if step is not None and self.isVisible() else None
        framed = 0
        for ws in self.window.workspaces:
            n = lesson_highlight.highlight(ws, key if ws is self.driver.workspace else None)
            framed += n if ws is self.driver.workspace else 0
        return framed

    def _on_column_added(self, col) -> None:
        # a column builds its views after it is added (and some only when a snapshot needs them)
        seen = [-1]

        def drawn(*_):
            if len(col.view_list) != seen[0]:
                seen[0] = len(col.view_list)
                self._frame_views()

        col.drawn.connect(drawn)
        self._frame_views()

    def closeEvent(self, event) -> None:
        super().closeEvent(event)
        self._frame_views()

    # the Data dock makes room for the columns while the panel is shown (View ▸ Data shows it)
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.window.data_dock is not None and not self.isFloating():
            self.window.hold_data_dock(True)

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        if self.window.data_dock is not None and self.isHidden():     # closed, not the window minimised
            self.window.hold_data_dock(False)


def install(window, view_menu: QtWidgets.QMenu) -> LessonPanel:
    """The lesson panel of ``window``: a right dock, hidden until a lesson opens, with its
    show/hide action in ``view_menu``."""
    panel = LessonPanel(window)
    window.addDockWidget(QtCore.Qt.RightDockWidgetArea, panel)
    window.resizeDocks([panel], [PANEL_WIDTH], QtCore.Qt.Horizontal)
    act = panel.toggleViewAction()
    act.setText("&Lesson panel")
    view_menu.addAction(act)
    panel.hide()
    return panel
