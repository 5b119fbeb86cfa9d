"""Two real unprivileged users: identity, isolation and privilege (invariants 3 and 7)."""

import json
import os
import pwd
import shutil
import tempfile

import pytest

from tests.lib.realusers import users_fixture
from tests.lib.xcecluster import BIN, Cluster, shared_cluster, wait_for

NAMES = [f"xcu{os.getpid() % 100000}a", f"xcu{os.getpid() % 100000}b"]


users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    """A cluster every user can reach (pytest's tmp dirs are private)."""
    with shared_cluster("xce-users-") as c:
        yield c


def _as(shared, user, *argv, **kw):
    return shared.run(*argv, user=user.name, cwd=user.home, **kw)


def _jobid(result):
    assert result.rc == 0, result
    return int(result.out.split("<")[1].split(">")[0])


def test_jobs_run_with_the_users_uid_gid_and_groups(shared, users):
    for user in users:
        jobid = _jobid(_as(shared, user, "bsub", "-o", "id.out",
                           "id -u; id -g; id -G"))
        shared.wait_stat(jobid, "DONE")
        text = open(os.path.join(user.home, "id.out")).read()
        # The report is appended with the user's rights, by another process.
        wait_for(lambda: "Successfully completed." in open(
            os.path.join(user.home, "id.out")).read(), what="the job report")
        lines = text.splitlines()
        pw = pwd.getpwnam(user.name)
        assert lines[0] == str(pw.pw_uid)
        assert lines[1] == str(pw.pw_gid)
        groups = set(lines[2].split())
        assert {str(g) for g in os.getgrouplist(user.name, pw.pw_gid)} == groups
        assert len(groups) >= 2         # the shared supplementary group too


def test_users_see_each_others_jobs_but_cannot_kill_them(shared, users):
    a, b = users
    jobid = _jobid(_as(shared, b, "bsub", "sleep", "60"))
    shared.wait_stat(jobid, "RUN")
    r = _as(shared, a, "bjobs", "-u", "all", "-w")
    assert r.rc == 0 and f"{jobid} " in r.out and b.name in r.out
    r = _as(shared, a, "bkill", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err == f"Job <{jobid}>: User permission denied\n"
    for cmd in ("bstop", "bresume"):
        r = _as(shared, a, cmd, str(jobid))
        assert r.rc == 255 and "User permission denied" in r.err
    assert shared.stat(jobid) == "RUN"
    r = _as(shared, b, "bkill", str(jobid))
    assert (r.rc, r.out) == (0, f"Job <{jobid}> is being terminated\n")
    shared.wait_stat(jobid, "EXIT")


def test_users_explain_only_their_own_pending_jobs(shared, users):
    a, b = users
    jobid = _jobid(_as(shared, b, "bsub", "-R",
                       "select[mem>1000000000000]", "true"))
    r = _as(shared, b, "xce", "explain", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    assert f"Job <{jobid}>, User <{b.name}>" in r.out
    r = _as(shared, a, "xce", "explain", str(jobid))
    assert (r.rc, r.out, r.err) == \
        (255, "", f"Job <{jobid}>: User permission denied\n")
    # The controller checks as well, by the request file's owner.
    code = ("from xce.envdir import Site; from xce.spool.client import call;"
            "import json,sys; print(json.dumps(call(Site(), 'explain', "
            "{'jobid': int(sys.argv[1])}, timeout=20)))")
    r = _as(shared, a, str(BIN / "python"), "-c", code, str(jobid))
    reply = json.loads(r.out)
    assert reply["ok"] is False and reply["code"] == "PERMISSION"
    assert "traces" not in reply
    r = shared.run("xce", "explain", str(jobid))        # root: any job
    assert r.rc == 0 and f"User <{b.name}>" in r.out
    assert _as(shared, b, "bkill", str(jobid)).rc == 0


def test_output_file_is_opened_with_the_users_rights(shared, users):
    a = users[0]
    target = "/root/xce-should-not-exist"
    jobid = _jobid(_as(shared, a, "bsub", "-o", target, "echo leaked"))
    shared.wait_stat(jobid, "DONE")
    assert not os.path.exists(target)


def test_a_uid_field_in_the_request_makes_no_job_run_as_another_user(shared, users):
    """Identity comes from the spool file's owner: a request that names
    another uid (written past the command's own schema check, as a hostile
    user would) is refused by the controller and runs nothing."""
    a = users[0]
    code = ("from xce.envdir import Site; import xce.spool.client as c;"
            "c.check_request = lambda kind, body: None;"
            "import json,sys; r=c.call(Site(), 'submit', {'uid': 0, 'user': "
            "'root', 'spec': {'command': 'id -u > uid.out', 'uid': 0, "
            "'gid': 0, 'nslots': [1, 1], 'cwd': sys.argv[1], 'subcwd': "
            "sys.argv[1], 'env': {}}}, timeout=20); print(json.dumps(r))")
    r = _as(shared, a, str(BIN / "python"), "-c", code, a.home)
    reply = json.loads(r.out)
    assert not reply["ok"], r
    assert "uid" in json.dumps(reply), reply
    assert not os.path.exists(os.path.join(a.home, "uid.out"))
    jobs = _as(shared, a, "bjobs", "-a", "-w", "-u", "all")
    assert "uid.out" not in jobs.out


def test_replies_are_readable_by_their_requester_only(shared, users):
    replies = shared.spool / "replies"
    assert os.stat(replies).st_mode & 0o7777 == 0o711
    # A reply left behind (the requester gave up) is the requester's, 0600.
    from xce.spool.server import Claimed, SpoolServer
    server = SpoolServer(shared.spool)
    req = Claimed(name="x.json", id="00000000000000000009-9-00000009",
                  uid=pwd.getpwnam(users[0].name).pw_uid)
    server.reply(req, {"ok": True})
    st = os.stat(replies / f"{req.id}.json")
    assert (st.st_uid, st.st_mode & 0o777) == (req.uid, 0o600)
    r = _as(shared, users[1], "cat", str(replies / f"{req.id}.json"))
    assert r.rc != 0 and "Permission denied" in r.err


def test_bjobs_works_for_a_user_with_the_controller_stopped(users):
    root = tempfile.mkdtemp(prefix="xce-users-")
    os.chmod(root, 0o755)
    c = Cluster(root).start()
    try:
        a = users[0]
        jobid = _jobid(_as(c, a, "bsub", "true"))
        c.wait_stat(jobid, "DONE")
        c.stop()
        r = _as(c, a, "bjobs", "-a")
        assert r.rc == 0, r
        assert f"{jobid} " in r.out and "DONE" in r.out
        # Without the WAL files (as after a clean close) a read-only open
        # fails; the reader's immutable fallback must answer.
        for suffix in ("-wal", "-shm"):
            (c.spool / "store" / f"xce.db{suffix}").unlink(missing_ok=True)
        r = _as(c, a, "bjobs", "-a")
        assert r.rc == 0, r
        assert f"{jobid} " in r.out and "DONE" in r.out
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)
