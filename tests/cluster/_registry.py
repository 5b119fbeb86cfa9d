"""Who owns which test-host resources, and how to remove them.

Every HostSet gets a tag "<pid>x<seq>" and names everything after it:
namespaces "xt<tag>h<i>", veths "xv<tag>h<i>", the bridge "xb<tag>".  Before
creating anything it writes a record (owner pid and start time, then each
name, PID and path as it is created) to a state file.  A crashed run is
recognised by a dead owner, and its record says exactly what to remove;
names without a record are still found by their pattern.
"""

import contextlib
import fcntl
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from tests.cluster import _netns, _procs

NAME_RE = re.compile(r"^x[tbv](\d+)x(\d)(?:h\d+|p)?$")
MAX_SETS_PER_PROCESS = 10   # one digit of seq keeps veth names within 15 chars
ETC_NETNS = Path("/etc/netns")


def state_dir():
    if os.geteuid() == 0:
        d = Path("/run/xce-testhosts")
    else:
        d = Path(tempfile.gettempdir()) / f"xce-testhosts-{os.geteuid()}"
    d.mkdir(mode=0o700, parents=True, exist_ok=True)
    return d


@contextlib.contextmanager
def locked(name="lock"):
    """Machine-wide lock NAME: "lock" guards tag claims, subnet picks and
    /etc/netns; "stale" guards the removal of leftovers (which takes "lock");
    "users" makes each creation or removal of test users whole."""
    with open(state_dir() / name, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _path(tag):
    return state_dir() / f"{tag}.json"


def claim_tag():
    """A tag no live HostSet uses, with its record already on disk."""
    pid = os.getpid()
    with locked():
        for seq in range(MAX_SETS_PER_PROCESS):
            tag = f"{pid}x{seq}"
            if not _path(tag).exists():
                rec = {"tag": tag, "pid": pid, "start": _procs.start_time(pid), "hosts": {}}
                save(rec)
                return rec
    raise RuntimeError(f"more than {MAX_SETS_PER_PROCESS} live HostSets in one process")


def save(rec):
    """Atomic write, so a crash never leaves a half-written record."""
    path = _path(rec["tag"])
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(rec, indent=1))
    os.replace(tmp, path)


def release(tag):
    _path(tag).unlink(missing_ok=True)


def _owner_gone(pid, start):
    return not _procs.alive(pid) or (start is not None and _procs.start_time(pid) != start)


def stale_records():
    """Records of runs whose owner died, plus minimal ones for orphan names."""
    found = {}
    for path in state_dir().glob("*.json"):
        try:
            rec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if _owner_gone(rec["pid"], rec.get("start")):
            found[rec["tag"]] = rec
    for name in _netns.list_netns() + _netns.list_links():
        m = NAME_RE.match(name)
        if not m:
            continue
        tag = f"{m[1]}x{m[2]}"
        if tag not in found:
            if _path(tag).exists() or not _owner_gone(int(m[1]), None):
                continue    # a live run owns it
            found[tag] = {"tag": tag, "pid": int(m[1]), "hosts": {}}
        key = "extra_netns" if name.startswith("xt") else "extra_links"
        found[tag].setdefault(key, []).append(name)
    return list(found.values())


def loopback_pids(rec):
    """Processes started through a loopback host's sshd.  They share the root
    namespace with everything else, so they are found by the server address
    in their SSH_CONNECTION (unique while the sshd runs) and by descent from
    the sshd itself."""
    ends = {(h["addr"], str(h["port"])) for h in rec.get("hosts", {}).values()
            if not h.get("netns")}
    if not ends:
        return []
    pids = []
    for pid in _procs.all_pids():
        conn = (_procs.environ_value(pid, "SSH_CONNECTION") or "").split()
        if len(conn) == 4 and (conn[2], conn[3]) in ends:
            pids.append(pid)
    for h in rec["hosts"].values():
        if not h.get("netns") and is_our_sshd(h):
            pids += _procs.descendants(h["sshd"])
    return pids


