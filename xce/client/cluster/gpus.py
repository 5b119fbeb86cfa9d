"""The GPU views of bhosts -gpu, lshosts -gpu, lsload -gpu and bjobs -l
-gpu, in LSF 10.1's layouts.  A host's devices come from its stored
row (declared in xce.yaml or detected by its agent); what jobs hold of
them from the unfinished jobs' gpu_alloc (Reader.gpu_jobs).  Figures
xce does not measure (memory in use, utilisation, driver, NUMA node)
print as "-", as LSF prints an unknown value."""

from xce.client.text.cells import cell, lcell, line, rcell
from xce.model.gpus import OK

BHOSTS_HEADER = line(cell("HOST_NAME", 18), rcell("ID", 5),
                     rcell("MODEL", 18), rcell("MUSED", 9),
                     rcell("MRSV", 9), rcell("NJOBS", 6), rcell("RUN", 6),
                     rcell("SUSP", 6), rcell("RSV", 6))
LSHOSTS_HEADER = "HOST_NAME  gpu_id gpu_model        gpu_driver  " \
    "gpu_factor numa_id vendor"
LSLOAD_HEADER = ("HOST_NAME       status  ngpus  gpu_shared_avg_mut  "
                 "gpu_shared_avg_ut  ngpus_physical")
BJOBS_HEADER = (" HOST             TASK GPU_ID  MODEL            MTOTAL  "
                "FACTOR MRSV    SOCKET NVLINK")


def devices(host):
    return (host.get("conf") or {}).get("gpus") or []


def usage(gpu_jobs):
    """(host, id) -> {njobs, run, susp, mrsv} from Reader.gpu_jobs."""
    out = {}
    for _, _, stat, alloc in gpu_jobs:
        for host, ids in (alloc.get("hosts") or {}).items():
            for ident in ids:
                u = out.setdefault((host, ident), {"njobs": 0, "run": 0,
                                                   "susp": 0, "mrsv": 0.0})
                u["njobs"] += 1
                u["run" if stat in ("RUN", "UNKWN") else "susp"] += 1
                u["mrsv"] += alloc.get("gmem") or 0.0
    return out


def mb(value):
    """LSF's memory figure: M below a gigabyte, G (one decimal) above."""
    if value is None:
        return "-"
    if value >= 1024:
        return f"{value / 1024:.1f}G"
    return f"{value:.0f}M"


def bhosts_table(hosts, used, wide=False, claimed=None):
    """claimed: {host: {id: user}} of the standalone claims (xce claim),
    marked after LSF's columns as claimed:USER."""
    width = 40 if wide else 18
    claimed = claimed or {}
    lines = [BHOSTS_HEADER]
    for h in hosts:
        for n, d in enumerate(devices(h)):
            u = used.get((h["name"], d["id"]), {})
            model = d["model"] if wide else d["model"][:width]
            lines.append(
                (lcell(h["name"], 18) if n == 0 else " " * 19) +
                f"{d['id']:>5} {model:>{width}} {'-':>9} "
                f"{mb(u.get('mrsv', 0.0)):>9} {u.get('njobs', 0):>6} "
                f"{u.get('run', 0):>6} {u.get('susp', 0):>6} {0:>6}" +
                _claim_mark(claimed.get(h["name"], {}).get(d["id"])))
    return "\n".join(lines)


def _claim_mark(user):
    return f" claimed:{user}" if user else ""


def lshosts_table(hosts):
    lines = [LSHOSTS_HEADER]
    for h in hosts:
        for n, d in enumerate(devices(h)):
            name = f"{h['name']:<10}" if n == 0 else " " * 10
            lines.append(f"{name}{d['id']:>7} {d['model'][:16]:<16} "
                         f"{'-':<11} {'-':<10} {'-':<7} {'-':>6}")
    return "\n".join(lines)


def lsload_table(hosts):
    lines = [LSLOAD_HEADER]
    for h in hosts:
        devs = devices(h)
        if not devs:
            continue
        ok = sum(1 for d in devs if d.get("state", OK) == OK)
        lines.append(f"{h['name'][:15]:<15} {h['status'][:7]:>7} "
                     f"{ok:>6} {'-':>19} {'-':>18} {len(devs):>15}")
    return "\n".join(lines)


def bjobs_section(row, spec, host_devices):
    """The GPU_ALLOCATION part of a job's bjobs -l -gpu record (empty
    for a job that holds no GPUs)."""
    alloc = spec.get("gpu_alloc")
    if not alloc or row.get("stat") in ("PEND", "PSUSP"):
        return []       # a requeued job's last run: it holds none now
    tasks = {}
    for n, host in enumerate((row.get("exec_hosts") or "").split()):
        tasks.setdefault(host, []).append(str(n))
    out = ["", " GPU_ALLOCATION:", BJOBS_HEADER]
    for host, ids in alloc["hosts"].items():
        by_id = {d["id"]: d for d in host_devices.get(host, [])}
        for ident in ids:
            d = by_id.get(ident, {})
            out.append(
                f" {host[:16]:<16} {','.join(tasks.get(host, [])):<4} "
                f"{ident:<7} {d.get('model', '-')[:16]:<16} "
                f"{mb(d.get('mem')):<7} {'-':<6} "
                f"{mb(alloc.get('gmem') or 0.0):<7} {'-':<6} -")
    return out
