"""Who runs pre- and post-execution commands, with real users: a user's
own -E/-Ep always as that user; the queue's PRE_EXEC/POST_EXEC as
PRE_POST_EXEC_USER when set (else the job's user); HOST_PRE_EXEC and
HOST_POST_EXEC as PRE_POST_EXEC_USER, else root.  Run under the
real-users lock."""

import os
import tempfile

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("pp")
users = users_fixture(NAMES)


def _queues(where, other):
    def steps(tag):
        return "".join(
            f"    {key}: id -un > {where}/{tag}.{key.lower()}.$LSB_JOBID\n"
            for key in ("HOST_PRE_EXEC", "PRE_EXEC", "POST_EXEC",
                        "HOST_POST_EXEC"))
    return (f"  asother:\n    PRIORITY: 35\n    PRE_POST_EXEC_USER: {other}\n"
            + steps("asother") +
            "  asroot:\n    PRIORITY: 35\n    PRE_POST_EXEC_USER: root\n"
            + steps("asroot") +
            "  plain:\n    PRIORITY: 35\n" + steps("plain"))


@pytest.fixture(scope="module")
def where():
    path = tempfile.mkdtemp(prefix="xce-pp-")
    os.chmod(path, 0o1777)
    yield path


@pytest.fixture(scope="module")
def shared(users, where):
    with shared_cluster("xce-pp-", extra_queues=_queues(
            where, users[1].name)) as c:
        yield c


def _who(where, name):
    path = os.path.join(where, name)
    wait_for(lambda: os.path.exists(path) and open(path).read().strip(),
             what=path)
    return open(path).read().strip()


@pytest.mark.parametrize("queue", ["asother", "asroot", "plain"])
def test_each_step_runs_as_lsf_says(shared, users, where, queue):
    owner, other = users
    mine = f"id -un > {where}/{queue}.job_%s.$LSB_JOBID"
    r = shared.run("bsub", "-q", queue, "-E", mine % "pre",
                   "-Ep", mine % "post", "true",
                   user=owner.name, cwd=owner.home)
    assert (r.rc, r.err) == (0, ""), r
    jobid = r.out.split("<", 1)[1].split(">", 1)[0]
    queue_user = {"asother": other.name, "asroot": "root",
                  "plain": owner.name}[queue]
    host_user = {"asother": other.name}.get(queue, "root")
    expected = {"host_pre_exec": host_user, "pre_exec": queue_user,
                "job_pre": owner.name, "job_post": owner.name,
                "post_exec": queue_user, "host_post_exec": host_user}
    seen = {step: _who(where, f"{queue}.{step}.{jobid}")
            for step in expected}
    assert seen == expected


def test_a_users_pre_exec_never_gets_root(shared, users, where):
    """The queue runs its own commands as root; the user's -E still runs
    as the user, so it cannot write where only root may."""
    owner = users[0]
    probe = "/root/xce-prepost-probe"
    r = shared.run("bsub", "-q", "asroot", "-E", f"touch {probe}",
                   "true", user=owner.name, cwd=owner.home)
    assert r.rc == 0, r
    jobid = r.out.split("<", 1)[1].split(">", 1)[0]
    wait_for(lambda: "pre-exec command exited with non-zero" in
             shared.run("bhist", "-l", jobid).joined,
             what="the failed pre-exec")
    assert not os.path.exists(probe)
    assert shared.run("bkill", jobid, user=owner.name).rc == 0


def test_outdir_is_made_with_the_users_rights_and_never_as_root(
        shared, users):
    """bsub -outdir is made by the job's wrapper as the job's user, mode
    700 as LSF makes it; where only root may write, nothing is made."""
    import pwd
    owner = users[0]
    r = shared.run("bsub", "-q", "plain", "-outdir", f"{owner.home}/od%J",
                   "-o", "out", "echo made", user=owner.name, cwd=owner.home)
    assert (r.rc, r.err) == (0, ""), r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    shared.wait_stat(jobid, "DONE")
    made = os.stat(f"{owner.home}/od{jobid}")
    assert (made.st_uid, made.st_mode & 0o777) == (
        pwd.getpwnam(owner.name).pw_uid, 0o700)
    assert open(f"{owner.home}/od{jobid}/out").read().startswith("made")
    probe = "/root/xce-outdir-probe"
    r = shared.run("bsub", "-q", "plain", "-outdir", probe, "-o", "out",
                   "true", user=owner.name, cwd=owner.home)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    shared.wait_stat(jobid, "DONE", "EXIT")
    assert not os.path.exists(probe)
