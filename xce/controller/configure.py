"""The configuration in force in the controller: put in force at start-up
and by badmin reconfig (keeping queue and host runtime states), and the
queue, host and parameter rows the commands read from the store.
"""

import json
import logging

from xce.config import load as config_load
from xce.config import restart as config_restart
from xce.config import hostarch, queuetime, unenforced
from xce.config.lsf import hostnames
from xce.config.lsfview import write_lsf_view
from xce.controller import elimconf, hostloss, remerge, rlimits, schedpass
from xce.controller import agents, limitconf, spoolspace
from xce.errors import text
from xce.model import exitrate, fairshare, gpus

log = logging.getLogger("xce.controller")

# Configuration sections that only the information commands need.
CONFIG_SECTIONS = ("users", "user_groups", "host_groups", "limits",
                   "applications", "projects", "service_classes",
                   "resources", "host_types", "host_models")   # lsinfo
# Queue keys kept as written for bqueues -l.
_QUEUE_SHOWN = ("RES_REQ", "FAIRSHARE", "RERUNNABLE", "DISPATCH_WINDOW",
                "RUN_WINDOW", "CONTAINER", "TASKLIMIT", "DEFAULT_HOST_SPEC",
                "PROCLIMIT") + fairshare.FACTOR_KEYS


def apply_config(ctl, cfg, saved_q=None, saved_h=None, saved_comments=None):
    """Put a (validated) configuration in force, keeping runtime states
    (at start-up, the queue and host states and the comments of closed
    hosts as last saved)."""
    ctl.cfg = cfg
    ctl.view_epoch += 1
    old_q, old_h = ctl.queue_state, ctl.hosts
    ctl.queue_state = {}
    for name in cfg.queues:
        if name in old_q:
            ctl.queue_state[name] = old_q[name]
        elif saved_q and name in saved_q:
            o, a, comment = saved_q[name]
            ctl.queue_state[name] = {"open": bool(o), "active": bool(a),
                                     "comment": comment or ""}
        else:
            ctl.queue_state[name] = {"open": True, "active": True}
    ctl.hosts = {}
    for name, hc in cfg.hosts.items():
        prev = old_h.get(name, {})
        ctl.hosts[name] = {
            "conf": hc, "facts": prev.get("facts", {}),
            "seen": prev.get("seen", False),
            # What its agent understands stays known until its next
            # hello (a reconfig sends it the elim settings again).
            "protocol": prev.get("protocol", 1),
            "adm_closed": prev.get("adm_closed",
                                   bool((saved_h or {}).get(name))),
            # badmin hclose -C, or the exit rate's close (bhosts -l)
            "adm_comment": prev.get("adm_comment",
                                    (saved_comments or {}).get(name)),
            "max_slots": 0}
        update_slots(ctl, name)
        agents.keep_link(ctl.links, name, cfg, hc, ctl.link_for)
    # Time-based queue values (PRIORITY = [60 8:00-18:00] [20 ()]) as in
    # force now, so that the rows saved below show them; windows.turn
    # switches them at the next window edge.
    queuetime.apply(cfg, ctl.now)
    ctl.store.clear_queues()
    for seq, name in enumerate(cfg.queues):
        save_queue(ctl, name, seq)
    ctl.store.save_params({name: _param_text(value)
                            for name, value in cfg.params.items()})
    ctl.store.clear_hosts()
    for name in ctl.hosts:
        save_host(ctl, name)
    # busers, bugroup, bmgroup, bapp and blimits read these sections.
    # users: the rows in force (a group without its own row shows the
    # default row's values when DEFAULT_LIMIT_IGNORE_USER_GROUP is N).
    sections = {k: cfg.raw.get(k) for k in CONFIG_SECTIONS}
    sections["users"] = limitconf.user_rows(cfg) or sections.get("users")
    ctl.store.set_meta("config_sections", json.dumps(
        {k: plain(v) for k, v in sections.items()}, default=str))
    ctl.dirty = True

def update_slots(ctl, name):
    h = ctl.hosts[name]
    hc = h["conf"]
    h["max_slots"] = schedpass.max_slots(hc, h["facts"])
    # The model its CPU matches, for its CPU factor (rlimits.cpu_factor).
    model = hostarch.matched_model(ctl.cfg.raw, h["facts"].get("arch"))
    if model and not hc.model:
        ctl.cfg.detected_models[name] = model
    else:
        ctl.cfg.detected_models.pop(name, None)

