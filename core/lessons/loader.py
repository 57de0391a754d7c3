"""Reading a lesson file: TOML parsed by ``tomllib`` (``tomli`` before Python 3.11), every field
checked, a :class:`~core.lessons.model.Lesson` built.

Every problem raises :class:`~core.lessons.model.LessonFileError` naming the file, the line and
the field (``steps[2].action.kind``, list positions 1-based as a teacher counts them). TOML's own
syntax errors carry their line; for a field, the line is found in the text (:func:`line_of`).
Checked: types, allowed values, the catalogue's method keys and each parameter against its
:class:`~core.params.ParamSpec`, corruption keys and parameters, toy and data options, the
claims' check expressions (:mod:`core.lessons.expr`), their metric names and column numbers.
"""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:                                  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .. import catalogue, corruption, datasets, playground, toys
from ..errors import ParameterError
from ..params import ParamSpec
from . import expr
from .measures import METRIC_SPECS
from .model import (ACTIONS, DOES_NOT_REPRODUCE, EXPECTS, SOURCES, TASKS, Action, Claim, Lesson,
                    LessonFileError, Setup, Step)

__all__ = ["load", "loads", "line_of", "LOOK_AT", "DATA_SOURCES"]

#: the views a step may point at (``look_at``); the app highlights the one of that name
LOOK_AT = ("weights", "weight_maps", "objective", "scalars", "basis", "loadings", "recon", "scatter",
           "metrics", "majorizer", "points", "regression")
#: ``data`` of each task: ``"builtin:NAME"``, ``"toy:KEY"``, ``"regression:SOURCE"``, ``"playground:default"``
DATA_SOURCES = {"subspace": ("builtin", "toy"), "regression": ("regression",), "playground": ("playground",)}

_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_TOP = {"key", "title", "concept", "teaches", "paper", "seed", "steps"}
_STEP = {"title", "text", "look_at", "action", "setup", "claims"}
_SETUP = {"task", "data", "data_params", "corruption", "corruption_params", "methods"}
_CLAIM = {"text", "check", "source", "expect", "reason"}
_PLAYGROUND_DATA = (
    ParamSpec("n_inliers", "inliers", "int", 24, "points near the line", low=2, high=500),
    ParamSpec("n_outliers", "outliers", "int", 4, "points far above it", low=0, high=500),
)


# ------------------------------------------------------------------------ locating lines
def _header(line: str) -> str | None:
    """The table name of a ``[name]`` / ``[[name]]`` header line, else None."""
    m = re.match(r"^\s*\[\[?\s*([A-Za-z0-9_.\s\"-]+?)\s*\]\]?\s*(#.*)?$", line)
    return None if m is None else m.group(1).replace(" ", "")


def _code_lines(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of the lines outside multi-line strings (headers are only there)."""
    out, in_string = [], None
    for i, line in enumerate(text.splitlines(), 1):
        if in_string is None:
            out.append((i, line))
        rest = line
        while True:
            if in_string is None:
                m = re.search(r'"""|\'\'\'', rest)
                if m is None or "#" in rest[:m.start()]:
                    break
                in_string, rest = m.group(0), rest[m.end():]
            else:
                j = rest.find(in_string)
                if j < 0:
                    break
                in_string, rest = None, rest[j + 3:]
    return out


