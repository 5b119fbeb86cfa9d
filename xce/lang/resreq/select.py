"""The `select[]` expression of a resource requirement: tokens and syntax tree.

Grammar (C precedence, lowest first):

    or    := and (("||" | "or") and)*
    and   := not (("&&" | "and") not)*
    not   := ("!" | "not") not | cmp
    cmp   := sum [relop sum]            relop: > >= < <= == != =
    sum   := prod (("+" | "-") prod)*
    prod  := unary (("*" | "/") unary)*
    unary := "-" unary | atom
    atom  := NUMBER[unit] | WORD | 'string' | "string"
           | defined(WORD) | "(" or ")"

A bare WORD is a resource, except where it is compared with a string
resource (`type == X86_64`): there it is the string value itself, which is
how LSF reads it.  Evaluation lives in eval.
"""

import re
from dataclasses import dataclass, field

from xce.lang import boolexpr
from xce.lang.boolexpr import wrap

from .common import ResReqError, format_number

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?P<unit>[A-Za-z]+)?)
  | (?P<str>'[^']*'|"[^"]*")
  | (?P<word>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<op>&&|\|\||==|!=|>=|<=|[><=!()+\-*/])
""", re.VERBOSE | re.ASCII)

_WORD_OPS = {"and": "&&", "or": "||", "not": "!"}
RELOPS = ("==", "!=", ">=", "<=", ">", "<")
ORDERING = (">=", "<=", ">", "<")
_BARE_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


# ---------------------------------------------------------------- syntax tree
@dataclass(frozen=True)
class Num:
    value: float
    prec = 8

    def __str__(self):
        return format_number(self.value)


@dataclass(frozen=True)
class Str:
    value: str
    # How it was written only decides how it is printed back.
    quoted: bool = field(default=True, compare=False)
    prec = 8

    def __str__(self):
        if not self.quoted and _BARE_OK.match(self.value):
            return self.value
        quote = "'" if "'" not in self.value else '"'
        return quote + self.value + quote


@dataclass(frozen=True)
class Ref:
    name: str
    prec = 8

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class Defined:
    name: str
    prec = 8

    def __str__(self):
        return "defined(%s)" % self.name


@dataclass(frozen=True)
class Neg:
    operand: object
    prec = 7

    def __str__(self):
        return "-" + wrap(self.operand, self.operand.prec < self.prec)


@dataclass(frozen=True)
class Arith:
    op: str
    left: object
    right: object

    @property
    def prec(self):
        return 6 if self.op in "*/" else 5

    def __str__(self):
        left = wrap(self.left, self.left.prec < self.prec)
        right = wrap(self.right, self.right.prec <= self.prec)
        return "%s %s %s" % (left, self.op, right)


@dataclass(frozen=True)
class Cmp:
    op: str
    left: object
    right: object
    prec = 4

    def __str__(self):
        left = wrap(self.left, self.left.prec <= self.prec)
        right = wrap(self.right, self.right.prec <= self.prec)
        return "%s %s %s" % (left, self.op, right)


class Not(boolexpr.Not):
    def bare(self, operand):
        return isinstance(operand, (Ref, Defined, Not))


class BoolOp(boolexpr.BoolOp):
    def bare(self, item):
        return isinstance(item, (Ref, Defined, Not, Num))


@dataclass(frozen=True)
class _Sized:
    """A number with a unit suffix, before it is known to be a memory size."""
    value: float
    unit: str
    prec = 8


# -------------------------------------------------------------------- tokens
def tokenize(text):
    """Split a select expression into (kind, value) pairs."""
    matches = boolexpr.scan(_TOKEN, text)
    if matches is None:
        raise ResReqError()
    tokens = [_token("num" if m.lastgroup == "unit" else m.lastgroup, m)
              for m in matches]
    return [t for t in tokens if t[0] != "ws"]


def _token(kind, match):
    if kind == "num":
        number = match.group("num")
        unit = match.group("unit")
        digits = number[:len(number) - len(unit)] if unit else number
        value = float(digits) if "." in digits else int(digits)
        return ("num", (value, unit))
    if kind == "str":
        return ("str", match.group("str")[1:-1])
    if kind == "word" and match.group("word") in _WORD_OPS:
        return ("op", _WORD_OPS[match.group("word")])
    if kind == "op" and match.group("op") == "=":
        return ("op", "==")  # LSF takes `=` as `==` in select
    return (kind, match.group(kind))
