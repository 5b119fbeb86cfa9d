"""badmin requests: queue and host open/close/activate, reconfig, and the
agents' restart/shutdown/startup (agentctl)."""

from xce.controller import agentctl, configure
from xce.errors import about, text

QUEUE_OPS = {"qopen": ("open", True, "opened"),
             "qclose": ("open", False, "closed"),
             "qact": ("active", True, "activated"),
             "qinact": ("active", False, "inactivated")}
HOST_OPS = {"hopen": False, "hclose": True}


def admin(ctl, req_user, body, now):
    op = body.get("op")
    if not ctl.is_admin(req_user):
        return {"ok": False, "error": text("PERMISSION")}
    # Who asked, and badmin's -C comment: the QUEUE_CTRL/HOST_CTRL
    # records of lsb.events keep both (userName, ctrlComments).
    said = {"by": req_user, "comment": body.get("comment") or ""}
    if op in QUEUE_OPS:
        return _queues(ctl, op, body.get("names") or ["all"], now, said)
    if op in HOST_OPS:
        return _hosts(ctl, op, body.get("names") or ["all"], now, said)
    if op in agentctl.OPS:
        return agentctl.handle(ctl, op, body.get("names") or ["all"], now,
                               said)
    if op == "reconfig":
        return configure.reconfig(ctl, check_only=bool(body.get("check")),
                                  by=req_user)
    return {"ok": False, "error": about(op, "BAD_ADMIN_OP")}


def _queues(ctl, op, names, now, said):
    field, value, word = QUEUE_OPS[op]
    if "all" in names:
        names = list(ctl.cfg.queues)
    results = []
    for name in names:
        if name not in ctl.cfg.queues:
            results.append({"error": text("BAD_QUEUE", name)})
            continue
        ctl.queue_state[name][field] = value
        # bqueues -l shows the comment of the last control (none without -C)
        ctl.queue_state[name]["comment"] = said["comment"]
        ctl.store.event(now, "QUEUE_CTRL", queue=name, op=op, **said)
        configure.save_queue(ctl, name)
        results.append({"ok": True, "text": f"Queue <{name}> is {word}"})
    ctl.dirty = True
    return {"ok": all(r.get("ok") for r in results), "results": results}


def _hosts(ctl, op, names, now, said):
    closed = HOST_OPS[op]
    if "all" in names:
        names = list(ctl.hosts)
    results = []
    verb = "Close" if closed else "Open"
    for name in names:
        if name not in ctl.hosts:
            results.append({"error": text("BAD_HOST", name)})
            continue
        ctl.hosts[name]["adm_closed"] = closed
        ctl.hosts[name]["adm_comment"] = said["comment"] if closed else None
        ctl.store.event(now, "HOST_CTRL", host=name, op=op, **said)
        configure.save_host(ctl, name)
        results.append({"ok": True, "text": f"{verb} <{name}> ...... done"})
    ctl.dirty = True
    return {"ok": all(r.get("ok") for r in results), "results": results}
