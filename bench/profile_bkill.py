"""Profile the controller turn that serves ``bkill 0`` of 10,000 pending jobs.

Not a benchmark (prints a profile, not figures).  The jobs are spooled
into a real cluster as in bench_bkill; then the cluster is stopped and a
Controller is built in this process on the same spool, so the one
``run_once`` that handles the kill request can be profiled alone (no agent
is running: this turn does not need one).

    python bench/profile_bkill.py [N_TOP]
    python bench/profile_bkill.py --client [N_TOP]   # the bkill process

With ``--client`` the cluster keeps running and the ``bkill 0`` command
itself runs under cProfile instead, with the unprofiled turn's share seen
from outside (the command's wall time minus its own profile).
"""

import cProfile
import pstats
import subprocess
import sys
import tempfile
import time

from _common import BIN, cluster, env_for
from _jobs import spool_submit
from bench_throughput import queue_op

JOBS = 10000


def _controller(clu):
    from xce.config import load as config_load
    from xce.controller.main import Controller
    ctl = Controller(config_load.load(clu.envdir), clu.envdir)
    ctl.start()
    ctl.run_once()          # the start-up scheduling pass, not measured
    return ctl


def main(top=20):
    with cluster() as clu:
        queue_op(clu, "qinact")
        spool_submit(clu, JOBS, ["true"])
        clu.stop()
        env_for(clu)
        from xce.spool.client import write_request
        ctl = _controller(clu)
        try:
            write_request(clu.spool, "control", {
                "action": "kill", "all": True, "ids": [], "user": None,
                "queue": None, "name": None, "host": None, "signal": None,
                "force": False})
            prof = cProfile.Profile()
            t0 = time.perf_counter()
            prof.runcall(ctl.run_once)
            print(f"# bkill 0 turn: {time.perf_counter() - t0:.3f} s "
                  "under cProfile")
        finally:
            ctl.store.close()
            ctl.spool.close()
            clu.stop()      # the agent this controller launched outlives it
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats("xce/", top)


def client(top=20):
    with cluster() as clu, tempfile.TemporaryDirectory() as tmp:
        queue_op(clu, "qinact")
        spool_submit(clu, JOBS, ["true"])
        out = f"{tmp}/bkill.prof"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cProfile", "-o", out,
                        str(BIN / "bkill"), "0"], env=clu.env, cwd=clu.root,
                       stdout=subprocess.DEVNULL, check=True)
        print(f"# bkill 0 wall time {time.perf_counter() - t0:.3f} s "
              "(client under cProfile)")
        stats = pstats.Stats(out)
    stats.sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--client"]:
        sys.exit(client(*(int(a) for a in args[1:2])))
    sys.exit(main(*(int(a) for a in args[:1])))