def save_queue(ctl, name, seq=None):
    q = ctl.cfg.queues[name]
    st = ctl.queue_state[name]
    if seq is None:
        seq = list(ctl.cfg.queues).index(name)
    # The container is kept as written (in "lsf"), not as parsed.
    # Time-based values show as the value in force (q.priority, ...).
    # What the controller caches on the queue ("_..." attributes, such
    # as its fairshare policy) is not configuration.
    conf = {k: v for k, v in vars(q).items()
            if k not in ("raw", "container", "timed")
            and not k.startswith("_")}
    conf["default"] = name in ctl.cfg.default_queues
    if st.get("comment"):           # badmin's -C, shown by bqueues -l
        conf["comment"] = st["comment"]
    # bqueues -l shows these as configured (RES_REQ, USER_SHARES and
    # the weights of the queue's share priorities).
    conf["lsf"] = {k: q.raw[k] for k in _QUEUE_SHOWN if k in q.raw}
    # USERS and HOSTS as configured, groups marked (bqueues -l); "users"
    # and "hosts" keep the members bqueues -u and -m go by.
    for key, groups in (("USERS", ctl.cfg.user_groups),
                        ("HOSTS", ctl.cfg.host_groups)):
        shown = hostnames.as_shown(q.raw.get(key), groups)
        if shown:
            conf["shown_" + key.lower()] = shown
    ctl.store.save_queue(
        (name, seq, q.priority, int(st["open"]), int(st["active"]),
         json.dumps(conf)))

def save_host(ctl, name):
    h = ctl.hosts[name]
    hc, facts = h["conf"], h["facts"]
    # unavail or unreach, and why (bhosts -l): see hostloss.
    status, why = hostloss.shown_status(ctl, name)
    ctl.store.save_host(
        (name, list(ctl.hosts).index(name),
         status, int(h["adm_closed"]),
         hc.ncpus or facts.get("ncpus"), h["max_slots"],
         hc.maxmem or facts.get("maxmem"), facts.get("maxswp"),
         hc.type or facts.get("type", ""),
         hostarch.host_model(ctl.cfg.raw, hc.model, facts),
         json.dumps({"jl_u": hc.jl_u, "resources": hc.resources,
                     # its model's CPU factor (lshosts, bhosts -l)
                     "cpuf": rlimits.cpu_factor(ctl.cfg, name),
                     "reason": why, "thresholds": hc.thresholds,
                     # LIM's busy thresholds (lsload busy, lshosts -l)
                     "lim_thresholds": hc.lim_thresholds,
                     "comment": h.get("adm_comment") if h["adm_closed"]
                     else None,
                     # jobs exiting per minute that close it (exitrate)
                     "exit_rate": exitrate.threshold(hc.raw,
                                                     ctl.cfg.params),
                     "dispatch_window": hc.raw.get("DISPATCH_WINDOW"),
                     # declared or detected (bhosts/lshosts/lsload -gpu)
                     "gpus": gpus.of_host(hc.gpus, facts)}),
         json.dumps(facts.get("load", {}))))
    h["saved_status"] = (status, why)


def reconfig(ctl, check_only=False, by=None):
    """Check xce.yaml and put it in force; a refusal (bad value, or a
    key only a restart can change) leaves the running one in force."""
    try:
        cfg = config_load.load(ctl.envdir)
    except config_load.ConfigError as e:
        return {"ok": False, "errors": e.errors}
    needs_restart = config_restart.changed(ctl.cfg, cfg)
    unknown = unknown_names(cfg)
    if check_only:
        return {"ok": True, "warnings": needs_restart + unknown}
    if needs_restart:
        return {"ok": False, "errors": needs_restart}
    running = ctl.cfg
    try:
        apply_config(ctl, cfg)
        write_lsf_view(ctl.envdir, plain(cfg.raw), cfg.spool)
    except Exception as e:      # noqa: BLE001 -- back to the running one
        log.exception("reconfig failed; the running configuration stays")
        apply_config(ctl, running)
        return {"ok": False, "errors": [text("CONFIG_NOT_APPLIED",
                                             path=cfg.path, error=e)]}
    ctl.spool.limits = spoolspace.limits(cfg)
    for name in ctl.hosts:     # LSF_SERVERDIR, resource definitions
        elimconf.send(ctl, name)
    remerge.after_reconfig(ctl, by)    # pending jobs, changed profiles
    warn_unenforced(cfg)
    ctl.store.set_meta("admins", " ".join(cfg.admins))
    ctl.store.event(ctl.now, "RECONFIG")
    return {"ok": True, "warnings": unknown}


def warn_unenforced(cfg):
    """Nothing is ignored silently: each key carried but not acted on."""
    for line in unenforced.lines(cfg.raw):
        log.warning("%s: %s", cfg.path, line)
    for line in unknown_names(cfg):
        log.warning("%s", line)


def unknown_names(cfg):
    """A queue's HOSTS or a limit's QUEUES naming what nothing defines:
    one warning each, as LSF gives (xce.config.unknownnames)."""
    from xce.config import unknownnames
    return [f"{cfg.path}: {message}"
            for _, message in unknownnames.notices(cfg.raw)]


def plain(node):
    """ruamel's commented containers as plain dicts and lists."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


def _param_text(value):
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)
