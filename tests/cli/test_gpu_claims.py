"""Standalone GPU claims end to end, as two real users and root (an
administrator) on a virtual host with two declared devices: a claim
keeps another user's jobs off its device even when the device is idle,
its owner's job takes it, a controller restart keeps the claims (the
standalone one and the running job's), removing the claim frees the
device, and bad claims are refused with one line while the controller
goes on.  Run under the real-users lock."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("gc")
GPUS = """\
gpus:
  - {model: TeslaV100, memory: 16G}
  - {model: TeslaV100, memory: 16G}
"""
EXCL = "num=1:mode=exclusive_process"

users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    with shared_cluster("xce-gc-", mxj=4, virtual_hosts=["vh000"],
                        host_extra=GPUS) as c:
        yield c


def _devices(cluster, jobid):
    return cluster.stored_job(jobid)["spec"]["gpu_alloc"]["hosts"]


def _claims(cluster):
    """{claim id: (user, host, gpus)} as xce claim list shows them."""
    r = cluster.run("xce", "claim", "list")
    assert r.rc == 0, r
    return {f[0]: tuple(f[1:4]) for f in
            (line.split() for line in r.out.splitlines()[1:])}


def test_a_claim_holds_its_device_for_its_user_alone(shared, users):
    ann, bob = users

    def sub(user, *argv):
        return shared.submit("-gpu", EXCL, *argv, "sleep 60",
                             user=user.name, cwd=user.home)

    r = shared.run("xce", "claim", "add", "--user", ann.name, "--host",
                   "vh000", "--gpus", "1")
    assert r.rc == 0 and r.out.startswith("Claim <"), r
    cid = r.out.split("<")[1].split(">")[0]
    assert _claims(shared) == {cid: (ann.name, "vh000", "1")}
    b1, b2 = sub(bob), sub(bob)
    shared.wait_stat(b1, "RUN")
    assert _devices(shared, b1) == {"vh000": [0]}
    # Device 1 is free but claimed: bob's second job waits for a GPU.
    wait_for(lambda: "Not enough free GPUs" in
             shared.run("bjobs", "-p", str(b2)).out, what="b2's reason")
    a1 = sub(ann)
    shared.wait_stat(a1, "RUN")
    assert _devices(shared, a1) == {"vh000": [1]}
    assert _claims(shared) == {
        cid: (ann.name, "vh000", "1"), f"job:{b1}": (bob.name, "vh000", "0"),
        f"job:{a1}": (ann.name, "vh000", "1")}
    # A restarted controller keeps both kinds of claim.
    before = _claims(shared)
    shared.kill_controller()
    shared.start()
    assert _claims(shared) == before
    # ann's job ends: the device is idle, and still not bob's.
    assert shared.run("bkill", str(a1)).rc == 0
    shared.wait_stat(a1, "EXIT")
    assert f"job:{a1}" not in _claims(shared)
    assert shared.stat(b2) == "PEND"
    # bhosts -gpu shows whose the claimed device is.
    r = shared.run("bhosts", "-gpu")
    assert f"claimed:{ann.name}" in r.out, r
    # Removing the claim frees the device for every job.
    r = shared.run("xce", "claim", "remove", cid)
    assert (r.rc, r.out) == (0, f"Claim <{cid}> is removed\n"), r
    shared.wait_stat(b2, "RUN")
    assert _devices(shared, b2) == {"vh000": [1]}
    for j in (b1, b2):
        shared.run("bkill", str(j))
    for j in (b1, b2):
        shared.wait_stat(j, "EXIT")


@pytest.mark.parametrize("who, argv, error", [
    ("bob", ["add", "--user", "root", "--host", "vh000", "--gpus", "0"],
     "User permission denied"),
    ("root", ["add", "--user", "root", "--host", "nohost", "--gpus", "0"],
     "nohost: Bad host name, host group name or cluster name"),
    ("root", ["add", "--user", "root", "--host", "vh000", "--gpus", "0,7"],
     "Host <vh000> has no GPU 7"),
    ("root", ["add", "--user", "nosuchuser9", "--host", "vh000", "--gpus",
              "0"], "nosuchuser9: Bad user name"),
    ("root", ["add", "--user", "root", "--host", "vh000", "--gpus", "x"],
     "--gpus: expected device ids such as 0,3"),
    ("root", ["remove", "99"], "99: No such claim"),
    ("bob", ["remove", "99"], "User permission denied"),
])
def test_bad_claims_are_refused_with_one_line(shared, users, who, argv,
                                              error):
    bob = users[1]
    kw = {"user": bob.name, "cwd": bob.home} if who == "bob" else {}
    r = shared.run("xce", "claim", *argv, **kw)
    assert (r.rc, r.out, r.err) == (255, "", error + "\n"), r
    assert _claims(shared) == {}        # nothing made, the daemon answers


def test_an_overlapping_claim_is_refused(shared, users):
    ann, bob = users
    r = shared.run("xce", "claim", "add", "-u", ann.name, "-m", "vh000",
                   "--gpus", "0,1")
    assert r.rc == 0, r
    cid = r.out.split("<")[1].split(">")[0]
    r = shared.run("xce", "claim", "add", "-u", bob.name, "-m", "vh000",
                   "--gpus", "1")
    assert (r.rc, r.err) == (
        255, f"GPU 1 of host <vh000> is already claimed by claim <{cid}>\n")
    assert _claims(shared) == {cid: (ann.name, "vh000", "0,1")}
    assert shared.run("xce", "claim", "remove", cid).rc == 0
