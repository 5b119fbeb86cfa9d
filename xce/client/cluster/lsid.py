"""lsid and lsclusters: the cluster's name, its master and its version."""

import socket

from xce import LSF_COMPAT_VERSION, __version__
from xce.model import states

# lsf.conf key the controller writes with the cluster's name.
CLUSTER_KEY = "XCE_CLUSTER_NAME"


def lsid_text(meta, site):
    """lsid's lines.  Line 1 keeps IBM's shape: Toil extracts the version
    with ``IBM Spectrum LSF Standard (.*),``, so it holds exactly one comma."""
    cluster = meta.get("cluster") or site.conf.get(CLUSTER_KEY, "")
    master = meta.get("master") or socket.gethostname()
    return "\n".join([
        f"IBM Spectrum LSF Standard {LSF_COMPAT_VERSION}, xce {__version__}",
        "xce is an LSF-compatible batch system; it is not IBM software.",
        f"It reproduces the commands and formats of LSF {LSF_COMPAT_VERSION}.",
        "",
        f"My cluster name is {cluster}",
        f"My master name is {master}",
    ])


LSCLUSTERS_WIDTHS = (14, 8, 22, 8, 8, 8)


def lsclusters_text(meta, hosts, site, wide=False):
    """One cluster: its name first on line 2 (Snakemake reads that token)."""
    cluster = meta.get("cluster") or site.conf.get(CLUSTER_KEY, "")
    master = meta.get("master") or socket.gethostname()
    admin = (meta.get("admins") or "root").split()[0]
    status = states.CLUSTER_OK if hosts else states.CLUSTER_UNKNOWN
    servers = len(hosts)
    w = LSCLUSTERS_WIDTHS
    head = ("CLUSTER_NAME", "STATUS", "MASTER_HOST", "ADMIN", "HOSTS",
            "SERVERS")
    title = (f"{head[0]:<{w[0]}} {head[1]:<{w[1]}} {head[2]:<{w[2]}} "
             f"{head[3]:>{w[3]}} {head[4]:>{w[4]}} {head[5]:>{w[5]}}")
    fit = (lambda s, n: f"{s:<{n}}") if wide else \
        (lambda s, n: f"{s:<{n}.{n}}")
    row = (f"{fit(cluster, w[0])} {fit(status, w[1])} {fit(master, w[2])} "
           f"{admin:>{w[3]}} {len(hosts):>{w[4]}} {servers:>{w[5]}}")
    return f"{title}\n{row}"
