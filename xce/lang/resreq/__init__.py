"""LSF resource requirement strings (`bsub -R`, queue RES_REQ).

    parse("mem>4000 span[hosts=1]")            -> ResReq
    merge(["select[mem>=4096MB] rusage[mem=4096MB]", "span[hosts=1]"])
    merge_with_queue(job_resreq, queue_resreq) -> ResReq
    effective(resreq)                          -> ResReq with LSF defaults
    resreq.select.matches(host_resources, local_type="X86_64")

Pure: no I/O, no clock.  Every rejection is a ResReqError whose `message`
is what bsub prints before ". Job not submitted.".  Sections xce parses but
does not implement (cu, affinity, compound and alternative requirements,
multi-phase rusage) are rejected with a message that says so, never dropped.
The splitting of a string into sections lives in split; each
section's syntax in its own module.
"""

from dataclasses import dataclass, field, replace
from typing import Optional

from xce.lang.boolexpr import join

from .common import (
    NUMERIC_RESOURCES, SYNTAX_MESSAGE, ResReqError,
)
from .eval import compile_predicate
from .parse_select import parse_expression, referenced_names
from .rusage import Rusage, RusageAlternative, parse_rusage
from .sections import (
    Order, OrderKey, Same, Span, parse_order, parse_same, parse_span,
)
from .select import BoolOp, Cmp, Ref, Str
from .split import split_sections

__all__ = [
    "ResReq", "ResReqError", "Select", "Order", "OrderKey", "Rusage",
    "Span", "Same", "parse", "merge", "merge_with_queue", "effective",
    "DEFAULT_ORDER",
]

DEFAULT_ORDER = Order((OrderKey("r15s"), OrderKey("pg")))


@dataclass(frozen=True)
class Select:
    """A compiled select[] expression."""
    expr: object
    _test: object = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_test", compile_predicate(self.expr))

    def __str__(self):
        return "select[%s]" % self.expr

    def matches(self, host_resources, local_type=None):
        """True if a host with these resources satisfies the expression.

        `local_type` is the submission host's type, which `type == local`
        stands for; when None, `type == local` restricts nothing.
        """
        return self._test(host_resources, local_type)

    @property
    def names(self):
        """The resource names the expression reads."""
        return referenced_names(self.expr)


@dataclass(frozen=True)
class ResReq:
    select: Optional[Select] = None
    order: Optional[Order] = None
    rusage: Optional[Rusage] = None
    span: Optional[Span] = None
    same: Optional[Same] = None
    # What merge_with_queue took from the queue's RES_REQ: "span" and the
    # names of the rusage[] amounts the job does not give itself (LSF
    # words a failure of those as the queue's).  Not part of the value.
    from_queue: frozenset = field(default=frozenset(), compare=False)

    def __str__(self):
        sections = (self.select, self.order, self.rusage, self.span,
                    self.same)
        return " ".join(str(s) for s in sections if s is not None)

    def matches(self, host_resources, local_type=None):
        if self.select is None:
            return True
        return self.select.matches(host_resources, local_type)


def parse(text, unit="KB", known=None, strings=(), consumable=None):
    """Parse one resource requirement string.

    unit: LSF_UNIT_FOR_LIMITS, the unit of bare mem/swp/tmp numbers and the
        unit suffixed values are converted into.
    known: configured resource names; when given, any other name (built-ins
        aside) is rejected with "<name>: Bad resource name".
    strings: site-defined string resources (type, model, hname are built in).
    consumable: site consumable resources; when given, rusage[] may reserve
        only these and mem/swp/tmp/slots.
    """
    if not isinstance(text, str):
        raise TypeError("resource requirement must be a string")
    parts = {}
    for keyword, body in split_sections(text):
        if keyword in parts:
            raise ResReqError()  # a section may not repeat in one string
        parts[keyword] = _parse_section(keyword, body, unit, known, strings,
                                        consumable)
    return ResReq(**parts)


def _parse_section(keyword, body, unit, known, strings, consumable):
    if keyword == "select":
        return Select(parse_expression(body, unit, known, strings))
    if keyword == "order":
        return parse_order(body, known)
    if keyword == "rusage":
        return parse_rusage(body, unit, known, consumable)
    if keyword == "span":
        return parse_span(body)
    if keyword == "same":
        return parse_same(body, known)
    raise ResReqError("%s[] resource requirement sections are not supported "
                      "by xce" % keyword, "unsupported")


