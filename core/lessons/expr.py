"""The claim check language: a tiny parser, no ``eval``.

A check is one boolean expression over measured numbers::

    eq14_error[2] < 0.95 * eq14_error[1] and weights_auc[2] >= 0.9

Grammar (``metric[column]`` with a 1-based column number; numbers in decimal or exponent form)::

    expr    := and ("or" and)*
    and     := cmp ("and" cmp)*
    cmp     := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?  |  "(" expr ")"
    sum     := term (("+" | "-") term)*
    term    := unary (("*" | "/") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | NAME "[" INTEGER "]" | "(" sum ")"

:func:`parse` turns the text into a tree of tuples (never Python code); :func:`evaluate_tree`
computes it with a function that gives each ``metric[column]``'s value. A value that is missing
(``None``) or not finite makes every comparison it enters false (a claim on a number the method
does not have does not hold). Every error is a :class:`CheckSyntaxError` naming the position.
"""
from __future__ import annotations

import math
import re
from typing import Callable, Iterator

__all__ = ["CheckSyntaxError", "parse", "references", "evaluate_tree", "render"]

#: the longest check text accepted (a check is one line; this also bounds the parser's recursion)
MAX_LENGTH = 400

_TOKEN = re.compile(r"""\s*(?:
    (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?) |
    (?P<name>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op><=|>=|==|!=|[<>()\[\]*/+-])
)""", re.VERBOSE)

_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


class CheckSyntaxError(ValueError):
    """A check expression that does not parse; the message names the position and what was expected."""


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise CheckSyntaxError(f"unexpected character {text[col]!r} at position {col + 1}")
        kind = m.lastgroup
        assert kind is not None               # every alternative of _TOKEN is a named group
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    out.append(("end", "", len(text)))
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0

    # ------------------------------------------------------------------ helpers
    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, value: str, what: str) -> None:
        kind, val, pos = self.take()
        if val != value or kind == "end":
            raise CheckSyntaxError(f"expected {what} at position {pos + 1}, got {val or 'the end'!r}")

    def fail(self, what: str):
        _, val, pos = self.peek()
        raise CheckSyntaxError(f"expected {what} at position {pos + 1}, got {val or 'the end'!r}")

    # ------------------------------------------------------------------ grammar
    def boolean(self):
        node = self.conj()
        while self.peek()[:2] == ("name", "or"):
            self.take()
            node = ("or", node, self.conj())
        return node

    def conj(self):
        node = self.comparison()
        while self.peek()[:2] == ("name", "and"):
            self.take()
            node = ("and", node, self.comparison())
        return node

    def comparison(self):
        if self.peek()[1] == "(" and self._parenthesised_boolean():
            self.take()
            node = self.boolean()
            self.expect(")", "')'")
            return node
        left = self.sum()
        kind, val, _ = self.peek()
        if kind != "op" or val not in _COMPARE:
            self.fail("a comparison (< <= > >= == !=)")
        self.take()
        return ("cmp", val, left, self.sum())

    def _parenthesised_boolean(self) -> bool:
        """The '(' at the cursor opens a boolean group (it holds a comparison, 'and' or 'or' at
        its own depth) rather than an arithmetic one."""
        depth = 0
        for kind, val, _ in self.toks[self.i:]:
            if val == "(":
                depth += 1
            elif val == ")":
                depth -= 1
                if depth == 0:
                    return False
            elif depth == 1 and ((kind == "op" and val in _COMPARE) or (kind == "name" and val in ("and", "or"))):
                return True
        return False

    def sum(self):
        node = self.term()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            node = ("arith", op, node, self.term())
        return node

    def term(self):
        node = self.unary()
        while self.peek()[1] in ("*", "/") and self.peek()[0] == "op":
            op = self.take()[1]
            node = ("arith", op, node, self.unary())
        return node

    def unary(self):
        if self.peek()[:2] == ("op", "-"):
            self.take()
            return ("neg", self.unary())
        return self.atom()

    def atom(self):
        kind, val, pos = self.peek()
        if kind == "num":
            self.take()
            return ("num", float(val))
        if kind == "name" and val not in ("and", "or"):
            self.take()
            self.expect("[", f"'[' and a column number after {val!r}")
            ckind, cval, cpos = self.take()
            if ckind != "num" or not cval.isdigit():
                raise CheckSyntaxError(f"expected a column number (1, 2, ...) at position {cpos + 1}, got {cval!r}")
            self.expect("]", "']'")
            return ("metric", val, int(cval))
        if val == "(" and kind == "op":
            self.take()
            node = self.sum()
            self.expect(")", "')'")
            return node
        self.fail("a number, metric[column] or '('")


