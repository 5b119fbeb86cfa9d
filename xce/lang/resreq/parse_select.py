"""Recursive-descent parser for `select[]` expressions (see select)."""

from xce.lang import boolexpr

from .common import (
    BUILTIN_RESOURCES, MEMORY_RESOURCES, STRING_RESOURCES, ResReqError,
    canonical_name, convert_units,
)
from .select import (
    ORDERING, RELOPS, Arith, BoolOp, Cmp, Defined, Neg, Not, Num, Ref, Str,
    _Sized, tokenize,
)


def parse_expression(text, unit="KB", known=None, strings=()):
    """Parse a select expression into a syntax tree.

    `unit` is LSF_UNIT_FOR_LIMITS (suffixed mem/swp/tmp values are converted
    into it); `known`, when given, is the set of configured resource names
    (built-ins are always known); `strings` names site string resources.
    """
    parser = _Parser(tokenize(text), frozenset(strings) | STRING_RESOURCES,
                     unit)
    tree = parser.parse()
    _check_no_sized(tree)
    if known is not None:
        _check_known(tree, frozenset(known) | BUILTIN_RESOURCES)
    return tree


class _Parser(boolexpr.Parser):
    Not = Not
    BoolOp = BoolOp

    def __init__(self, tokens, strings, unit):
        super().__init__(tokens)
        self.strings = strings
        self.unit = unit

    def error(self):
        return ResReqError()

    # ------------------------------------------------------------ grammar
    def parse_operand(self):
        return self.parse_cmp()

    def parse_cmp(self):
        left = self.parse_sum()
        if not self.at_op(*RELOPS):
            return _as_condition(left)
        op = self.take()[1]
        right = self.parse_sum()
        if self.at_op(*RELOPS):
            raise ResReqError()  # a < b < c means nothing in LSF
        return self._comparison(op, left, right)

    def parse_sum(self):
        return self._chain(("+", "-"), self.parse_prod)

    def parse_prod(self):
        return self._chain(("*", "/"), self.parse_unary)

    def _chain(self, ops, operand):
        """Left-associative a op b op c; each link deepens the tree, so it
        counts against the depth limit like a parenthesis would."""
        node = operand()
        links = 0
        while self.at_op(*ops):
            op = self.take()[1]
            links += 1
            if self.depth + links > boolexpr.MAX_DEPTH:
                raise ResReqError()
            node = Arith(op, node, operand())
        return node

    def parse_unary(self):
        if self.at_op("-"):
            self.take()
            operand = self.nested(self.parse_unary)
            if isinstance(operand, Num):
                return Num(-operand.value)
            return Neg(operand)
        return self.parse_atom()

    def parse_atom(self):
        kind, value = self.take()
        if kind == "num":
            number, suffix = value
            return _Sized(number, suffix) if suffix else Num(number)
        if kind == "str":
            return Str(value, quoted=True)
        if kind == "word":
            return self._word(value)
        if (kind, value) == ("op", "("):
            return self.parse_group()
        raise ResReqError()

    def _word(self, word):
        if word == "defined" and self.at_op("("):
            self.take()
            kind, name = self.take()
            if kind != "word":
                raise ResReqError()
            self.expect(")")
            return Defined(canonical_name(name))
        return Ref(canonical_name(word))

    # ----------------------------------------------------------- semantics
    def _comparison(self, op, left, right):
        left, right = self._strings_in_context(left, right)
        left, right = self._sizes_in_context(left, right)
        if op in ORDERING and (self._is_text(left) or self._is_text(right)):
            raise ResReqError()  # strings compare with == and != only
        return Cmp(op, left, right)

    def _strings_in_context(self, left, right):
        # `type == X86_64`: the bare word beside a string resource is a value.
        if self._is_string_ref(left) and isinstance(right, Ref):
            right = Str(_raw_word(right), quoted=False)
        elif self._is_string_ref(right) and isinstance(left, Ref):
            left = Str(_raw_word(left), quoted=False)
        return left, right

    def _sizes_in_context(self, left, right):
        if isinstance(right, _Sized) and _is_memory_ref(left):
            right = Num(convert_units(right.value, right.unit, self.unit))
        if isinstance(left, _Sized) and _is_memory_ref(right):
            left = Num(convert_units(left.value, left.unit, self.unit))
        return left, right

    def _is_string_ref(self, node):
        return isinstance(node, Ref) and node.name in self.strings

    def _is_text(self, node):
        return isinstance(node, Str) or self._is_string_ref(node)


def _raw_word(ref):
    # Aliases apply to resource names, not to string values ("swap" host).
    return "swap" if ref.name == "swp" else ref.name


def _is_memory_ref(node):
    return isinstance(node, Ref) and node.name in MEMORY_RESOURCES


def _as_condition(node):
    if isinstance(node, (Str, _Sized)):
        raise ResReqError()  # a lone 'string' or 4GB is not a condition
    return node


def _walk(node):
    yield node
    for child in ("operand", "left", "right"):
        if hasattr(node, child):
            yield from _walk(getattr(node, child))
    for item in getattr(node, "items", ()):
        yield from _walk(item)


def _check_no_sized(tree):
    if any(isinstance(n, _Sized) for n in _walk(tree)):
        raise ResReqError()  # units belong to mem/swp/tmp comparisons only


def _check_known(tree, known):
    for node in _walk(tree):
        if isinstance(node, (Ref, Defined)) and node.name not in known:
            raise ResReqError("%s: Bad resource name" % node.name, "resource")


def referenced_names(tree):
    """Resource names a select expression reads (for defaults and reasons)."""
    return frozenset(n.name for n in _walk(tree) if isinstance(n, (Ref, Defined)))
