"""Compile a select syntax tree into a fast host predicate.

The scheduler asks "does host H satisfy this job?" for every candidate host
of every pending job, so the tree is turned once into nested closures rather
than walked per host.  A resource the host does not report is MISSING: any
comparison or arithmetic that touches it is false, a bare reference to it is
false, and `defined(name)` is the way to ask about presence.
"""

import operator

from .select import Arith, BoolOp, Cmp, Defined, Neg, Not, Num, Ref, Str

MISSING = object()

_COMPARE = {
    "==": operator.eq, "!=": operator.ne, ">": operator.gt,
    ">=": operator.ge, "<": operator.lt, "<=": operator.le,
}
_ARITH = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "/": operator.truediv,
}
# Host-type words that are not literal type names.
_WILDCARD_RESOURCES = {"type": ("any", "local"), "model": ("any",)}


def compile_predicate(tree):
    """Return `test(host, local_type) -> bool` for a select syntax tree."""
    return _test(tree)


def _is_number(value):
    return isinstance(value, (int, float))


def _value(node):
    """Closure computing a node's value (number, string, bool or MISSING)."""
    if isinstance(node, Num):
        constant = node.value
        return lambda host, local: constant
    if isinstance(node, Str):
        text = node.value
        return lambda host, local: text
    if isinstance(node, Ref):
        name = node.name
        return lambda host, local: host.get(name, MISSING)
    if isinstance(node, Neg):
        inner = _value(node.operand)
        return lambda host, local: _negate(inner(host, local))
    if isinstance(node, Arith):
        return _arith(node)
    test = _test(node)
    return test  # conditions used as values count as 0/1


def _negate(value):
    return -value if _is_number(value) else MISSING


def _arith(node):
    func = _ARITH[node.op]
    left, right = _value(node.left), _value(node.right)

    def compute(host, local):
        a, b = left(host, local), right(host, local)
        if not (_is_number(a) and _is_number(b)):
            return MISSING
        try:
            return func(a, b)
        except ZeroDivisionError:
            return MISSING
    return compute


def _test(node):
    """Closure computing a node's truth on one host."""
    if isinstance(node, BoolOp):
        items = [_test(i) for i in node.items]
        if node.op == "&&":
            return lambda host, local: all(t(host, local) for t in items)
        return lambda host, local: any(t(host, local) for t in items)
    if isinstance(node, Not):
        inner = _test(node.operand)
        return lambda host, local: not inner(host, local)
    if isinstance(node, Defined):
        name = node.name
        return lambda host, local: name in host
    if isinstance(node, Cmp):
        return _special_type_test(node) or _compare(node)
    value = _value(node)
    return lambda host, local: _truth(value(host, local))


def _truth(value):
    if value is MISSING:
        return False
    return bool(value)


def _compare(node):
    func = _COMPARE[node.op]
    left, right = _value(node.left), _value(node.right)
    left_word = node.left.name if isinstance(node.left, Ref) else None
    right_word = node.right.name if isinstance(node.right, Ref) else None

    def compare(host, local):
        a, b = left(host, local), right(host, local)
        # `os == rhel8` with `os` a string resource nobody declared to the
        # parser: the bare word the host does not define is the value.
        if isinstance(a, str) and b is MISSING and right_word:
            b = right_word
        elif isinstance(b, str) and a is MISSING and left_word:
            a = left_word
        if a is MISSING or b is MISSING:
            return False
        if _is_number(a) != _is_number(b):
            return False  # a string never equals (or differs from) a number
        return func(a, b)
    return compare


def _special_type_test(node):
    """`type == any`, `type == local`, `model == any`; None if not one."""
    if node.op not in ("==", "!="):
        return None
    ref, word = node.left, node.right
    if isinstance(ref, Str):
        ref, word = word, ref
    if not (isinstance(ref, Ref) and isinstance(word, Str)):
        return None
    if word.value not in _WILDCARD_RESOURCES.get(ref.name, ()):
        return None
    equal = node.op == "=="
    name = ref.name
    if word.value == "any":
        return lambda host, local: equal
    return lambda host, local: _local_type(host, local, name) == equal


def _local_type(host, local, name):
    # No submission host type given: nothing to restrict against.
    if local is None:
        return True
    return host.get(name, MISSING) == local
