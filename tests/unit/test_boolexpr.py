"""The boolean core shared by select[] and -w (xce.lang.boolexpr), driven
by a toy language whose operands are words."""

import re
from collections import namedtuple

import pytest

from xce.lang import boolexpr

_TOKEN = re.compile(r"(?P<ws>\s+)|(?P<op>&&|\|\||[!()])|(?P<word>\w+)")


class Word(namedtuple("Word", "name")):
    prec = 4    # binds tighter than !, && and ||

    def __str__(self):
        return self.name


class Bad(ValueError):
    pass


class _Toy(boolexpr.Parser):
    def error(self):
        return Bad()

    def parse_operand(self):
        kind, value = self.take()
        if (kind, value) == ("op", "("):
            return self.parse_group()
        if kind != "word":
            raise self.error()
        return Word(value)


def parse(text):
    matches = boolexpr.scan(_TOKEN, text)
    if matches is None:
        raise Bad()
    tokens = [(m.lastgroup, m.group()) for m in matches if m.lastgroup != "ws"]
    return _Toy(tokens).parse()


@pytest.mark.parametrize("text, printed", [
    ("a", "a"),
    ("a && b || c", "(a && b) || c"),          # && binds tighter
    ("a || b && c", "a || (b && c)"),
    ("a && (b && c) && d", "a && b && c && d"),  # one flat node
    ("!a && !!b", "!a && !!b"),
    ("!(a || b)", "!(a || b)"),
    ("((a))", "a"),
])
def test_precedence_flattening_and_printing(text, printed):
    tree = parse(text)
    assert str(tree) == printed
    assert parse(printed) == tree


def test_one_node_per_run_of_the_same_operator():
    tree = parse("a && b && c")
    assert tree == boolexpr.BoolOp("&&", (Word("a"), Word("b"), Word("c")))
    assert boolexpr.join("&&", [tree, Word("d")]).items[-1] == Word("d")
    assert boolexpr.join("||", [Word("x")]) == Word("x")


@pytest.mark.parametrize("text", [
    "", "a &&", "&& a", "(a", "a)", "a b", "!", "a $ b",
    "(" * (boolexpr.MAX_DEPTH + 1) + "a" + ")" * (boolexpr.MAX_DEPTH + 1),
    "!" * (boolexpr.MAX_DEPTH + 1) + "a",
])
def test_malformed_text_is_the_language_error(text):
    with pytest.raises(Bad):
        parse(text)


def test_nesting_up_to_the_limit_parses():
    depth = boolexpr.MAX_DEPTH
    assert parse("(" * depth + "a" + ")" * depth) == Word("a")
