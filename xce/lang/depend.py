"""Job dependency expressions (`bsub -w`), reference section 1.4.

    ast = parse('done(123) && ended("nightly*") || exit(build, >= 2)')
    str(ast)                 -> canonical text (bare refs become done(...))
    evaluate(ast, lookup)    -> True | False | NEVER
    check_references(ast, lookup)   # submit-time "No matching job found"

Job references: an unquoted number is a job ID (`123`, element `123[2]`);
a quoted string or a non-numeric word is a job name (`"210"` is the job
*named* 210; names starting with a digit must be quoted).  `*` in a name is
a wildcard; `name[*]` asks for one-to-one element dependencies.

Pure: `lookup(ref)` is supplied by the caller and returns the facts of the
jobs a reference names (several for a shared name or a wildcard).
"""

import re
from dataclasses import dataclass
from typing import Optional, Union

from xce.lang import boolexpr
from xce.lang.boolexpr import Not

CONDITIONS = ("done", "ended", "exit", "started", "post_done", "post_err")
UNSUPPORTED = ("external", "numrun", "numdone", "numexit", "numended",
               "numpend", "numhold", "numstart")
EXIT_OPS = (">=", "<=", "==", "!=", ">", "<")

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<op>&&|\|\||>=|<=|==|!=|[!(),<>])
  | (?P<str>"[^"]*")
  | (?P<word>[^\s()"',&|!<>=]+)
""", re.VERBOSE)
_INDEX = re.compile(r"(.*)\[(\*|[1-9]\d{0,8})\]\Z", re.DOTALL | re.ASCII)
# Unquoted names may not look like numbers: no leading digit or sign.
_BARE_NAME = re.compile(r"[A-Za-z_*/.@%^~:][^\s()\"',&|!<>=\[\]]*\Z")


def one_line(text):
    """TEXT as an error message quotes it: line breaks (which the syntax
    takes as blanks) become blanks, so the message stays one line."""
    return " ".join(text.splitlines())


class DependError(ValueError):
    """A `-w` expression xce rejects; `message` is what bsub prints."""

    def __init__(self, message, kind="syntax"):
        super().__init__(message)
        self.message = message
        self.kind = kind


class _Never:
    """The condition can never become true (e.g. done(X) after X EXITed)."""
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self):
        return False

    def __repr__(self):
        return "NEVER"


NEVER = _Never()


# ---------------------------------------------------------------- syntax tree
@dataclass(frozen=True)
class JobRef:
    """A job ID or a job name, optionally with an array index or `[*]`."""
    job_id: Optional[int] = None
    name: Optional[str] = None
    index: Union[int, str, None] = None  # element number, or "*"

    def __str__(self):
        base = str(self.job_id) if self.job_id is not None else \
            _format_name(self.name)
        if self.index is None:
            return base
        if base.startswith('"'):
            return '"%s[%s]"' % (self.name, self.index)
        return "%s[%s]" % (base, self.index)

    @property
    def is_pattern(self):
        return self.name is not None and "*" in self.name

    def matches_name(self, job_name):
        """Does a job called `job_name` answer to this (wildcard) name?"""
        if self.name is None:
            return False
        pattern = ".*".join(re.escape(p) for p in self.name.split("*"))
        return re.fullmatch(pattern, job_name, re.DOTALL) is not None


def _format_name(name):
    return name if _BARE_NAME.match(name) else '"%s"' % name


@dataclass(frozen=True)
class Condition:
    kind: str  # one of CONDITIONS
    ref: JobRef
    op: Optional[str] = None  # exit() code test
    code: Optional[int] = None
    prec = 4

    def __str__(self):
        if self.code is None:
            return "%s(%s)" % (self.kind, self.ref)
        test = self.code if self.op == "==" else "%s%d" % (self.op, self.code)
        return "%s(%s,%s)" % (self.kind, self.ref, test)


# -------------------------------------------------------------------- parser
def parse(text):
    """Parse a `-w` expression; DependError with LSF's text if malformed."""
    if not isinstance(text, str):
        raise TypeError("dependency expression must be a string")
    parser = _Parser(text)
    return parser.parse()


def _tokenize(text):
    matches = boolexpr.scan(_TOKEN, text)
    if matches is None:
        return None
    return [(m.lastgroup, m.group(m.lastgroup)) for m in matches
            if m.lastgroup != "ws"]


class _Parser(boolexpr.Parser):
    def __init__(self, text):
        super().__init__(_tokenize(text))
        self.text = text

    def error(self):
        return DependError("%s: Dependency condition syntax error"
                           % one_line(self.text))

    def parse_operand(self):
        kind, value = self.take()
        if (kind, value) == ("op", "("):
            return self.parse_group()
        if kind == "word" and self.at_op("("):
            return self.parse_call(value)
        if kind in ("word", "str"):
            return Condition("done", self.job_ref(kind, value))
        raise self.error()

    def parse_call(self, func):
        if func in UNSUPPORTED:
            raise DependError("%s: Dependency condition %s() is not "
                              "supported by xce" % (one_line(self.text), func),
                              "unsupported")
        if func not in CONDITIONS:
            raise self.error()
        self.expect("(")
        ref = self.job_ref(*self.take())
        op = code = None
        if func == "exit" and self.peek() == ("op", ","):
            self.take()
            op, code = self.exit_test()
        self.expect(")")
        return Condition(func, ref, op, code)

    def exit_test(self):
        op = "=="
        if self.peek()[0] == "op" and self.peek()[1] in EXIT_OPS:
            op = self.take()[1]
        kind, value = self.take()
        if kind != "word" or not re.fullmatch(r"\d{1,9}", value, re.ASCII):
            raise self.error()
        return op, int(value)

    def job_ref(self, kind, value):
        if kind == "str":
            return self.quoted_ref(value[1:-1])
        if kind != "word":
            raise self.error()
        match = _INDEX.match(value)
        base, index = (match.group(1), match.group(2)) if match else (value,
                                                                      None)
        index = _index_value(index)
        if re.fullmatch(r"\d+", base, re.ASCII):
            if int(base) == 0 or len(base) > 18:
                raise self.error()
            return JobRef(job_id=int(base), index=index)
        if not _BARE_NAME.match(base):
            raise self.error()  # digits first: quote it; brackets: bad form
        return JobRef(name=base, index=index)

    def quoted_ref(self, text):
        match = _INDEX.match(text)
        name, index = (match.group(1), match.group(2)) if match else (text,
                                                                      None)
        if not name.strip() or "[" in name or "]" in name:
            raise self.error()
        return JobRef(name=name, index=_index_value(index))


def _index_value(index):
    if index is None or index == "*":
        return index
    return int(index)


# ---------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class JobFacts:
    """What a dependency needs to know about one job.

    state: LSF STAT (PEND, PSUSP, RUN, SSUSP, USUSP, DONE, EXIT, UNKWN,
    ZOMBI, WAIT).  post_state: "POST_DONE", "POST_ERR" or None while the
    post-execution stage has not finished.  Any object with these
    attributes will do.
    """
    state: str
    exit_code: Optional[int] = None
    post_state: Optional[str] = None
    pre_exec_started: bool = False


_STARTED = frozenset({"RUN", "SSUSP", "USUSP", "DONE", "EXIT", "UNKWN",
                      "ZOMBI"})
_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
}


def evaluate(tree, lookup):
    """True, False (not yet) or NEVER (can no longer become true).

    `lookup(JobRef)` returns the facts of every job the reference names.
    All of them must satisfy a condition (LSF's rule for shared names); a
    reference that names no job any more is NEVER.  True results are final
    too (a finished job stays finished), so `!done(X)` is NEVER once X is
    DONE and True for good once X has EXITed.
    """
    if isinstance(tree, Condition):
        return _condition(tree, lookup(tree.ref))
    if isinstance(tree, Not):
        inner = evaluate(tree.operand, lookup)
        if inner is NEVER:
            return True
        return NEVER if inner else True
    results = [evaluate(item, lookup) for item in tree.items]
    if tree.op == "&&":
        if any(r is NEVER for r in results):
            return NEVER
        return all(r is True for r in results)
    if any(r is True for r in results):
        return True
    return NEVER if all(r is NEVER for r in results) else False


def _condition(cond, jobs):
    if not jobs:
        return NEVER
    results = [_one_job(cond, job) for job in jobs]
    if any(r is NEVER for r in results):
        return NEVER
    return all(r is True for r in results)


def _one_job(cond, job):
    state = job.state
    if cond.kind == "done":
        return True if state == "DONE" else _never_if(state in ("EXIT",
                                                                "ZOMBI"))
    if cond.kind == "ended":
        return state in ("DONE", "EXIT")
    if cond.kind == "exit":
        return _exit_condition(cond, job)
    if cond.kind == "started":
        return state in _STARTED or bool(
            state in ("PEND", "PSUSP") and job.pre_exec_started)
    wanted = "POST_DONE" if cond.kind == "post_done" else "POST_ERR"
    if job.post_state is None:
        return False
    return True if job.post_state == wanted else NEVER


def _exit_condition(cond, job):
    if job.state == "DONE":
        return NEVER
    if job.state != "EXIT":
        return False
    if cond.code is None:
        return True
    code = job.exit_code if job.exit_code is not None else 0
    return True if _COMPARE[cond.op](code, cond.code) else NEVER


def _never_if(flag):
    return NEVER if flag else False


def refs(tree):
    """Every JobRef in an expression, in order written."""
    return [c.ref for c in conditions(tree)]


def check_references(tree, lookup):
    """Submit-time check: every reference names at least one job.

    Raises DependError("<ref>: No matching job found") for the first that
    does not; its ``part`` is the condition that holds the reference
    (``ended(12)`` of ``done(a) && ended(12)``), which bsub names.
    """
    for cond in conditions(tree):
        if not lookup(cond.ref):
            err = DependError("%s: No matching job found"
                              % one_line(str(cond.ref)), "nojob")
            err.part = one_line(str(cond))
            raise err


def conditions(tree):
    """Every Condition in an expression, in order written."""
    if isinstance(tree, Condition):
        return [tree]
    if isinstance(tree, Not):
        return conditions(tree.operand)
    return [c for item in tree.items for c in conditions(item)]
