"""Which part of a select[] expression a host fails, and what it has.

Used only when a user asks why a job pends (xce explain), never on the
scheduling path: it compiles the parts of the expression as it goes.
"""

from xce.lang.resreq.eval import compile_predicate
from xce.lang.resreq.parse_select import referenced_names
from xce.lang.resreq.select import BoolOp


def unmet(expr, resources, local_type=None):
    """The smallest failing parts of EXPR on a host with RESOURCES.

    A list of {"what": resource, "had": host value or None, "wanted": the
    failing term}; empty when the host satisfies the expression.  An `and`
    is opened up (only its false members fail); anything else -- an `or`,
    a negation, a comparison -- is one term, reported as a whole."""
    if compile_predicate(expr)(resources, local_type):
        return []
    if isinstance(expr, BoolOp) and expr.op == "&&":
        out = []
        for item in expr.items:
            out += unmet(item, resources, local_type)
        return out
    term = str(expr)
    names = sorted(referenced_names(expr)) or [term]
    return [{"what": name, "had": _plain(resources.get(name)),
             "wanted": term} for name in names]


def _plain(value):
    """A host value as JSON carries it (numbers, strings, booleans)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
