"""Requeue exit values: bsub -Q and a queue's REQUEUE_EXIT_VALUES (pure).

LSF 10.1's form is ``"[all] [~number ...] | [number ...] [EXCLUDE(number
...)]"``: the values after which a job that exited goes back to PEND
instead of ending EXIT.  ``all`` means every non-zero exit value but those
written ``~n``; ``EXCLUDE(n ...)`` values requeue the job too, but the job never
runs again on the host where it exited with one of them (LSF's "exclusive
job requeue").  A job's own -Q replaces the queue's list.

Stdlib only: bsub checks the text before it submits.
"""

import re

ALL = "all"
_EXCLUDE = re.compile(r"EXCLUDE\s*\(([^()]*)\)", re.IGNORECASE)
_MAX = 255      # exit values are 0..255


class BadRequeueValues(ValueError):
    """Text that is no requeue exit value list."""


class RequeueValues:
    """A parsed list: which exit values requeue, and which exclusively."""

    __slots__ = ("all", "codes", "not_codes", "exclude", "text")

    def __init__(self, all_=False, codes=(), not_codes=(), exclude=(),
                 text=""):
        self.all = all_
        self.codes = frozenset(codes)
        self.not_codes = frozenset(not_codes)
        self.exclude = frozenset(exclude)
        self.text = text

    def action(self, exit_code):
        """None (the job ends), "requeue", or "exclude" (requeue, never
        again on this host) for a job that exited with *exit_code*."""
        if exit_code is None:
            return None
        if exit_code in self.exclude:
            return "exclude"
        # `all` is every failure: a job that succeeded (0) requeues only
        # when 0 is named, else `all` would run every job for ever.
        if exit_code in self.codes or (self.all and exit_code != 0 and
                                       exit_code not in self.not_codes):
            return "requeue"
        return None

    def env_value(self):
        """LSB_EXIT_REQUEUE's value: the values, space separated."""
        return normalised(self)

    def __bool__(self):
        return bool(self.all or self.codes or self.exclude)


def _number(word, whole):
    if not word.isdigit() or int(word) > _MAX:
        raise BadRequeueValues(whole)
    return int(word)


def parse(text):
    """A RequeueValues from *text*; BadRequeueValues when it is not one.
    Empty text is an empty list (nothing requeues)."""
    whole = str(text or "").strip()
    exclude = set()
    found = _EXCLUDE.findall(whole)
    if len(found) > 1:
        raise BadRequeueValues(whole)
    for inner in found:
        words = inner.split()
        if not words:
            raise BadRequeueValues(whole)
        exclude.update(_number(w, whole) for w in words)
    rest = _EXCLUDE.sub(" ", whole)
    all_, codes, not_codes = False, set(), set()
    for word in rest.split():
        if word.lower() == ALL:
            if all_ or codes:
                raise BadRequeueValues(whole)
            all_ = True
        elif word.startswith("~"):
            if not all_:        # ~n only takes away from `all`
                raise BadRequeueValues(whole)
            not_codes.add(_number(word[1:], whole))
        else:
            if all_:
                raise BadRequeueValues(whole)
            codes.add(_number(word, whole))
    return RequeueValues(all_, codes, not_codes, exclude, whole)


def parse_quietly(text):
    """parse(), or None for text that is no list (checked elsewhere)."""
    try:
        return parse(text)
    except BadRequeueValues:
        return None


def normalised(values):
    """The list written back in LSF's form (bjobs -l, LSB_EXIT_REQUEUE)."""
    words = []
    if values.all:
        words.append(ALL)
        words += [f"~{n}" for n in sorted(values.not_codes)]
    words += [str(n) for n in sorted(values.codes)]
    if values.exclude:
        words.append("EXCLUDE(" + " ".join(
            str(n) for n in sorted(values.exclude)) + ")")
    return " ".join(words)
