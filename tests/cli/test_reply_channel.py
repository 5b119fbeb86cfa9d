"""The reply channel as two real users see it: one cannot learn the other's
request ids, forge their replies, or block the controller with a FIFO."""

import os
import pwd
import shutil
import subprocess
import tempfile

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import BIN, Cluster, wait_for

NAMES = user_names("r")
users = users_fixture(NAMES)


@pytest.fixture
def shared(users):
    """A cluster every user can reach (pytest's tmp dirs are private)."""
    root = tempfile.mkdtemp(prefix="xce-reply-")
    os.chmod(root, 0o755)
    c = Cluster(root)
    try:
        yield c.start()
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def _as(cluster, user, *argv, **kw):
    return cluster.run(*argv, user=user.name, cwd=user.home, **kw)


def _bsub_as(cluster, user, *argv):
    return subprocess.Popen(
        ["/usr/bin/setpriv", f"--reuid={user.name}", f"--regid={user.name}",
         "--init-groups", "--", str(BIN / "bsub"), *argv],
        cwd=user.home, text=True, env=dict(cluster.env),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _spooled_id(cluster):
    names = wait_for(lambda: os.listdir(cluster.spool / "incoming"),
                     what="the request to be spooled")
    return names[0][:-len(".json")]


def test_users_can_neither_list_request_ids_nor_write_replies(shared, users):
    for place in ("incoming", "tmp", "replies"):
        r = _as(shared, users[1], "ls", str(shared.spool / place))
        assert r.rc != 0 and "Permission denied" in r.err, (place, r)
    forged = shared.spool / "replies" / "00000000000000000001-1-00000001.json"
    r = _as(shared, users[1], "sh", "-c", f"echo '{{}}' > {forged}")
    assert r.rc != 0 and "Permission denied" in r.err
    r = _as(shared, users[1], "mkfifo", str(forged))
    assert r.rc != 0 and "Permission denied" in r.err


def test_a_reply_not_from_the_controller_is_not_believed(shared, users):
    """What another user could once do (replies/ was world-writable): a
    forged reply under the victim's id.  The victim's bsub ignores it and
    prints the controller's true answer."""
    victim, other = users
    shared.kill_controller()
    proc = _bsub_as(shared, victim, "-J", "real", "true")
    req_id = _spooled_id(shared)
    forged = shared.spool / "replies" / f"{req_id}.json"
    forged.write_text('{"ok":true,"jobid":666,"queue":"normal",'
                      '"default":true}')
    os.chown(forged, pwd.getpwnam(other.name).pw_uid, -1)
    shared.start()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "666" not in out
    jobid = int(out.split("<")[1].split(">")[0])
    r = shared.run("bjobs", "-a", "-noheader", "-w", str(jobid))
    assert r.rc == 0 and " real " in r.out


def test_a_garbled_reply_is_one_line_not_a_traceback(shared, users):
    victim = users[0]
    shared.kill_controller()
    proc = _bsub_as(shared, victim, "true")
    req_id = _spooled_id(shared)
    # Only the controller (or root) can write there; say it wrote garbage.
    garbled = shared.spool / "replies" / f"{req_id}.json"
    garbled.write_bytes(b"\x00\xffnot json")
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (255, "")
    assert err.splitlines()[-1] == (f"Request <{req_id}>: the controller's "
                                    "reply cannot be read")
    assert "Traceback" not in err


def test_a_fifo_under_the_temporary_reply_name_does_not_block(shared, users):
    """Users cannot create it any more; even one left there (made by root
    here) is removed, never opened, and the controller answers."""
    victim = users[0]
    shared.kill_controller()
    proc = _bsub_as(shared, victim, "true")
    req_id = _spooled_id(shared)
    os.mkfifo(shared.spool / "replies" / f".{req_id}.tmp")
    shared.start()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.startswith("Job <")
    r = shared.run("xce", "stop", "--envdir", str(shared.envdir))
    assert r.rc == 0 and "xce-controller" in r.out and "stopped" in r.out
    assert shared.proc.wait(timeout=20) == 0
