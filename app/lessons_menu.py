"""The Lessons menu and File ▸ Open lesson… (issue 28).

The menu lists the lessons shipped in :mod:`core.lessons` by concept (one submenu per
``Lesson.concept``, in the order :func:`core.lessons.by_concept` gives), each entry as
"title — what it teaches"; the concept "Papers" has one submenu per paper, so every paper's
settings stay one click away (they were the Presets menu). Choosing an entry opens the lesson in
the window's lesson panel (:meth:`MainWindow.open_lesson`).

File ▸ Open lesson… reads a teacher's own ``.toml`` file with :func:`core.lessons.load`; a broken
file gets a message box with the :class:`core.lessons.LessonFileError` text (file, line, field) and
the window is left exactly as it was (nothing is applied before the file has loaded whole).
"""
from __future__ import annotations

import os

from PySide6 import QtWidgets

from robust_subspace_lab.core import lessons

__all__ = ["LessonsMenu", "PAPERS_CONCEPT", "PAPER_MENU_TITLES", "paper_title", "entry_text"]

#: the concept under which the paper lessons (the former presets) are listed
PAPERS_CONCEPT = "Papers"
#: the Papers submenus, by the prefix of the lesson keys (``paper000-…``)
PAPER_MENU_TITLES = {
    "paper000": "Generalized-mean PCA (Oh && Kwak 2016)",
    "paper001": "Optimal-mean robust PCA (Nie, Yuan && Huang 2014)",
    "paper002": "Robust sparse PCA (Zhao, Meng && Xu 2014)",
    "paper003": "Truncated Cauchy NMF (Guan et al. 2019)",
    "paper004": "Robust regression (Huang, Cabral && De la Torre 2016)",
}
#: File ▸ Open lesson…'s file filter
LESSON_FILTER = "Lessons (*.toml);;All files (*)"


#: characters of a menu entry at most ("title — teaches", cut at a word; the whole line is its
#: tooltip and status tip): a concept's submenu then fits beside its parents on a 1280 px screen
ENTRY_CHARS = 110


def paper_title(lesson, by_citation: dict | None = None) -> str:
    """The Papers submenu of ``lesson``: by its key's prefix (``paper000-…``), else the submenu of
    another lesson with the same citation (``by_citation``), else its citation (a teacher's)."""
    prefix = lesson.key.split("-")[0]
    if prefix in PAPER_MENU_TITLES:
        return PAPER_MENU_TITLES[prefix]
    if by_citation and lesson.paper in by_citation:
        return by_citation[lesson.paper]
    return (lesson.paper or "Other papers").replace("&", "&&")


def entry_text(lesson, limit: int = ENTRY_CHARS) -> str:
    """A menu entry: the title and, after a dash, the one line of what it teaches, cut with "…" at
    ``limit`` characters; a paper lesson's title without its "Paper 000 · " (its submenu names it)."""
    title = lesson.title
    if lesson.concept == PAPERS_CONCEPT and " · " in title and title.lower().startswith("paper"):
        title = title.split(" · ", 1)[1]
    text = f"{title} — {lesson.teaches}" if lesson.teaches else title
    if len(text) > limit:                    # at a word's end
        cut = text[:limit - 1]
        cut = cut[:cut.rfind(" ")] if " " in cut[len(title):] else cut
        text = cut.rstrip(" ,;:—") + "…"
    return text.replace("&", "&&")


class LessonsMenu(QtWidgets.QMenu):
    """&Lessons: one submenu per concept, the paper lessons under Papers ▸ (paper).

    Parameters
    ----------
    open_lesson : called with the :class:`core.lessons.Lesson` chosen.
    parent : the window (the menu's owner).
    """

    def __init__(self, open_lesson, parent=None):
        super().__init__("&Lessons", parent)
        self._open = open_lesson
        self.setToolTipsVisible(True)
        groups = lessons.by_concept()
        papers = groups.get(PAPERS_CONCEPT, [])
        for concept, members in groups.items():
            if concept == PAPERS_CONCEPT:
                continue
            sub = self._submenu(self, concept)
            for lesson in members:
                self._add(sub, lesson)
        if papers:
            self.addSeparator()
            top = self._submenu(self, PAPERS_CONCEPT)
            by_paper: dict[str, QtWidgets.QMenu] = {}
            cited = {x.paper: PAPER_MENU_TITLES[x.key.split("-")[0]] for x in papers
                     if x.key.split("-")[0] in PAPER_MENU_TITLES}
            for lesson in papers:
                name = paper_title(lesson, cited)
                if name not in by_paper:
                    by_paper[name] = self._submenu(top, name)
                self._add(by_paper[name], lesson)

    @staticmethod
    def _submenu(menu: QtWidgets.QMenu, title: str) -> QtWidgets.QMenu:
        sub = menu.addMenu(title)
        sub.setToolTipsVisible(True)
        return sub

    def _add(self, menu: QtWidgets.QMenu, lesson) -> None:
        act = menu.addAction(entry_text(lesson), lambda chosen=lesson: self._open(chosen))
        act.setData(lesson.key)
        act.setStatusTip(f"{lesson.title} — {lesson.teaches}" if lesson.teaches else lesson.title)
        tip = f"{lesson.title}\n{lesson.teaches}" if lesson.teaches else lesson.title
        if lesson.paper:
            tip += f"\n\nReproduces: {lesson.paper}"
        act.setToolTip(f"{tip}\n{len(lesson.steps)} step{'s' if len(lesson.steps) != 1 else ''}")

    def actions_for(self, key: str) -> list:
        """The menu's actions that open the lesson ``key`` (tests, scripts)."""
        return [a for a in _leaves(self) if a.data() == key]


def _leaves(menu: QtWidgets.QMenu):
    for act in menu.actions():
        if act.menu() is not None:
            yield from _leaves(act.menu())
        elif act.data() is not None:
            yield act


def choose_lesson_file(window) -> None:
    """File ▸ Open lesson…: a file dialog (in the shipped lessons' folder the first time, then
    where the last lesson was opened), then :func:`open_lesson_file`."""
    # first in the shipped concept lessons' folder: a teacher starts from a copy of one
    start = os.path.dirname(window.lesson_dir) or os.fspath(lessons.FILES / "concepts")
    path, _ = QtWidgets.QFileDialog.getOpenFileName(window, "Open a lesson", start, LESSON_FILTER)
    if path:
        window.lesson_dir = path
        open_lesson_file(window, path)


def open_lesson_file(window, path) -> bool:
    """Load the lesson file ``path`` and open it in ``window`` (:meth:`MainWindow.open_lesson`).

    A file that does not load (:class:`core.lessons.LessonFileError`, or one that cannot be read)
    gets a warning box with the reason naming the file, line and field; nothing else happens.
    Returns whether the lesson was opened. The box is ``window.lesson_error_box`` (non-modal)."""
    try:
        lesson = lessons.load(os.fspath(path))
    except (lessons.LessonFileError, OSError) as exc:
        text = str(exc) if isinstance(exc, lessons.LessonFileError) else f"{os.fspath(path)}: {exc.strerror or exc}"
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Warning, "This lesson file cannot be opened",
                                    text, QtWidgets.QMessageBox.Ok, window)
        box.setInformativeText("Nothing was changed. Fix the file and open it again.")
        box.setModal(False)
        box.show()
        window.lesson_error_box = box
        return False
    window.open_lesson(lesson)
    return True