def is_our_sshd(h):
    """The recorded PID still runs the sshd with this host's own config."""
    pid, cfg = h.get("sshd"), h.get("cfg")
    # sshd rewrites its argv into one title string ("sshd: ... -f CFG [listener] ..."),
    # so look for the path inside it rather than as a separate argument.
    return bool(pid and cfg and cfg in " ".join(_procs.cmdline(pid)))


def _stop_sshd(h, popen):
    if popen is not None:
        _procs.stop_popen(popen)
    elif is_our_sshd(h):
        _procs.kill_and_wait([h["sshd"]])


def _empty_netns(ns, timeout=15.0):
    """Kill everything in NS until it stays empty.  Only our sshd and what
    the tests started through it live there.  A namespace that still holds
    a process would outlive `ip netns del`."""
    left = _netns.netns_pids(ns)
    for _ in range(20):
        if not left:
            break
        _procs.kill_and_wait(left, timeout / 20)
        left = _netns.netns_pids(ns)
    return left


def _remove_network(rec, problems):
    netns = [h["netns"] for h in rec.get("hosts", {}).values() if h.get("netns")]
    netns += rec.get("extra_netns", [])
    for ns in netns:
        left = _empty_netns(ns)
        if left:
            problems.append(f"processes {left} survive in namespace {ns}")
        _netns.delete_netns(ns)   # removes eth0 inside, and with it the veth peer
    for link in rec.get("extra_links", []) + [b for b in [rec.get("bridge")] if b]:
        _netns.delete_link(link)
    # The kernel destroys a deleted namespace, and the veth pair with it,
    # asynchronously; waiting for that is faster than deleting each veth.
    veths = {h["veth"] for h in rec.get("hosts", {}).values() if h.get("veth")}
    deadline = time.monotonic() + 5.0
    while veths & set(_netns.list_links()) and time.monotonic() < deadline:
        time.sleep(0.002)
    for link in veths:
        _netns.delete_link(link)
    with locked():
        for ns in netns:
            shutil.rmtree(ETC_NETNS / ns, ignore_errors=True)
        with contextlib.suppress(OSError):
            ETC_NETNS.rmdir()   # only if empty: other runs may still use it


def destroy(rec, popens=None):
    """Remove everything REC names; return what could not be removed."""
    popens, problems = popens or {}, []
    doomed = loopback_pids(rec)
    for name, h in rec.get("hosts", {}).items():
        _stop_sshd(h, popens.get(name))
    left = _procs.kill_and_wait(doomed)
    if left:
        problems.append(f"session processes {left} survive")
    try:
        _remove_network(rec, problems)
    except _netns.NetError as e:
        problems.append(str(e))
    for path in rec.get("key_files", []):
        Path(path).unlink(missing_ok=True)
    for path in rec.get("key_dirs", []):
        with contextlib.suppress(OSError):
            Path(path).rmdir()   # only if empty: the user may have put keys there
    if rec.get("base"):
        shutil.rmtree(rec["base"], ignore_errors=True)
    problems += leftovers(rec)
    if not problems:
        release(rec["tag"])
    return problems


def leftovers(rec):
    """Names, PIDs and paths of REC that still exist."""
    hosts = rec.get("hosts", {}).values()
    found = [f"namespace {n}" for n in _netns.list_netns()
             if n in {h.get("netns") for h in hosts} | set(rec.get("extra_netns", []))]
    mine = {h.get("veth") for h in hosts} | {rec.get("bridge")} | set(rec.get("extra_links", []))
    found += [f"link {n}" for n in _netns.list_links() if n in mine]
    found += [f"sshd {h['sshd']}" for h in hosts if is_our_sshd(h)]
    found += [f"path {p}" for p in [rec.get("base")] + [h.get("etc") for h in hosts]
              if p and os.path.exists(p)]
    return found
