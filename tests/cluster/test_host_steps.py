"""HOST_PRE_EXEC and HOST_POST_EXEC run on every execution host of a
parallel job (LSF), here two SSH hosts: before the job starts on any of
them, and after it ends; one host's failing HOST_PRE_EXEC keeps the job
from starting, as a failed pre-exec does."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.cluster.test_ssh_cluster import SLOTS
from tests.lib.xcecluster import shared_cluster, wait_for

QUEUES = """\
  hoststeps:
    PRIORITY: 20
    HOST_PRE_EXEC: echo pre $(hostname) $LSB_JOBID >>{log}
    HOST_POST_EXEC: echo post $(hostname) $LSB_JOBID >>{log}
  firstonly:
    PRIORITY: 20
    HOST_PRE_EXEC: test "$(hostname)" = "${{LSB_HOSTS%% *}}"
    LOCAL_MAX_PREEXEC_RETRY: 1
    LOCAL_MAX_PREEXEC_RETRY_ACTION: EXIT
"""


@pytest.fixture(scope="module")
def hsclu(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    work = Path(tempfile.mkdtemp(prefix="w", dir=ssh_hosts.users[0].home))
    log = work / "steps.log"
    with shared_cluster("xcehs-", ssh_hosts=ssh_hosts, mxj=SLOTS,
                        extra_queues=QUEUES.format(log=log)) as c:
        wait_for(c._hosts_ok, timeout=40, what="every host to be ok")
        yield c, work, log
    shutil.rmtree(work, ignore_errors=True)


def _lines(path):
    try:
        return path.read_text().splitlines()
    except FileNotFoundError:
        return []


def _submit(clu, work, queue, command):
    r = clu.run("bsub", "-q", queue, "-n", "2", "-R", "span[ptile=1]",
                "-m", "xh1 xh2", "-o", f"{work}/%J.out", command)
    assert r.rc == 0, r
    return int(r.out.split("<", 1)[1].split(">", 1)[0])


def test_host_steps_run_on_every_host_of_a_parallel_job(hsclu):
    clu, work, log = hsclu
    jobid = _submit(clu, work, "hoststeps",
                    f"echo job $(hostname) $LSB_JOBID >>{log}")
    clu.wait_stat(jobid, "DONE", "EXIT", timeout=60)
    try:
        wait_for(lambda: len([x for x in _lines(log)
                              if x.endswith(f" {jobid}")]) == 5,
                 timeout=30, what="two pre, the job, two post")
    except AssertionError:
        raise AssertionError(f"{_lines(log)}\n"
                             f"{clu.run('bjobs', '-l', str(jobid)).out}\n"
                             f"{clu.log_tail()[-3000:]}")
    mine = [x.split()[:2] for x in _lines(log) if x.endswith(f" {jobid}")]
    assert clu.stat(jobid) == "DONE"
    # Both hosts' HOST_PRE_EXEC before the job, both HOST_POST_EXEC after.
    assert sorted(map(tuple, mine[:2])) == [("pre", "xh1"), ("pre", "xh2")]
    assert mine[2][0] == "job"
    assert sorted(map(tuple, mine[3:])) == [("post", "xh1"),
                                            ("post", "xh2")]


def test_a_failing_host_pre_exec_on_another_host_keeps_the_job_off(hsclu):
    clu, work, _ = hsclu
    ran = work / "ran"
    jobid = _submit(clu, work, "firstonly", f"touch {ran}")
    # It fails on the second host: one try (LOCAL_MAX_PREEXEC_RETRY: 1,
    # action EXIT), and the job never ran on the first.
    clu.wait_stat(jobid, "EXIT", timeout=60)
    assert not ran.exists()
    assert clu.proc.poll() is None
