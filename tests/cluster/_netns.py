"""Network plumbing for namespace hosts: one bridge, one veth pair per host.

Only addresses this module assigns (on its own bridge and inside its own
namespaces) are ever used.  ip_forward stays as it is and the namespaces get
no default route, so nothing can leave the bridge.
"""

import ipaddress
import json
import os
import shutil
import subprocess

SBIN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Test subnets come out of this pool, one /24 per HostSet, so parallel runs
# (and pytest-xdist workers) each get their own.
POOL = ipaddress.ip_network("10.251.0.0/16")
NETNS_DIR = "/run/netns"


class NetError(RuntimeError):
    pass


def ip_binary():
    return shutil.which("ip", path=SBIN_PATH)


def ip(*args, netns=None, stdin=None, check=True):
    argv = [ip_binary() or "ip"]
    if netns:
        argv += ["-n", netns]
    argv += list(args)
    res = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    if check and res.returncode != 0:
        raise NetError(f"{' '.join(argv)}: {res.stderr.strip()}")
    return res


def batch(lines, netns=None):
    """Run several ip commands in one process; a build costs far less this way."""
    ip("-batch", "-", netns=netns, stdin="\n".join(lines) + "\n")


def probe(name):
    """Return None if namespaces, veth and bridges can be made here, else why not."""
    if os.geteuid() != 0:
        return "not root: network namespaces need CAP_SYS_ADMIN and CAP_NET_ADMIN"
    if not ip_binary():
        return "the ip command (iproute2) is not installed"
    res = ip("netns", "add", name, check=False)
    if res.returncode != 0:
        return f"ip netns add failed: {res.stderr.strip()}"
    ip("netns", "del", name, check=False)
    return None


def list_netns():
    try:
        return os.listdir(NETNS_DIR)
    except FileNotFoundError:
        return []


def list_links():
    return os.listdir("/sys/class/net")


def netns_pids(name):
    res = ip("netns", "pids", name, check=False)
    return [int(p) for p in res.stdout.split() if p.isdigit()]


def _used_networks():
    """Every IPv4 network the root namespace already routes or owns."""
    routes = json.loads(ip("-j", "-4", "route", "show", "table", "all").stdout or "[]")
    used = []
    for r in routes:
        dst = r.get("dst", "default")
        if dst != "default":
            used.append(ipaddress.ip_network(dst, strict=False))
    return used


def pick_subnet():
    """First /24 of the pool that overlaps nothing routed here.  Call it under
    the registry lock and create the bridge before releasing the lock, so two
    runs cannot pick the same one."""
    used = _used_networks()
    for net in POOL.subnets(new_prefix=24):
        if not any(net.overlaps(u) for u in used):
            return net
    raise NetError(f"no free /24 left in {POOL}")


def add_bridge(name, net):
    gw = f"{net[1]}/{net.prefixlen}"
    # addrgenmode none: no IPv6 link-local, so the bridge sends no IPv6 at all.
    batch([f"link add name {name} type bridge",
           f"link set {name} addrgenmode none",
           f"addr add {gw} dev {name}",
           f"link set {name} up"])


def add_host(netns, veth, bridge, addr, prefixlen):
    """Namespace NETNS with eth0=ADDR, wired to BRIDGE through VETH."""
    ip("netns", "add", netns)
    batch([f"link add {veth} type veth peer name eth0 netns {netns}",
           f"link set {veth} addrgenmode none",
           f"link set {veth} master {bridge} up"])
    batch(["link set lo up",
           "link set eth0 addrgenmode none",
           f"addr add {addr}/{prefixlen} dev eth0",
           "link set eth0 up"], netns=netns)


def set_link(name, up):
    ip("link", "set", name, "up" if up else "down")


def delete_netns(name):
    if name in list_netns():
        ip("netns", "del", name)


def delete_link(name):
    if name in list_links():
        ip("link", "del", name)