def parse(text: str):
    """The tree of the check ``text``: tuples ``("or"|"and", a, b)``, ``("cmp", op, a, b)``,
    ``("arith", op, a, b)``, ``("neg", a)``, ``("num", x)``, ``("metric", name, column)``.

    Raises :class:`CheckSyntaxError` (position named) for anything else, including text longer
    than :data:`MAX_LENGTH` characters, a bare number or metric with no comparison, and any
    Python syntax beyond the grammar (calls, attributes, strings, ``__import__``...)."""
    if not isinstance(text, str):
        raise CheckSyntaxError(f"a check must be text, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise CheckSyntaxError(f"a check has at most {MAX_LENGTH} characters, got {len(text)}")
    if not text.strip():
        raise CheckSyntaxError("the check is empty")
    p = _Parser(text)
    tree = p.boolean()
    if p.peek()[0] != "end":
        p.fail("the end of the check, 'and' or 'or'")
    return tree


def references(tree) -> Iterator[tuple[str, int]]:
    """Every ``(metric, column)`` the tree reads, in order of appearance."""
    tag = tree[0]
    if tag == "metric":
        yield tree[1], tree[2]
    elif tag in ("or", "and"):
        yield from references(tree[1])
        yield from references(tree[2])
    elif tag in ("cmp", "arith"):
        yield from references(tree[2])
        yield from references(tree[3])
    elif tag == "neg":
        yield from references(tree[1])


def _value(tree, get: Callable[[str, int], float | None]) -> float:
    tag = tree[0]
    if tag == "num":
        return tree[1]
    if tag == "metric":
        v = get(tree[1], tree[2])
        return math.nan if v is None else float(v)
    if tag == "neg":
        return -_value(tree[1], get)
    a, b = _value(tree[2], get), _value(tree[3], get)
    op = tree[1]
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return a / b if b != 0 else math.nan


def evaluate_tree(tree, get: Callable[[str, int], float | None]) -> bool:
    """True when the check holds with the values ``get(metric, column)`` gives. A comparison with
    a missing or non-finite side is false (so is a division by zero)."""
    tag = tree[0]
    if tag == "or":
        return evaluate_tree(tree[1], get) or evaluate_tree(tree[2], get)
    if tag == "and":
        return evaluate_tree(tree[1], get) and evaluate_tree(tree[2], get)
    a, b = _value(tree[2], get), _value(tree[3], get)
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[tree[1]]


def number(value: float | None) -> str:
    """A measured number as the claim lines print it (4 significant digits; "n/a" for missing)."""
    if value is None or not math.isfinite(value):
        return "n/a"
    if value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.3g}"
    return f"{value:.4g}"


def render(tree, get: Callable[[str, int], float | None], top: bool = True) -> str:
    """The check with every ``metric[column]`` replaced by its value: ``"795.6 < 874.9"``."""
    tag = tree[0]
    if tag == "num":
        return f"{tree[1]:g}"
    if tag == "metric":
        return number(get(tree[1], tree[2]))
    if tag == "neg":
        return "−" + render(tree[1], get, False)
    if tag in ("or", "and"):          # a chain of the same operator needs no parentheses
        text = f"{render(tree[1], get, tree[1][0] == tag)} {tag} {render(tree[2], get, tree[2][0] == tag)}"
        return text if top else f"({text})"
    if tag == "cmp":
        return f"{render(tree[2], get)} {tree[1]} {render(tree[3], get)}"
    op = {"*": "×", "/": "/", "+": "+", "-": "−"}[tree[1]]
    text = f"{render(tree[2], get, False)} {op} {render(tree[3], get, False)}"
    return text if top else f"({text})"
