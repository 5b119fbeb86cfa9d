"""N SSH-reachable test hosts on this one machine.

Namespace mode (root, netns works): each host is a network namespace wired
to a per-run bridge, with its own sshd, hostname (UTS namespace), /etc/hosts
and an empty root home.  Loopback mode (fallback): one sshd per host on
127.0.0.N with its own port; hosts share everything but the address, and a
link cannot be cut.  See ../../shared/reference/test-hosts.md for the
measurements behind the choices here.

    with build_hosts(3, tmp_path) as hs:
        addr, port = hs.hosts["xh1"]
        hs.cut("xh2"); ...; hs.restore("xh2")
"""

import copy
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

from tests.cluster import _netns, _procs, _registry, _sshd
from tests.cluster._hostfiles import authorize, write_client_files, write_etc

NAME_OK = re.compile(r"^[a-z][a-z0-9-]{0,30}$")
MAX_HOSTS = 99              # two digits of host index keep veth names within 15 chars
SETUP_TIMEOUT = 10.0        # per sshd, to start listening


class HostsError(RuntimeError):
    pass


def unavailable_reason():
    """Why test hosts cannot be built here at all, or None."""
    if os.geteuid() != 0:
        return "test hosts need root (sshd must log in as root and as test users)"
    for tool, found in [("sshd (openssh-server)", _sshd.sshd_binary()),
                        ("ssh-keygen", _sshd.keygen_binary()),
                        ("ip (iproute2)", _netns.ip_binary()),
                        ("unshare (util-linux)", shutil.which("unshare"))]:
        if not found:
            return f"{tool} is not installed; run tests/install-deps.sh"
    return None


def cleanup_stale():
    """Remove what crashed earlier runs left; return their tags."""
    tags = []
    # One cleaner at a time: parallel runs starting together see the same
    # leftovers, and two teardowns of one record trip over each other.
    with _registry.locked("stale"):
        for rec in _registry.stale_records():
            problems = _registry.destroy(rec)
            if problems:
                warnings.warn(f"stale test hosts {rec['tag']}: could not remove {problems}")
            tags.append(rec["tag"])
    return tags


def build_hosts(n, workdir, users=(), names=None, mode="auto"):
    """Build N hosts under WORKDIR; USERS (existing accounts) may log in too.

    MODE is "auto" (namespaces if the probe works, else loopback), "netns"
    (fail if namespaces are unavailable) or "loopback".
    """
    names = list(names or [f"xh{i}" for i in range(1, n + 1)])
    if len(names) != n or not 1 <= n <= MAX_HOSTS or len(set(names)) != n:
        raise ValueError(f"need 1..{MAX_HOSTS} distinct names, got {names!r}")
    bad = [x for x in names if not NAME_OK.match(x)]
    if bad or mode not in ("auto", "netns", "loopback"):
        raise ValueError(f"bad host names {bad} or mode {mode!r}")
    cleanup_stale()
    hs = HostSet(_registry.claim_tag())
    try:
        hs._build(names, Path(workdir).resolve(), list(users), mode)
    except BaseException:
        hs.teardown(check=False)
        raise
    return hs


