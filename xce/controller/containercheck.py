"""A container job's checks (its profile's CONTAINER, else its queue's,
as in LSF): at submission,
the image is known and some host could run it; at dispatch, the start
message says how the agent runs it (xce.agent.container).

Which runtimes a host has is what its agent found (hello facts
"containers"); a host not heard from yet might have it, and then the
job is accepted and waits.  A job whose runtime no known host has is
refused (exit 255, nothing submitted); one whose hosts with the runtime
are busy or down pends, and each host without it says which runtime it
lacks (xce.scheduler.hostfit)."""

from xce.config import containerconf
from xce.errors import text


def container_of(cfg, spec, queue):
    """The Container of the job's profile, else of its queue *queue*
    (a name), or None."""
    return _owned(cfg, spec, queue)[0]


def _owned(cfg, spec, queue):
    """(the job's Container or None, what names it in a message)."""
    app = cfg.apps.get(spec.get("app") or "")
    if app is not None and app.container is not None:
        return app.container, f"application profile <{app.name}>"
    q = cfg.queues.get(queue)
    if q is not None and q.container is not None:
        return q.container, f"queue <{q.name}>"
    return None, None


def check(ctl, q, spec, env, rejected):
    """Raise *rejected* when the job's container can never run."""
    box, owner = _owned(ctl.cfg, spec, q.name)
    if box is None:
        return
    if containerconf.image_of(box, env) is None:
        raise rejected(text("CONTAINER_NO_IMAGE", Owner=owner[0].upper() +
                            owner[1:]))
    for name in (q.hosts if q.hosts is not None else ctl.hosts):
        h = ctl.hosts.get(name)
        if h is None:
            continue
        if not h["facts"] or box.needs in runtimes(h["facts"]):
            return      # not heard from yet, or has it
    raise rejected(text("CONTAINER_NO_HOST", runtime=box.needs,
                        owner=owner))


def runtimes(facts):
    """The runtimes a host's agent reported (none from an agent that
    reports none, an older one included: it would run the job bare)."""
    return frozenset(str(r) for r in (facts or {}).get("containers") or ())


def start_field(cfg, spec, queue, env):
    """The start message's "container", or {} for a job without one."""
    box, owner = _owned(cfg, spec, queue)
    if box is None:
        return {}
    image = containerconf.image_of(box, env)
    if image is None:   # a reconfig changed the profile since: never bare
        raise RuntimeError(text("CONTAINER_NO_IMAGE",
                                Owner=owner[0].upper() + owner[1:]))
    return {"container": {"runtime": box.runtime,
                          "image": image,
                          "options": list(box.options)}}
