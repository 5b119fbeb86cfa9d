"""badmin showstatus and badmin mbdrestart.

showstatus summarises the controller's view from the store (LSF 10.1's
layout; the reference marks its spacing unverified).  xce has no separate
mbatchd to restart: mbdrestart is a reconfiguration request, checked and
answered with LSF's mbdrestart wording.
"""

import json
import time

from xce.model import states




def _kv(label, value, indent=2, width=24):
    return f"{' ' * indent}{label + ':':<{width}}{value}"


def _hosts_part(hosts):
    ok = sum(1 for h in hosts if h["status"] == states.HOST_OK)
    closed = sum(1 for h in hosts if states.host_closed(h["status"]))
    unreach = sum(1 for h in hosts if h["status"] == states.HOST_UNREACH)
    unavail = sum(1 for h in hosts if h["status"] == states.HOST_UNAVAIL)
    cpus = sum(h["ncpus"] or 0 for h in hosts)
    slots = sum(h["mxj"] or 0 for h in hosts)
    n = len(hosts)
    return [
        "  Available local hosts (current/peak):",
        _kv("Clients", "0/0", 4, 22), _kv("Servers", f"{n}/{n}", 4, 22),
        _kv("CPUs", f"{cpus}/{cpus}", 6, 20),
        _kv("Cores", f"{cpus}/{cpus}", 6, 20),
        _kv("Slots", f"{slots}/{slots}", 6, 20), "",
        _kv("Number of servers", n), _kv("Ok", ok, 4, 22),
        _kv("Closed", closed, 4, 22), _kv("Unreachable", unreach, 4, 22),
        _kv("Unavailable", unavail, 4, 22), ""]


def _jobs_part(reader):
    counts = reader.stat_counts()
    run = counts.get("RUN", 0) + counts.get("UNKWN", 0)
    susp = sum(counts.get(s, 0) for s in ("USUSP", "SSUSP"))
    pend = sum(counts.get(s, 0) for s in ("PEND", "PSUSP"))
    done = sum(counts.get(s, 0) for s in ("DONE", "EXIT"))
    return [_kv("Number of jobs", run + susp + pend + done),
            _kv("Running", run, 4, 22), _kv("Suspended", susp, 4, 22),
            _kv("Pending", pend, 4, 22), _kv("Finished", done, 4, 22), ""]


def _users_part(reader, meta):
    users, active = reader.user_numbers()
    try:
        groups = json.loads(meta.get("config_sections") or "{}")
        ngroups = len(groups.get("user_groups") or {})
    except ValueError:
        ngroups = 0
    return [_kv("Number of users", users),
            _kv("Number of user groups", ngroups),
            _kv("Number of active users", active), ""]


def showstatus_text(reader):
    meta = reader.meta()
    lines = ["LSF runtime mbatchd information"]
    lines += _hosts_part(reader.hosts()) + _jobs_part(reader)
    lines += _users_part(reader, meta)
    started = float(meta.get("started") or 0)
    lines += [_kv("Latest mbatchd start", time.ctime(started)
                  if started else "-"),
        _kv("Active mbatchd PID", meta.get("controller_pid", "-"))]
    last = reader.last_reconfig(started)
    if last:
        lines += ["", _kv("Latest mbatchd reconfig", time.ctime(last))]
    return "\n".join(lines)


def mbdrestart(site):
    """The reconfig check and request, with mbdrestart's words."""
    from xce.client.admin.control import reconfig
    return reconfig(site, check_only=False, aborted="MBD restart aborted.",
                    initiated="MBD restart initiated")
