"""bsub -Ip on this machine, the job on an SSH-reached host in a network
namespace: the job's relay calls bsub back across the hosts' network.
Another real user can neither pose as the job to bsub (to read what is
typed or write to the terminal) nor find the job's key."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect
import pytest

from tests.lib.realusers import real_users, user_names
from tests.lib.xcecluster import BIN, shared_cluster, wait_for

# What the other user runs: connect to each of bsub's addresses, answer
# the greeting for the right job with a made-up proof, then push a "typed"
# line anyway.
# Prints what bsub did with each attempt.
INTRUDER = r'''
import json, socket, struct, sys
jobid = int(sys.argv[1])
for addr in sys.argv[2:]:
    host, _, port = addr.rpartition(":")
    try:
        s = socket.create_connection((host, int(port)), 3)
    except OSError as e:
        print("unreachable", addr, e); continue
    s.settimeout(5)
    greeting = s.recv(200)
    hello = {"job": jobid, "idx": 0, "host": "evil",
             "nonce": "00" * 16, "proof": "ab" * 32}
    try:
        s.sendall(json.dumps(hello).encode() + b"\n")
        s.sendall(b"i" + struct.pack(">I", 9) + b"INJECTED\r")
        rest = s.recv(4096)
        print("closed" if rest == b"" else "answered", addr, rest[:60])
    except OSError as e:
        print("closed", addr, e)
'''


@pytest.fixture(scope="module")
def owner(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    if ssh_hosts.mode != "netns":
        pytest.skip(ssh_hosts.why_no_cut)
    return ssh_hosts.users[0]


@pytest.fixture(scope="module")
def clu(ssh_hosts, owner):
    with shared_cluster("xceia-", ssh_hosts=ssh_hosts, mxj=2) as c:
        yield c


@pytest.fixture(scope="module")
def other(owner):
    with real_users(user_names("ia")[:1]) as made:
        yield made[0]


def _as(user, argv):
    return ["/usr/bin/setpriv", f"--reuid={user.uid}", f"--regid={user.gid}",
            "--init-groups", "--", *argv]


def test_interactive_job_on_a_namespace_host_resists_another_user(
        clu, owner, other):
    work = Path(tempfile.mkdtemp(prefix="w", dir=owner.home))
    os.chown(work, owner.uid, owner.gid)
    wait_for(clu._hosts_ok, timeout=30, what="every host to be ok")
    # Held at first: bsub listens while the job waits, and the other
    # user tries then.
    argv = _as(owner, [str(BIN / "bsub"), "-Ip", "-H", "-m", "xh2",
                       "echo host=$(hostname); read x; echo got=$x; "
                       "exit 7"])
    child = pexpect.spawn(argv[0], argv[1:], env=clu.env, cwd=str(work),
                          timeout=40, encoding="utf-8")
    try:
        child.expect(r"Job <(\d+)> is submitted")
        jobid = int(child.match.group(1))
        child.expect_exact("<<Waiting for dispatch ...>>")
        assert _intrude(clu, jobid, other) == "closed"
        r = clu.run("bresume", str(jobid), user=owner.name, cwd=work)
        assert r.rc == 0, r
        child.expect_exact("<<Starting on xh2>>")
        child.expect_exact("host=xh2")
        # Once the job's relay has called, bsub listens no more.
        assert _intrude(clu, jobid, other) == "unreachable"
        child.sendline("typed")
        child.expect_exact("got=typed")
        child.expect(pexpect.EOF)
        assert "INJECTED" not in child.before
    finally:
        child.close(force=True)
        shutil.rmtree(work, ignore_errors=True)
    assert child.exitstatus == 7
    clu.wait_stat(jobid, "EXIT")


def _intrude(clu, jobid, other):
    """As the other user: bsub turns every false caller away, and the key
    is nowhere that user can read."""
    spec = clu.stored_job(jobid)["spec"]
    addrs = spec["interactive_addrs"]
    r = subprocess.run(_as(other, [sys.executable, "-c", INTRUDER,
                                   str(jobid), *addrs]),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    outcomes = {line.split()[0] for line in r.stdout.splitlines()}
    key_file = clu.spool / "interactive" / str(jobid)
    key = key_file.read_text().strip()
    assert len(key) == 64 and "interactive_key" not in spec
    # Neither the key file nor the request it came in can be read by the
    # other user, and the store every user reads does not hold it.
    r = subprocess.run(_as(other, ["/bin/cat", str(key_file)]),
                       capture_output=True, text=True)
    assert r.returncode != 0 and key not in r.stdout
    store = clu.spool / "store"
    for path in store.iterdir():
        if path.is_file():
            assert key.encode() not in path.read_bytes(), path
    # Every address bsub could be reached at turned the caller away (some
    # are not reachable from this network at all), or none was open.
    return "closed" if outcomes == {"closed", "unreachable"} or \
        outcomes == {"closed"} else "".join(sorted(outcomes))