def line_of(text: str, path: list) -> int | None:
    """The line (1-based) of the field ``path`` (keys and 0-based list positions, e.g.
    ``["steps", 1, "action", "kind"]``) in the TOML ``text``, or of its nearest enclosing part that
    can be found; None if nothing can."""
    lines = _code_lines(text)
    lo, hi = 0, len(lines)                      # the range of ``lines`` searched
    found: int | None = None
    table = ""
    i = 0
    while i < len(path):
        part = path[i]
        nxt = path[i + 1] if i + 1 < len(path) else None
        name = f"{table}.{part}" if table else str(part)
        if isinstance(part, str) and isinstance(nxt, int):      # an array of tables?
            heads = [j for j in range(lo, hi) if _header(lines[j][1]) == name]
            if heads:
                if nxt >= len(heads):
                    return found
                lo = heads[nxt]
                hi = next((j for j in range(lo + 1, hi) if (h := _header(lines[j][1])) is not None
                           and not h.startswith(name + ".")), hi)
                found, table = lines[lo][0], name
                i += 2
                continue
        if isinstance(part, str):
            head = next((j for j in range(lo, hi) if _header(lines[j][1]) == name), None)
            if head is not None:                 # a [table]
                lo = head
                hi = next((j for j in range(lo + 1, hi) if _header(lines[j][1]) is not None), hi)
                found, table = lines[lo][0], name
                i += 1
                continue
            key = re.compile(rf"(^|[{{,\s]){re.escape(part)}\s*=")
            start = lo + 1 if found is not None and lines[lo][0] == found and _header(lines[lo][1]) else lo
            hit = next((j for j in range(start, hi) if key.search(lines[j][1])
                        and (table or _header_before(lines, j) is None)), None)
            if hit is None:
                return found
            found, lo = lines[hit][0], hit
            i += 1
            continue
        # a position in an inline array (methods = [ {...}, {...} ]): its nth top-level "{"
        hit = _inline_entry(lines, lo, hi, part)
        if hit is None:
            return found
        found, lo = lines[hit][0], hit
        i += 1
    return found


def _inline_entry(lines, lo: int, hi: int, index: int) -> int | None:
    """The position in ``lines`` of entry ``index`` (0-based) of the inline array of tables that
    starts after the ``=`` on line ``lo``: the line of its opening ``{`` at the array's own depth."""
    count, depth, quote, started = -1, 0, None, False
    for j in range(lo, hi):
        line = lines[j][1]
        k = line.find("=") + 1 if j == lo else 0
        for ch in line[k:]:
            if quote:
                quote = None if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                break
            elif ch in "[{":
                if ch == "{" and depth == 1:
                    count += 1
                    if count == index:
                        return j
                depth += 1
                started = True
            elif ch in "]}":
                depth -= 1
                if started and depth == 0:
                    return None
    return None


def _header_before(lines, j) -> str | None:
    return next((h for _, line in reversed(lines[:j]) if (h := _header(line)) is not None), None)