class HostSet:
    """Hosts of one build.  Attributes: hosts {name: (addr, port)}, mode,
    why_no_cut, client_key, known_hosts, ssh_config (OpenSSH client file),
    tag, base (the work directory this set owns)."""

    def __init__(self, rec):
        self._rec, self._popens, self._done = rec, {}, False
        self.tag = rec["tag"]
        self.mode, self.why_no_cut, self.base = None, None, None

    # -- building -----------------------------------------------------------

    def _build(self, names, workdir, users, mode):
        reason = "loopback mode was requested" if mode == "loopback" else \
            _netns.probe(f"xt{self.tag}p")
        if reason and mode == "netns":
            raise HostsError(f"namespace hosts unavailable: {reason}")
        self.mode = "loopback" if reason else "netns"
        self.why_no_cut = reason and f"loopback hosts have no link to cut ({reason})"
        self.base = workdir / f"xhosts-{self.tag}"
        self.base.mkdir(parents=True)
        self._rec.update(mode=self.mode, base=str(self.base))
        self._save()
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)   # sshd refuses to start without it
        self.client_key = self.base / "client_key"
        client_pub = _sshd.keygen(self.client_key, f"xce-test-{self.tag}")
        plan = self._plan(names)
        for name, (addr, port) in plan.items():
            self._make_host(name, addr, port, plan)
        self.known_hosts, self.ssh_config = write_client_files(self)
        self._rec["key_files"], self._rec["key_dirs"] = \
            authorize(self, client_pub, ["root"] + users)
        self._save()
        self._start_all()

    def _plan(self, names):
        """Address and port of every host, decided before any host exists."""
        if self.mode == "loopback":
            addrs = [f"127.0.0.{10 + i}" for i in range(len(names))]
            return {x: (a, _sshd.free_port(a)) for x, a in zip(names, addrs)}
        bridge = f"xb{self.tag}"
        self._rec["bridge"] = bridge
        self._save()
        with _registry.locked():   # pick and claim the subnet atomically
            net = _netns.pick_subnet()
            _netns.add_bridge(bridge, net)
        self._rec["subnet"] = str(net)
        return {x: (str(net[10 + i]), 22) for i, x in enumerate(names, 1)}

    def _make_host(self, name, addr, port, plan):
        i = list(plan).index(name) + 1
        d = self.base / name
        (d / "root").mkdir(parents=True)
        h = {"addr": addr, "port": port, "cfg": str(d / "sshd_config"), "dir": str(d)}
        self._rec["hosts"][name] = h
        if self.mode == "netns":
            h.update(netns=f"xt{self.tag}h{i}", veth=f"xv{self.tag}h{i}",
                     etc=str(_registry.ETC_NETNS / f"xt{self.tag}h{i}"))
            self._save()    # record names before creating them, so a crash is cleaned up
            _netns.add_host(h["netns"], h["veth"], self._rec["bridge"], addr,
                            int(self._rec["subnet"].split("/")[1]))
            write_etc(Path(h["etc"]), d / "root", plan)
        _sshd.keygen(d / "host_ed25519", name)
        _sshd.write_config(h["cfg"], addr, port, d / "host_ed25519",
                           f".ssh/xce-{self.tag}.keys", f"{self.base}/authorized/%u")

    def _start_all(self):
        """Start every sshd first, then wait for each: they come up in parallel."""
        for name in self._rec["hosts"]:
            self._start(name)
        for name in self._rec["hosts"]:
            self._wait(name)

    def _start(self, name):
        h = self._rec["hosts"][name]
        log = Path(h["dir"]) / "sshd.log"
        if self.mode == "netns":
            p = _sshd.start_in_netns(h["netns"], name, h["cfg"], log)
        else:
            p = _sshd.start_plain(h["cfg"], log)
        self._popens[name] = p
        h["sshd"] = p.pid
        self._save()

    def _wait(self, name):
        h = self._rec["hosts"][name]
        _sshd.wait_ready(self._popens[name], h["addr"], h["port"],
                         Path(h["dir"]) / "sshd.log", SETUP_TIMEOUT)

    def _save(self):
        _registry.save(self._rec)

    # -- using --------------------------------------------------------------

    @property
    def hosts(self):
        return {x: (h["addr"], h["port"]) for x, h in self._rec["hosts"].items()}

    def _host(self, name):
        try:
            return self._rec["hosts"][name]
        except KeyError:
            raise HostsError(f"no host {name!r} in this set") from None

    def cut(self, name):
        """Take NAME's link down: packets to and from it vanish silently."""
        self._set_link(name, False)

    def restore(self, name):
        self._set_link(name, True)

    def _set_link(self, name, up):
        h = self._host(name)
        if self.mode != "netns":
            raise HostsError(self.why_no_cut)
        _netns.set_link(h["veth"], up)

    def command(self, name, argv):
        """ARGV wrapped to run inside host NAME (its network, hostname and
        /etc files), for callers that want their own Popen."""
        h = self._host(name)
        if self.mode != "netns":
            return list(argv)
        return [_netns.ip_binary(), "netns", "exec", h["netns"], "unshare", "--uts",
                "/bin/sh", "-c", 'hostname "$0" && exec "$@"', name, *argv]

    def run(self, name, argv, **kwargs):
        """Run ARGV inside host NAME; keyword arguments go to subprocess.run
        (default: capture text, 30 s timeout)."""
        kwargs = {"capture_output": True, "text": True, "timeout": 30, **kwargs}
        return subprocess.run(self.command(name, argv), **kwargs)

    def pids(self, name):
        """PIDs running on host NAME (its sshd and everything started through it)."""
        h = self._host(name)
        if self.mode == "netns":
            return _netns.netns_pids(h["netns"])
        return [h["sshd"]] + _registry.loopback_pids({"hosts": {name: h}})

    def crash(self, name):
        """Kill -9 everything on host NAME, its sshd included, like a power
        cut: open sessions end at once, new connections are refused."""
        left = _procs.kill_and_wait(self.pids(name))
        self._popens[name].wait(5)      # our own child: reap it
        if left:
            raise HostsError(f"processes {left} on {name} survived SIGKILL")

    def boot(self, name):
        """Start NAME's sshd again after crash(); same keys and address."""
        if self._popens[name].poll() is None:
            raise HostsError(f"{name} is up")
        self._start(name)
        self._wait(name)

    def record(self):
        """A copy of what this set created: names, PIDs and paths."""
        return copy.deepcopy(self._rec)

    # -- tearing down -------------------------------------------------------

    def teardown(self, check=True):
        """Stop the sshds and everything in the hosts, delete namespaces,
        links, bridge, /etc/netns entries, key files and the work directory."""
        if self._done:
            return
        self._done = True
        problems = _registry.destroy(self._rec, self._popens)
        if problems and check:
            raise HostsError(f"teardown of {self.tag} left: {problems}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.teardown(check=exc[0] is None)
