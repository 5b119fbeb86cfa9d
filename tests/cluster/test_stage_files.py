"""bsub -f between hosts that share no file system: the job runs on an
SSH host in a network namespace whose working directory is a tmpfs
mounted only inside that host's mount namespace, and the submission
directory is hidden there under an empty tmpfs.  So the only way a file
gets in or out is xce's own channel (bsub -> spool -> controller -> SSH
link -> agent, and back).  Run it under flock /tmp/xce-realusers.lock."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.cluster import sshclient
from tests.lib.xcecluster import BIN, shared_cluster, wait_for

HOST = "xh1"


@pytest.fixture(scope="module")
def user(ssh_hosts):
    if not ssh_hosts.users or ssh_hosts.mode != "netns":
        pytest.skip("needs namespace hosts and test users (root)")
    return ssh_hosts.users[0]


@pytest.fixture(scope="module")
def clu(ssh_hosts, user):
    with shared_cluster("xcestage-", ssh_hosts=ssh_hosts, mxj=2) as c:
        yield c


@pytest.fixture
def apart(ssh_hosts, user, clu):
    """(submission dir, the execution host's job dir, run on HOST): the
    first is hidden on HOST, the second exists only on HOST."""
    sub = Path(tempfile.mkdtemp(prefix="s", dir=user.home))
    os.chown(sub, user.uid, user.gid)
    far = Path(tempfile.mkdtemp(prefix="xcefar"))
    os.chmod(far, 0o755)
    ssh = sshclient.connect(ssh_hosts, HOST)

    def on_host(cmd):
        status, out, err = sshclient.run(ssh, cmd)
        assert status == 0, (cmd, out, err)
        return out

    on_host(f"mount -t tmpfs -o mode=0755 xcefar {far} && "
            f"chown {user.uid}:{user.gid} {far} && "
            f"mount -t tmpfs -o mode=0755 xcesub {sub}")
    wait_for(clu._hosts_ok, timeout=30, what="every host to be ok")
    try:
        yield sub, far, on_host
    finally:
        on_host(f"umount {sub}; umount {far}; true")
        ssh.close()
        for path in (sub, far):
            shutil.rmtree(path, ignore_errors=True)


def _submit(clu, user, sub, *argv):
    r = clu.run("bsub", "-m", HOST, *argv, user=user.name, cwd=sub)
    assert r.rc == 0 and "is submitted" in r.out, r
    return int(r.out.split("<", 1)[1].split(">", 1)[0])


def _long(clu, jobid, command="bjobs"):
    r = clu.run(command, "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.joined


def test_files_travel_both_ways_between_hosts_that_share_nothing(
        clu, user, apart):
    sub, far, on_host = apart
    (sub / "in.txt").write_text("payload\n")
    (sub / "acc.log").write_text("first\n")
    for path in sub.iterdir():
        os.chown(path, user.uid, user.gid)
    assert on_host(f"ls -A {sub}") == ""        # hidden on the host
    jobid = _submit(clu, user, sub, "-cwd", str(far), "-o", "job.out",
                    "-f", "in.txt > data.txt", "-f", "res.%J < res",
                    "-f", "acc.log << res", "-f", "job.out <",
                    "tr a-z A-Z < data.txt > res; echo ran on $(hostname)")
    clu.wait_stat(jobid, "DONE", timeout=60)
    assert wait_for(lambda: (sub / f"res.{jobid}").exists() and
                    (sub / f"res.{jobid}").read_text(), timeout=20,
                    what="the copy back") == "PAYLOAD\n"
    assert (sub / "acc.log").read_text() == "first\nPAYLOAD\n"
    out = (sub / "job.out").read_text()
    assert out.startswith(f"ran on {HOST}\n") and "Successfully completed." \
        in out, out          # the output with its job report
    assert os.stat(sub / f"res.{jobid}").st_uid == user.uid
    # The job's files exist on the execution host only.
    assert list(far.iterdir()) == []
    assert sorted(on_host(f"ls {far}").split()) == \
        ["data.txt", "job.out", "res"]
    text = _long(clu, jobid)
    assert ('Copy Files "in.txt > data.txt" "res.%J < res" '
            '"acc.log << res" "job.out < job.out"') in text


def test_copies_back_land_in_the_outdir_directory(clu, user, apart):
    sub, far, on_host = apart
    jobid = _submit(clu, user, sub, "-cwd", str(far), "-outdir", "o.%J",
                    "-f", "r.%I < res", "-f", f"{sub}/abs < res",
                    "echo out > res")
    clu.wait_stat(jobid, "DONE", timeout=60)
    got = sub / f"o.{jobid}" / "r.0"
    assert wait_for(lambda: got.exists() and got.read_text(), timeout=20,
                    what="the copy into the outdir") == "out\n"
    assert oct(os.stat(got.parent).st_mode & 0o777) == "0o700"
    assert os.stat(got.parent).st_uid == user.uid
    assert wait_for(lambda: (sub / "abs").exists(), timeout=20,
                    what="the absolute copy")


def test_failed_copies_are_told_and_the_daemons_go_on(clu, user, apart):
    sub, far, on_host = apart
    (sub / "in.txt").write_text("x\n")
    os.chown(sub / "in.txt", user.uid, user.gid)
    jobid = _submit(clu, user, sub, "-cwd", str(far),
                    "-f", "in.txt > nodir/in.txt", "touch ran")
    clu.wait_stat(jobid, "EXIT", timeout=60)
    assert "ran" not in on_host(f"ls {far}").split()
    text = _long(clu, jobid)
    assert "Unable to copy file <in.txt> on submission host <" in text
    assert ("to <nodir/in.txt> on execution host: Directory nonexistent"
            in text), text
    assert "Unable to copy file <in.txt>" in _long(clu, jobid, "bhist")
    # A copy back to a place the user may not write, and a missing
    # remote file: the job's own state stands, each failure is told.
    os.chmod(sub, 0o555)
    try:
        jobid = _submit(clu, user, sub, "-cwd", str(far), "-f", "o < o",
                        "-f", "n < none", "echo hi > o")
        clu.wait_stat(jobid, "DONE", timeout=60)
        want = f"Unable to copy file <o> to <{sub}/o> on submission host"
        wait_for(lambda: want in _long(clu, jobid), timeout=20, what=want)
    finally:
        os.chmod(sub, 0o755)
    text = _long(clu, jobid)
    assert "Permission denied" in text
    assert (f"Unable to copy file <none> to <{sub}/n> on submission host"
            in text)
    assert clu.proc.poll() is None
    jobid = _submit(clu, user, sub, "-cwd", str(far), "true")
    clu.wait_stat(jobid, "DONE", timeout=60)


def test_bpeek_shows_output_that_is_only_on_the_execution_host(
        clu, user, apart):
    sub, far, on_host = apart
    jobid = _submit(clu, user, sub, "-cwd", str(far), "-o", "job.out",
                    "-e", "job.err", "echo started; echo oops >&2; "
                    "while [ ! -e go ]; do sleep 0.1; done; echo after")
    clu.wait_stat(jobid, "RUN", timeout=60)
    wait_for(lambda: "started" in on_host(f"cat {far}/job.out"),
             timeout=20, what="the job's first line")
    assert not (far / "job.out").exists()       # not on this host
    r = clu.run("bpeek", str(jobid), user=user.name, cwd=sub)
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == ("<< output from stdout >>\nstarted\n\n"
                     "<< output from stderr >>\noops\n"), r
    other = subprocess.run(
        ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
         "--clear-groups", str(BIN / "bpeek"), str(jobid)],
        capture_output=True, text=True, cwd="/", env=clu.env, timeout=60)
    assert other.returncode == 255 and \
        "User permission denied" in other.stderr, other
    on_host(f"touch {far}/go")
    clu.wait_stat(jobid, "DONE", timeout=60)
    r = clu.run("bpeek", str(jobid), user=user.name, cwd=sub)
    assert (r.rc, r.out, r.err.strip()) == \
        (255, "", f"Job <{jobid}> : Already finished."), r
