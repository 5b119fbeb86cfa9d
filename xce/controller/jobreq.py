"""A job's scheduling requirements, parsed once and shared.

`-R` strings and the queue's RES_REQ are parsed when a job is submitted
(bad ones are refused) and the parsed objects are cached on the job and in
a table keyed by the text, so the thousands of jobs that ask for the same
thing share one object (the scheduler remembers failures per object within
a pass).  `-w` expressions likewise.
"""

from xce.controller import elimconf
from xce.lang import depend, resreq
from xce.errors import text
from xce.lang import appmerge
from xce.model import resources
from xce.model.resources import Catalog

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
                          same=merged.same, from_queue=merged.from_queue)
    if value == resreq.ResReq():
        value = None
    return _remember(_RESREQ, key, value)


def catalog(cfg):
    """The cluster's resource definitions (xce.model.resources): the
    config load builds them; a Config made another way gets them from
    its ``resources`` section."""
    found = getattr(cfg, "catalog", None)
    if found is None:
        found = cfg.catalog = Catalog.build(
            (cfg.raw or {}).get("resources") or {})
    return found


def vocabulary(cfg):
    """What the requirement parser is told of the site's resources
    (resreq.parse's known, strings, consumable): the defined
    ones, and the names hosts give values to without a definition
    (typed by their values, as before definitions were carried).
    Worked out once per configuration."""
    cat = catalog(cfg)
    cached = getattr(cat, "_vocabulary", None)
    if cached is not None:
        return cached
    known, strings = set(cat.names()), set(cat.of_type(resources.STRING))
    consumable = set(cat.consumable())
    for hc in cfg.hosts.values():
        for name, value in cat.host_values(hc.resources).items():
            if cat.get(name) is not None:
                continue
            known.add(name)
            if isinstance(value, str):
                strings.add(name)
            elif not isinstance(value, bool):
                consumable.add(name)
    cat._vocabulary = {"known": frozenset(known),
                       "strings": frozenset(strings),
                       "consumable": frozenset(consumable)}
    return cat._vocabulary


def check_names(cfg, strings):
    """At submission: every resource a -R names must be defined (LSF's
    "<name>: Bad resource name"), and rusage[] may reserve only
    consumable ones.  Raises BadRequirement."""
    try:
        resreq.merge(list(strings), unit=unit(cfg), **vocabulary(cfg))
    except resreq.ResReqError as e:
        raise BadRequirement(e.message)


def shared_instances(cfg):
    """The shared ResourceMap instances over the configured hosts (the
    cluster-wide counters), worked out once per configuration."""
    cat = catalog(cfg)
    found = getattr(cat, "_shared", None)
    if found is None:
        found = cat._shared = cat.shared(list(cfg.hosts), cfg.host_groups)
    return found


def located(cfg):
    """{host: {name: value}} of the ResourceMap ``value@[default]``
    values, once per configuration."""
    cat = catalog(cfg)
    found = getattr(cat, "_located", None)
    if found is None:
        found = cat._located = {}
        for inst in cat.instances(list(cfg.hosts), cfg.host_groups)[0]:
            if not inst.shared and inst.value is not None:
                for host in inst.hosts:
                    found.setdefault(host, {})[inst.resource] = inst.value
    return found


def released(cfg):
    """The site resources a suspended job gives back (RELEASE=Y)."""
    return frozenset(d.name for d in catalog(cfg).site() if d.release)


def check_reservable(cfg, rr, nslots=1):
    """rusage[] may reserve mem, swp, tmp, slots and a consumable
    resource that some host or shared location offers (or that hosts
    report: a dynamic one).  A resource nothing offers, or an amount
    above the most any one instance has, could never be held: the job
    would pend for good, so it is refused at submission."""
    if rr is None or rr.rusage is None:
        return
    vocab = vocabulary(cfg)
    for alt in rr.rusage.alternatives:
        for name, amount in alt.amounts().items():
            if name in resources.BUILTIN_CONSUMABLE:
                continue
            if name not in vocab["consumable"]:
                raise BadRequirement(text("BAD_RESOURCE_NAME", name=name))
            found = catalog(cfg).get(name)
            if found is not None and found.dynamic:
                continue        # its value comes from the hosts' reports
            most = _most_offered(cfg, name)
            if most is None:
                raise BadRequirement(text("RUSAGE_NOWHERE", name=name))
            if amount > most:
                raise BadRequirement(text("RUSAGE_NEVER", name=name,
                                          amount=_plain(amount),
                                          most=_plain(most)))


def _most_offered(cfg, name):
    """The most of *name* one host or shared instance offers, or None."""
    values = [inst.value for inst in shared_instances(cfg)
              if inst.resource == name and inst.value is not None]
    values += [v.get(name) for v in located(cfg).values() if name in v]
    for hc in cfg.hosts.values():
        value = host_resources(cfg, hc.resources).get(name)
        if value is not None:
            values.append(value)
    numbers = [v for v in values
               if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return max(numbers) if numbers else None


def _plain(number):
    return int(number) if float(number).is_integer() else number


def host_resources(cfg, resources_list):
    """A host's configured resources as select[] reads them: `bigmem`
    (a Boolean), `os=rhel8`, typed by their definitions."""
    return catalog(cfg).host_values(resources_list)


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
