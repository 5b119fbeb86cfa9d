"""The boolean layer that select[] expressions and -w dependency
expressions share: `!`, `&&`, `||` and parentheses, with C precedence.

    or   := and ("||" and)*
    and  := not ("&&" not)*
    not  := "!" not | operand          (the operand is the language's own)

scan() cuts a text into tokens with the language's pattern.  A language
subclasses Parser (its tokens, its error, its operand) and Not
and BoolOp (how much of its own syntax prints without parentheses).
`a && b && c` is one BoolOp of three items, so the text printed back is
flat and the tree is shallow.
"""

from dataclasses import dataclass
from typing import Tuple

MAX_DEPTH = 40  # deep enough for people, shallow enough for the C stack


def scan(pattern, text):
    """The matches of the token *pattern* (a compiled regular expression
    with one named group per kind) that cover *text* end to end, or None
    when some character starts no token."""
    matches, pos = [], 0
    while pos < len(text):
        match = pattern.match(text, pos)
        if match is None:
            return None
        matches.append(match)
        pos = match.end()
    return matches


def wrap(node, paren):
    return "(%s)" % node if paren else str(node)


@dataclass(frozen=True)
class Not:
    operand: object
    prec = 3

    def __str__(self):
        return "!" + wrap(self.operand, not self.bare(self.operand))

    def bare(self, operand):
        """May `operand` follow `!` without parentheses?"""
        return operand.prec >= self.prec


@dataclass(frozen=True)
class BoolOp:
    op: str  # "&&" or "||"
    items: Tuple[object, ...]

    @property
    def prec(self):
        return 2 if self.op == "&&" else 1

    def __str__(self):
        parts = [wrap(i, not self.bare(i)) for i in self.items]
        return (" %s " % self.op).join(parts)

    def bare(self, item):
        """May `item` stand between `&&`/`||` without parentheses?  By
        default only a nested && / || is bracketed, so precedence never
        has to be remembered by the reader."""
        return not isinstance(item, BoolOp)


def join(op, items, node=BoolOp):
    """`items` joined by `op` into one `node`, nested ones of the same op
    flattened; a single item stands alone."""
    if len(items) == 1:
        return items[0]
    flat = []
    for item in items:
        same = isinstance(item, BoolOp) and item.op == op
        flat.extend(item.items if same else [item])
    return node(op, tuple(flat))


class Parser:
    """Recursive descent over (kind, value) tokens; ("op", "!"),
    ("op", "&&"), ("op", "||"), ("op", "(") and ("op", ")") are the
    boolean layer's.  Subclasses set Not and BoolOp, and define error()
    and parse_operand()."""
    Not = Not
    BoolOp = BoolOp

    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def error(self):
        raise NotImplementedError

    def parse_operand(self):
        raise NotImplementedError

    def peek(self):
        if self.pos < len(self.tokens):
            return self.tokens[self.pos]
        return ("end", None)

    def take(self):
        token = self.peek()
        if token[0] == "end":
            raise self.error()
        self.pos += 1
        return token

    def expect(self, value):
        if self.take() != ("op", value):
            raise self.error()

    def at_op(self, *values):
        kind, value = self.peek()
        return kind == "op" and value in values

    def parse(self):
        """The whole token list as one expression."""
        if not self.tokens:
            raise self.error()
        tree = self.parse_bool("||")
        if self.peek()[0] != "end":
            raise self.error()
        return tree

    def parse_bool(self, op):
        sub = (lambda: self.parse_bool("&&")) if op == "||" else self.parse_not
        items = [sub()]
        while self.at_op(op):
            self.take()
            items.append(sub())
        return join(op, items, self.BoolOp)

    def parse_not(self):
        if self.at_op("!"):
            self.take()
            return self.Not(self.nested(self.parse_not))
        return self.parse_operand()

    def parse_group(self):
        """`( expression )`, the opening parenthesis already taken."""
        node = self.nested(lambda: self.parse_bool("||"))
        self.expect(")")
        return node

    def nested(self, parse):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error()
        try:
            return parse()
        finally:
            self.depth -= 1