def merge(requirements, **options):
    """Merge several `-R` strings (or ResReq objects) as LSF 10.1 does.

    select sections are ANDed, rusage sections combined, and order, span and
    same may each come from one string only.  `options` go to parse().
    """
    reqs = [_as_resreq(r, options) for r in requirements]
    selects = [r.select.expr for r in reqs if r.select is not None]
    merged = ResReq(
        select=_and(selects),
        order=_only_one(reqs, "order"),
        rusage=_combine_rusage([r.rusage for r in reqs if r.rusage]),
        span=_only_one(reqs, "span"),
        same=_only_one(reqs, "same"),
    )
    return merged


def _as_resreq(value, options):
    return value if isinstance(value, ResReq) else parse(value, **options)


def _and(exprs):
    return Select(join("&&", exprs, BoolOp)) if exprs else None


def _only_one(reqs, section):
    found = [getattr(r, section) for r in reqs if getattr(r, section)]
    if len(found) > 1:
        raise ResReqError("%s (%s[] given in more than one -R)"
                          % (SYNTAX_MESSAGE, section), "merge")
    return found[0] if found else None


def _combine_rusage(sections):
    if len(sections) <= 1:
        return sections[0] if sections else None
    if any(len(s.alternatives) > 1 for s in sections):
        raise ResReqError("%s (rusage[] with || alternatives cannot be "
                          "combined with another -R rusage[])"
                          % SYNTAX_MESSAGE, "merge")
    groups = [g for s in sections for g in s.alternatives[0].groups]
    names = [n for g in groups for n in g.names()]
    if len(names) != len(set(names)):
        raise ResReqError("%s (one resource reserved in more than one -R)"
                          % SYNTAX_MESSAGE, "merge")
    return Rusage((RusageAlternative(_coalesce(groups)),))


def _coalesce(groups):
    """Join groups that share duration and decay, keeping first-seen order."""
    merged = {}
    for group in groups:
        key = (group.duration, group.decay)
        if key in merged:
            first = merged[key]
            merged[key] = replace(first, amounts=first.amounts + group.amounts)
        else:
            merged[key] = group
    return tuple(merged.values())


def merge_with_queue(job, queue, **options):
    """Combine a job's requirement with its queue's RES_REQ.

    select: job AND queue.  order, span and same: the job's if it has one,
    else the queue's (`span[hosts=-1]` in the job removes the queue's span).
    rusage: per resource, the job's amount wins; queue resources the job
    does not mention are added.  Either argument may be a string, a ResReq
    or None.
    """
    job = _as_resreq(job or "", options)
    queue = _as_resreq(queue or "", options)
    selects = [r.select.expr for r in (job, queue) if r.select is not None]
    span = job.span or queue.span
    if job.span is not None and job.span.hosts == -1:
        span = None
    rusage = _rusage_over_queue(job.rusage, queue.rusage)
    return ResReq(
        select=_and(selects),
        order=job.order or queue.order,
        rusage=rusage,
        span=span,
        same=job.same or queue.same,
        from_queue=_from_queue(job, span, rusage),
    )


def _from_queue(job, span, rusage):
    """The parts of a merged requirement that the queue gave."""
    parts = set()
    if span is not None and job.span is None:
        parts.add("span")
    if rusage is not None and len(rusage.alternatives) == 1:
        own = set(job.rusage.amounts()) if job.rusage is not None else set()
        parts.update(n for n in rusage.amounts() if n not in own)
    return frozenset(parts)


def _rusage_over_queue(job, queue):
    if job is None or queue is None:
        return job or queue
    if len(job.alternatives) > 1 or len(queue.alternatives) > 1:
        return job  # alternatives are taken whole from the job
    taken = set(job.amounts())
    extra = []
    for group in queue.alternatives[0].groups:
        kept = tuple((n, v) for n, v in group.amounts if n not in taken)
        if kept:
            extra.append(replace(group, amounts=kept))
    groups = job.alternatives[0].groups + tuple(extra)
    return Rusage((RusageAlternative(_coalesce(groups)),))


def effective(resreq, strings=()):
    """Add LSF's defaults: a host type clause and order[r15s:pg].

    With no `type` in select, LSF adds `type == local`, or `type == any` when
    the expression names a string or boolean (non-numeric) resource.
    """
    if isinstance(resreq, str):
        resreq = parse(resreq, strings=strings)
    names = resreq.select.names if resreq.select else frozenset()
    select = resreq.select
    if "type" not in names:
        word = "any" if names - NUMERIC_RESOURCES else "local"
        clause = Cmp("==", Ref("type"), Str(word, quoted=False))
        exprs = [select.expr] if select else []
        select = _and(exprs + [clause])
    return replace(resreq, select=select,
                   order=resreq.order or DEFAULT_ORDER)
