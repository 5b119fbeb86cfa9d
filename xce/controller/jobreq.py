"""A job's scheduling requirements, parsed once and shared.

`-R` strings and the queue's RES_REQ are parsed when a job is submitted
(bad ones are refused) and the parsed objects are cached on the job and in
a table keyed by the text, so the thousands of jobs that ask for the same
thing share one object (the scheduler remembers failures per object within
a pass).  `-w` expressions likewise.
"""

from xce.controller import elimconf
from xce.lang import depend, resreq
from xce.lang import appmerge
from xce.lang.resreq.common import BUILTIN_CONSUMABLE

_RESREQ = {}            # (job strings, queue string, unit) -> ResReq
_SELECT = {}            # (queue string, unit) -> Select or None
_DEPEND = {}            # expression -> syntax tree
_CACHE_MAX = 20000


class BadRequirement(ValueError):
    """`str()` is bsub's message before ". Job not submitted."."""


def unit(cfg):
    return str(cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB"))


def _remember(table, key, value):
    if len(table) >= _CACHE_MAX:
        table.clear()
    table[key] = value
    return value


def queue_text(q):
    value = (q.raw or {}).get("RES_REQ") if q is not None else None
    return str(value).strip() if value else ""


def queue_select(q, unit_name):
    """The select[] of a queue's RES_REQ (None when it has none)."""
    text = queue_text(q)
    key = (text, unit_name)
    if key not in _SELECT:
        parsed = resreq.parse(text, unit=unit_name) if text else None
        _remember(_SELECT, key, parsed.select if parsed else None)
    return _SELECT[key]


def parse_job(strings, q, unit_name, more=frozenset()):
    """The job's requirement as the scheduler takes it: the job's own
    select, and order/rusage/span/same merged with the queue's RES_REQ.
    None when neither says anything.  Raises BadRequirement.  *more*:
    the site resources order[] sorts descending (elimconf)."""
    qtext = queue_text(q)
    key = (tuple(strings or ()), qtext, unit_name, more)
    found = _RESREQ.get(key)
    if found is not None or key in _RESREQ:
        return found
    try:
        own = resreq.merge(list(strings), unit=unit_name) if strings \
            else resreq.ResReq()
        merged = resreq.merge_with_queue(own, qtext or None, unit=unit_name)
    except resreq.ResReqError as e:
        raise BadRequirement(e.message)
    order = merged.order.directed(more) if merged.order else None
    value = resreq.ResReq(select=own.select, order=order,
                          rusage=merged.rusage, span=merged.span,
                          same=merged.same)
    if value == resreq.ResReq():
        value = None
    return _remember(_RESREQ, key, value)


def check_reservable(cfg, rr):
    """rusage[] may reserve mem, swp, tmp and a numeric resource that some
    host offers (its ``resources``); anything else could never be held,
    and the job would pend for good, so it is refused at submission."""
    if rr is None or rr.rusage is None:
        return
    offered = set()
    for hc in cfg.hosts.values():
        offered.update(name for name, value in
                       host_resources(hc.resources).items()
                       if not isinstance(value, (bool, str)))
    for alt in rr.rusage.alternatives:
        for name in alt.amounts():
            if name in BUILTIN_CONSUMABLE or name in offered:
                continue
            if name in (cfg.raw.get("resources") or {}):
                raise BadRequirement(f"{name}: rusage[] of a resource no "
                                     "host offers is not supported by xce")
            raise BadRequirement(f"{name}: Bad resource name")


def host_resources(resources):
    """A host's configured resources: `bigmem` (boolean), `os=rhel8`."""
    out = {}
    for item in resources or ():
        if isinstance(item, dict):
            out.update({str(k): v for k, v in item.items()})
            continue
        name, sep, value = str(item).partition("=")
        if not sep:
            out[name.strip()] = True
            continue
        value = value.strip()
        try:
            out[name.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            out[name.strip()] = value
    return out


def job_resreq(ctl, job):
    """Cached on the job; looked up again when the spec was replaced
    (bmod) or the queue's RES_REQ changed (bswitch, reconfig)."""
    q = ctl.cfg.queues.get(job["queue"])
    stamp = (queue_text(q), unit(ctl.cfg), elimconf.more_is_better(ctl.cfg))
    cached = job.get("_resreq")
    if cached is not None and cached[0] == stamp and \
            cached[1] is job["spec"]:
        return cached[2]
    try:
        value = parse_job(own_strings(job["spec"]), q, stamp[1], stamp[2])
    except BadRequirement:
        value = None        # accepted under an older configuration
    job["_resreq"] = (stamp, job["spec"], value)
    return value


def own_strings(spec):
    """The job's -R strings; bsub -nnodes N adds span[ptile=1]: one slot
    on each of N hosts, which the job takes whole (exclusively)."""
    strings = list(spec.get("resreq") or ())
    if spec.get("nnodes"):
        strings.append("span[ptile=1]")
    # The application profile's RES_REQ, under the job's own sections.
    return appmerge.resreq_strings(strings, spec.get("app_resreq"))


def parse_depend(text):
    """The syntax tree of a -w expression; DependError if malformed."""
    tree = _DEPEND.get(text)
    if tree is None:
        tree = _remember(_DEPEND, text, depend.parse(text))
    return tree