# ------------------------------------------------------------------------ checking
class _Checker:
    def __init__(self, path: str, text: str):
        self.path, self.text = path, text

    def fail(self, where: list, problem: str):
        shown = "".join(f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if k else p)
                        for k, p in enumerate(where))
        raise LessonFileError(self.path, line_of(self.text, where), shown, problem)

    def table(self, value, where, allowed=None, required=()) -> dict:
        if not isinstance(value, dict):
            self.fail(where, f"expected a table, got {_kind(value)}")
        for name in required:
            if name not in value:
                self.fail(where, f"missing field {name!r}")
        if allowed is not None:
            unknown = sorted(set(value) - set(allowed))
            if unknown:
                self.fail(where + [unknown[0]], f"unknown field; allowed: {', '.join(sorted(allowed))}")
        return value

    def text_field(self, d: dict, name: str, where, default=None, empty=False) -> str:
        if name not in d:
            if default is None:
                self.fail(where, f"missing field {name!r}")
            return default
        v = d[name]
        if not isinstance(v, str):
            self.fail(where + [name], f"expected text, got {_kind(v)}")
        if not empty and not v.strip():
            self.fail(where + [name], "must not be empty")
        return v

    def choice(self, d: dict, name: str, where, choices, default=None) -> str:
        v = self.text_field(d, name, where, default)
        if v not in choices:
            self.fail(where + [name], f"expected one of {', '.join(choices)}; got {v!r}")
        return v

    def int_field(self, d: dict, name: str, where, default=None, low=0) -> int:
        if name not in d:
            if default is None:
                self.fail(where, f"missing field {name!r}")
            return default
        v = d[name]
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(where + [name], f"expected an integer, got {_kind(v)}")
        if v < low:
            self.fail(where + [name], f"expected an integer ≥ {low}, got {v}")
        return v

    def params(self, owner, name: str, values: dict, where, known: list[str]) -> None:
        """Check each of ``values`` against ``owner.spec(name)`` (a catalogue method or a corruption)."""
        for pname, v in values.items():
            try:
                spec = owner.spec(pname)
            except KeyError:
                self.fail(where + [pname], f"{name} has no parameter {pname!r}; its parameters: "
                          f"{', '.join(known) or 'none'}")
            self.param(spec, v, where + [pname])

    def param(self, spec: ParamSpec, value, where) -> Any:
        try:
            return spec.validate(value)
        except ParameterError as exc:
            self.fail(where, str(exc))

    # ------------------------------------------------------------------ parts
    def lesson(self, doc: dict) -> Lesson:
        self.table(doc, [], _TOP)
        key = self.text_field(doc, "key", [])
        if not _KEY.match(key):
            self.fail(["key"], f"expected lower-case letters, digits and '-', got {key!r}")
        title = self.text_field(doc, "title", [])
        concept = self.text_field(doc, "concept", [])
        teaches = self.text_field(doc, "teaches", [])
        paper = self.text_field(doc, "paper", [], default="", empty=True)
        seed = self.int_field(doc, "seed", [], default=0)
        raw = doc.get("steps")
        if not isinstance(raw, list) or not raw:
            self.fail(["steps"] if "steps" in doc else [], "expected at least one [[steps]] table")
        steps, methods = [], None
        assert isinstance(raw, list)            # self.fail raised otherwise
        for i, s in enumerate(raw):
            step, methods = self.step(s, ["steps", i], methods)
            steps.append(step)
        return Lesson(key=key, title=title, concept=concept, teaches=teaches, paper=paper, seed=seed,
                      steps=tuple(steps), path=self.path)

    def step(self, s, where, methods):
        self.table(s, where, _STEP)
        title = self.text_field(s, "title", where)
        text = self.text_field(s, "text", where)
        look = None
        if "look_at" in s:
            look = self.choice(s, "look_at", where, LOOK_AT)
        setup = None
        if "setup" in s:
            setup = self.setup(s["setup"], where + ["setup"])
            methods = setup
        elif methods is None:
            self.fail(where, "the first step needs a [steps.setup]")
        action = self.action(s.get("action", {"kind": "wait"}), where + ["action"])
        raw = s.get("claims", [])
        if not isinstance(raw, list):
            self.fail(where + ["claims"], f"expected [[steps.claims]] tables, got {_kind(raw)}")
        claims = tuple(self.claim(c, where + ["claims", j], methods) for j, c in enumerate(raw))
        return Step(title=title, text=text, setup=setup, action=action, look_at=look, claims=claims), methods

    def action(self, a, where) -> Action:
        self.table(a, where, {"kind", "n"}, required=("kind",))
        kind = self.choice(a, "kind", where, ACTIONS)
        if kind == "steps":
            n = self.int_field(a, "n", where, low=1)
        else:
            if "n" in a:
                self.fail(where + ["n"], f"only kind = \"steps\" takes n (kind is {kind!r})")
            n = 0
        return Action(kind, n)

    def setup(self, d, where) -> Setup:
        self.table(d, where, _SETUP, required=("task", "data", "methods"))
        task = self.choice(d, "task", where, TASKS)
        data = self.text_field(d, "data", where)
        kind, _, name = data.partition(":")
        if kind not in DATA_SOURCES[task]:
            self.fail(where + ["data"], f"the {task} task takes data "
                      f"{' or '.join(k + ':NAME' for k in DATA_SOURCES[task])}; got {data!r}")
        dparams = d.get("data_params", {})
        self.table(dparams, where + ["data_params"])
        self.data_params(kind, name, dparams, where + ["data_params"], where + ["data"])
        ckey = self.text_field(d, "corruption", where, default="none")
        cparams = d.get("corruption_params", {})
        self.table(cparams, where + ["corruption_params"])
        if ckey not in corruption.CORRUPTIONS:
            self.fail(where + ["corruption"], f"unknown corruption {ckey!r}; known: {', '.join(corruption.CORRUPTIONS)}")
        if kind in ("toy", "playground") and (ckey != "none" or cparams):
            self.fail(where + ["corruption"], f"{data} carries its own outliers: no corruption")
        if kind == "regression" and name == "synthetic" and ckey != "none":
            self.fail(where + ["corruption"], "the synthetic 3-D example has its own errors: no corruption")
        spec = corruption.CORRUPTIONS[ckey]
        if "seed" in cparams:
            self.fail(where + ["corruption_params", "seed"], "the lesson's top-level seed (or --seed) sets it")
        self.params(spec, ckey, cparams, where + ["corruption_params"],
                    [n for n in spec.defaults() if n != "seed"])
        try:
            spec.validate(**cparams)              # the entry's rules between values (size_min <= size_max)
        except ParameterError as exc:
            self.fail(where + ["corruption_params"], str(exc))
        raw = d["methods"]
        if not isinstance(raw, list) or not raw:
            self.fail(where + ["methods"], "expected a list of at least one { key = ..., params = { ... } }")
        methods = tuple(self.method(task, m, where + ["methods", j]) for j, m in enumerate(raw))
        return Setup(task=task, data=data, data_params=dict(dparams), corruption=ckey,
                     corruption_params=dict(cparams), methods=methods)

    def data_params(self, kind: str, name: str, params: dict, where, data_where) -> None:
        if "seed" in params:
            self.fail(where + ["seed"], "the lesson's top-level seed (or --seed) sets it")
        if kind == "builtin":
            if name not in datasets.BUILTIN:
                self.fail(data_where, f"unknown built-in data set {name!r}; known: {', '.join(datasets.BUILTIN)}")
            accepted = (set(inspect.signature(datasets.BUILTIN[name]).parameters) - {"dtype"})
            for pname, v in params.items():
                if pname not in accepted:
                    self.fail(where + [pname], f"builtin:{name} takes no option {pname!r}; its options: "
                              f"{', '.join(sorted(accepted))}")
                if pname == "size" and not (isinstance(v, list) and len(v) == 2
                                            and all(isinstance(x, int) and not isinstance(x, bool) and x > 0
                                                    for x in v)):
                    self.fail(where + [pname], f"expected [height, width] in pixels, got {v!r}")
            return
        if kind == "toy":
            if name not in toys.TOYS:
                self.fail(data_where, f"unknown toy {name!r}; known: {', '.join(toys.TOYS)}")
            specs = toys.TOYS[name].params
        elif kind == "regression":
            from ..session.choice import OPTION_SPECS, SOURCES as REG_SOURCES
            if name not in REG_SOURCES:
                self.fail(data_where, f"unknown regression data {name!r}; known: {', '.join(REG_SOURCES)}")
            specs = OPTION_SPECS[name]
        else:
            if name != "default":
                self.fail(data_where, f"the playground's data is 'playground:default', got {kind}:{name}")
            specs = _PLAYGROUND_DATA
        by_name = {s.name: s for s in specs if s.name != "seed"}
        for pname, v in params.items():
            if pname not in by_name:
                self.fail(where + [pname], f"{kind}:{name} has no option {pname!r}; its options: "
                          f"{', '.join(by_name) or 'none'}")
            self.param(by_name[pname], v, where + [pname])

    def method(self, task: str, m, where) -> tuple[str, dict]:
        self.table(m, where, {"key", "params"}, required=("key",))
        key = self.text_field(m, "key", where)
        params = m.get("params", {})
        self.table(params, where + ["params"])
        if task == "playground":
            offered = playground.methods()
            if key not in offered:
                self.fail(where + ["key"], f"unknown playground method {key!r}; known: {', '.join(offered)}")
            allowed = playground.tunable(key)
            for pname, v in params.items():
                if pname not in allowed:
                    self.fail(where + ["params", pname], f"the playground's {key} takes "
                              f"{'only p' if allowed else 'no parameters'}")
                self.param(allowed[pname], v, where + ["params", pname])
            return key, dict(params)
        try:
            info = catalogue.get(key)
        except KeyError:
            known = ", ".join(i.key for i in catalogue.methods(task))
            self.fail(where + ["key"], f"unknown {task} method {key!r}; known: {known}")
        if info.task != task:
            self.fail(where + ["key"], f"{key} is a {info.task} method, the setup's task is {task}")
        try:
            params = info.current(params)           # a lesson written before a rename still loads
        except ParameterError as exc:
            self.fail(where + ["params"], str(exc))
        self.params(info, info.name, params, where + ["params"], list(info.defaults()))
        return key, dict(params)

    def claim(self, c, where, setup: Setup) -> Claim:
        self.table(c, where, _CLAIM, required=("text", "check"))
        text = self.text_field(c, "text", where)
        check = self.text_field(c, "check", where)
        try:
            tree = expr.parse(check)
        except expr.CheckSyntaxError as exc:
            self.fail(where + ["check"], str(exc))
        for name, col in expr.references(tree):
            if name not in METRIC_SPECS:
                self.fail(where + ["check"], f"unknown metric {name!r}; known: {', '.join(METRIC_SPECS)}")
            if setup.task not in METRIC_SPECS[name].tasks:
                self.fail(where + ["check"], f"{name} is not measured on the {setup.task} task "
                          f"(it is on: {', '.join(METRIC_SPECS[name].tasks)})")
            if not 1 <= col <= len(setup.methods):
                self.fail(where + ["check"], f"{name}[{col}]: column {col} does not exist; the setup has "
                          f"{len(setup.methods)} column(s), numbered from 1")
        source = self.choice(c, "source", where, SOURCES, default="ours")
        expect = self.choice(c, "expect", where, EXPECTS, default="holds")
        reason = self.text_field(c, "reason", where, default="", empty=True)
        if expect == DOES_NOT_REPRODUCE:
            if source != "paper":
                self.fail(where + ["expect"], "only a paper's claim (source = \"paper\") can be declared "
                          "as not reproducing")
            if not reason.strip():
                self.fail(where + ["reason"] if "reason" in c else where,
                          "a claim that does not reproduce needs its one-line reason")
        elif reason.strip():
            self.fail(where + ["reason"], "only a claim with expect = \"does-not-reproduce\" takes a reason")
        return Claim(text=text, check=check, source=source, expect=expect, reason=reason, tree=tree)


def _kind(v) -> str:
    return {bool: "true/false", int: "an integer", float: "a number", str: "text", list: "a list",
            dict: "a table"}.get(type(v), type(v).__name__)


def loads(text: str, path: str | Path = "<lesson>") -> Lesson:
    """The :class:`Lesson` of the TOML ``text`` (``path`` names it in messages).
    Raises :class:`LessonFileError`."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise LessonFileError(path, int(m.group(1)) if m else None, "", f"not valid TOML: {problem}") from None
    return _Checker(str(path), text).lesson(doc)


def load(path: str | Path) -> Lesson:
    """Read and check the lesson file ``path`` (UTF-8 TOML). Raises :class:`LessonFileError`
    (the file named: unreadable, not UTF-8, not TOML, or a field wrong)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise LessonFileError(p, None, "", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise LessonFileError(p, None, "", f"cannot be read: {exc.strerror or exc}") from None
    return loads(text, p)
