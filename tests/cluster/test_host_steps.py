"""HOST_PRE_EXEC and HOST_POST_EXEC run on every execution host of a
parallel job (LSF), here two SSH hosts: before the job starts on any of
them, and after it ends; one host's failing HOST_PRE_EXEC keeps the job
from starting, as a failed pre-exec does.  An application profile's
host steps run there too, in LSF's order among the queue's and the job's
steps, as root or as the queue's PRE_POST_EXEC_USER."""

import os
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
# Each step logs: its name, its host, its user and its job.
STEP = "echo {name} $(hostname) $(id -un) $LSB_JOBID >>{log}"
ORDERED = """\
  {queue}:
    PRIORITY: 20
    HOST_PRE_EXEC: {qhpre}
    PRE_EXEC: {qpre}
    POST_EXEC: {qpost}
    HOST_POST_EXEC: {qhpost}
"""
APPS = """\
applications:
  hostapp:
    HOST_PRE_EXEC: {ahpre}
    PRE_EXEC: {apre}
    POST_EXEC: {apost}
    HOST_POST_EXEC: {ahpost}
"""


@pytest.fixture(scope="module")
def hsclu(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    work = Path(tempfile.mkdtemp(prefix="w", dir=ssh_hosts.users[0].home))
    log = work / "steps.log"
    user = ssh_hosts.users[0]
    # The profile's steps log where the job's user and root both write.
    shared = Path(tempfile.mkdtemp(prefix="s", dir=user.home))
    os.chown(shared, user.uid, user.gid)
    ordered_log = shared / "ordered.log"
    ordered_log.touch()
    os.chown(ordered_log, user.uid, user.gid)
    steps = {name: STEP.format(name=name, log=ordered_log) for name in (
        "qhpre", "qpre", "qpost", "qhpost", "ahpre", "apre", "apost",
        "ahpost")}
    queues = QUEUES.format(log=log) + \
        ORDERED.format(queue="ordered", **steps) + \
        ORDERED.format(queue="ordereduser", **steps) + \
        f"    PRE_POST_EXEC_USER: {user.name}\n"
    with shared_cluster("xcehs-", ssh_hosts=ssh_hosts, mxj=SLOTS,
                        extra_queues=queues,
                        extra=APPS.format(**steps)) as c:
        wait_for(c._hosts_ok, timeout=40, what="every host to be ok")
        c.ordered = (shared, ordered_log, user)
        yield c, work, log
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(shared, ignore_errors=True)


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


def _ordered_run(clu, queue, user):
    """The steps (name, host, user) of a two-host job of *user* (None:
    root) in *queue* with the profile hostapp and its own -E and -Ep."""
    shared, log, _ = clu.ordered
    argv = ["bsub", "-q", queue, "-app", "hostapp", "-n", "2", "-R",
            "span[ptile=1]", "-m", "xh1 xh2", "-o", f"{shared}/%J.out",
            "-E", STEP.format(name="epre", log=log),
            "-Ep", STEP.format(name="epost", log=log),
            STEP.format(name="job", log=log)]
    r = clu.run(*argv, user=user, cwd=shared)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    clu.wait_stat(jobid, "DONE", "EXIT", timeout=60)
    mine = lambda: [tuple(x.split()[:3]) for x in _lines(log)
                    if x.endswith(f" {jobid}")]
    wait_for(lambda: len(mine()) == 15, timeout=30,
             what=f"every step of job {jobid}: {mine()}")
    assert clu.stat(jobid) == "DONE"
    return mine()


def _check_order(steps, host_user, queue_user, job_user):
    """LSF's order: on every host the queue's HOST_PRE_EXEC, then the
    profile's; on the first host the queue's PRE_EXEC, the profile's,
    -E, the job, -Ep, the profile's POST_EXEC, the queue's; then on
    every host the profile's HOST_POST_EXEC, then the queue's."""
    first = [s for s in steps if s[0] == "job"][0][1]
    other = ({"xh1", "xh2"} - {first}).pop()
    who = {"qhpre": host_user, "ahpre": host_user, "qpre": queue_user,
           "apre": job_user, "epre": job_user, "job": job_user,
           "epost": job_user, "apost": job_user, "qpost": queue_user,
           "ahpost": host_user, "qhpost": host_user}
    on_first = ["qhpre", "ahpre", "qpre", "apre", "epre", "job", "epost",
                "apost", "qpost", "ahpost", "qhpost"]
    assert [s for s in steps if s[1] == first] == \
        [(name, first, who[name]) for name in on_first], steps
    assert [s for s in steps if s[1] == other] == \
        [(name, other, who[name]) for name in ("qhpre", "ahpre", "ahpost",
                                               "qhpost")], steps
    # Every host's pre-steps before the job, its post-steps after.
    names = [s[0] for s in steps]
    assert max(i for i, n in enumerate(names) if n.endswith("hpre")) < \
        names.index("job") < \
        min(i for i, n in enumerate(names) if n.endswith("hpost")), steps


def test_a_profiles_host_steps_run_as_root_on_every_host_in_order(hsclu):
    clu, _, _ = hsclu
    user = clu.ordered[2].name
    _check_order(_ordered_run(clu, "ordered", user), host_user="root",
                 queue_user=user, job_user=user)


def test_a_profiles_host_steps_run_as_the_pre_post_exec_user(hsclu):
    clu, _, _ = hsclu
    user = clu.ordered[2].name
    _check_order(_ordered_run(clu, "ordereduser", None), host_user=user,
                 queue_user=user, job_user="root")
