"""bmod -c of a measured job (XCE_EXACT_JOB_PEAK) whose wrapper has not
yet said its pid: the agent cannot reach the job's processes then, so it
moves their per-process CPU limit as soon as it learns their session.
Real processes: a parent standing for GNU time, a session leader under
it standing for the job's wrapper."""

import resource
import subprocess
import sys

from xce.agent.jobs import JobTable
from xce.agent.running import Running

from tests.lib.xcecluster import wait_for

LEADER = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                         start_new_session=True)
sys.stdout.write(f"{child.pid}\\n"); sys.stdout.flush()
child.wait()
"""


def test_a_cpu_limit_changed_before_the_wrapper_is_known_reaches_it(
        tmp_path):
    table = JobTable(tmp_path / "agent", tmp_path / "out", lambda: 0.0)
    timer = subprocess.Popen([sys.executable, "-c", LEADER],
                             stdout=subprocess.PIPE, text=True)
    wrapper = int(timer.stdout.readline())
    try:
        key = (7, 0, 1)
        prefix = str(tmp_path / "7.0.1")
        job = Running(key, {"start_time": 1.0, "stdout": None}, prefix,
                      timer.pid, 0.0, child=False, measured=True)
        table.running[key] = job
        # The wrapper has not written its pid file yet.
        assert table.set_limits({"job": 7, "idx": 0, "attempt": 1,
                                 "cpulimit": 30})
        assert job.group is None
        assert resource.prlimit(wrapper, resource.RLIMIT_CPU)[0] == \
            resource.RLIM_INFINITY
        (tmp_path / "7.0.1.pid").write_text(f"{wrapper}\n")
        wait_for(lambda: table._group(job) == wrapper,
                 what="the wrapper's session")
        assert resource.prlimit(wrapper, resource.RLIMIT_CPU)[0] == 30
        assert job.cpu_retarget is None     # applied once
    finally:
        subprocess.run(["kill", "--", f"-{wrapper}"], check=False)
        timer.kill()
        timer.wait()
