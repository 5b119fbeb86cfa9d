"""How long ``xce start`` takes to come back when a host's agent cannot
start (medians of wall time: the controller's start-up, its answer to a
ping, and the wait for the hosts, which ends once the controller has said
why a host cannot be used).

  xce_start_all_usable        this host alone, its agent starts
  xce_start_ssh_refused       this host and one whose sshd refuses the
                              connection
  xce_start_local_agent_ends  this host alone, its agent ends at start-up
                              (its lock file is a directory)

Both failures took 21 s (the whole 20 s bound of the wait, and the
controller said why the local agent ended only after its 5 s launch
grace); about 1 s now, as when every host comes up.
"""

import shutil
import socket
import statistics
import tempfile
import time
from pathlib import Path

from _common import Cluster, emit, note
# after _common, which puts the checkout on sys.path
from tests.lib.xcecluster import add_refused_ssh_host

RUNS = 3


def one(case):
    root = Path(tempfile.mkdtemp(prefix="xce-bench-start-"))
    c = Cluster(root, mxj=2)
    if case == "local_agent_ends":
        (c.spool / "agents" / socket.gethostname() / "agent.lock").mkdir(
            parents=True)
    if case == "ssh_refused":
        add_refused_ssh_host(c)
    try:
        t0 = time.monotonic()
        r = c.run("xce", "start", "--envdir", str(c.envdir))
        took = time.monotonic() - t0
        if r.rc != 0:
            raise RuntimeError(f"xce start failed: {r}")
        return took
    finally:
        c.run("xce", "stop", "--envdir", str(c.envdir))
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def main():
    for case in ("all_usable", "ssh_refused", "local_agent_ends"):
        name = f"xce_start_{case}"
        runs = [one(case) for _ in range(RUNS)]
        note(f"{name}: {', '.join(f'{t:.2f}' for t in runs)} s")
        emit(name, statistics.median(runs), "s")


if __name__ == "__main__":
    main()
