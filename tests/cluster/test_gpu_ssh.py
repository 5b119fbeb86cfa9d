"""GPU jobs over real SSH hosts with declared devices: a parallel job
(-gpu num=2 -n 8 -R "span[ptile=4]") gets two devices on each of its
two hosts, and the task blaunch starts on each host sees that host's
devices in CUDA_VISIBLE_DEVICES; two jobs never hold the same exclusive
device and a controller restart keeps the assignments; licence tokens of
a shared resource are consumed across the hosts, and a standalone claim
keeps one for a user."""

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.lib.xcecluster import shared_cluster, wait_for

GPUS = """\
gpus:
  - {model: TeslaV100, memory: 16G}
  - {model: TeslaV100, memory: 16G}
"""
TOKENS = """\
resources:
  lic: {TYPE: Numeric, DESCRIPTION: (Solver tokens), LOCATION: '(2@[all])'}
"""


@pytest.fixture(scope="module")
def gpuclu(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    with shared_cluster("xcegpu-", ssh_hosts=ssh_hosts, mxj=4,
                        ssh_extra=GPUS, extra=TOKENS) as c:
        yield c


def test_a_parallel_job_gets_devices_on_every_host(gpuclu, ssh_hosts):
    # Jobs of root: blaunch runs inside the job (see test_blaunch).
    user = ssh_hosts.users[0]
    work = Path(tempfile.mkdtemp(prefix="g", dir=user.home))
    try:
        wait_for(gpuclu._hosts_ok, timeout=40, what="every host to be ok")
        task = (f'echo "$(hostname) $CUDA_VISIBLE_DEVICES" '
                f'>>{work}/$LSB_JOBID.gpus')
        script = (f"for h in $LSB_EXECHOSTS; do blaunch -z $h /bin/sh -c "
                  f"'{task}'; done; echo $CUDA_VISIBLE_DEVICES "
                  f">{work}/$LSB_JOBID.first")
        r = gpuclu.run("bsub", "-gpu", "num=2:mode=exclusive_process",
                       "-n", "8", "-R", "span[ptile=4]",
                       "-o", f"{work}/%J.out", script)
        assert r.rc == 0, r
        jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
        done = wait_for(lambda: gpuclu.stat(jobid) in ("DONE", "EXIT") and
                        gpuclu.stat(jobid), timeout=60, what="the job's end")
        out = work / f"{jobid}.out"
        assert done == "DONE", (out.read_text() if out.exists() else "") + \
            gpuclu.log_tail()[-1500:]
        alloc = gpuclu.stored_job(jobid)["spec"]["gpu_alloc"]
        assert sorted(alloc["hosts"].values()) == [[0, 1], [0, 1]]
        lines = (work / f"{jobid}.gpus").read_text().split("\n")
        seen = sorted(line.split() for line in lines if line.strip())
        assert [ids for _, ids in seen] == ["0,1", "0,1"]
        if ssh_hosts.mode == "netns":
            assert sorted(h for h, _ in seen) == sorted(alloc["hosts"])
        assert (work / f"{jobid}.first").read_text() == "0,1\n"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _held(clu, jobid):
    (host, ids), = clu.stored_job(jobid)["spec"]["gpu_alloc"]["hosts"] \
        .items()
    return host, tuple(ids)


def test_exclusive_devices_are_never_shared_and_a_restart_keeps_them(
        gpuclu):
    wait_for(gpuclu._hosts_ok, timeout=40, what="every host to be ok")
    jobs = [gpuclu.submit("-gpu", "num=1:mode=exclusive_process",
                          "sleep 60") for _ in range(7)]
    try:
        for j in jobs[:6]:
            gpuclu.wait_stat(j, "RUN")
        held = {j: _held(gpuclu, j) for j in jobs[:6]}
        assert len(set(held.values())) == 6     # three hosts, two each
        assert gpuclu.stat(jobs[6]) == "PEND"
        gpuclu.kill_controller()
        gpuclu.start()
        assert {j: _held(gpuclu, j) for j in jobs[:6]} == held
        assert gpuclu.stat(jobs[6]) == "PEND"
        assert gpuclu.run("bkill", str(jobs[0])).rc == 0
        gpuclu.wait_stat(jobs[6], "RUN")
        assert _held(gpuclu, jobs[6]) == held[jobs[0]]
    finally:
        gpuclu.run("bkill", *map(str, jobs))
        for j in jobs:
            gpuclu.wait_stat(j, "EXIT", "DONE")


def test_licence_tokens_and_a_claim_on_them_across_ssh_hosts(
        gpuclu, ssh_hosts):
    user = ssh_hosts.users[0].name
    r = gpuclu.run("xce", "claim", "add", "-u", user, "--counter", "lic=1")
    assert r.rc == 0, r
    cid = r.out.split("<")[1].split(">")[0]
    first = gpuclu.submit("-R", "rusage[lic=1]", "sleep 60")
    second = gpuclu.submit("-R", "rusage[lic=1]", "true")
    try:
        gpuclu.wait_stat(first, "RUN")
        # The other token is kept for the claim's user.
        wait_for(lambda: "reserving resource (lic)" in
                 gpuclu.run("bjobs", "-l", str(second)).joined,
                 what="the token pend reason")
        assert gpuclu.stat(second) == "PEND"
        r = gpuclu.run("bhosts", "-s")
        assert r.out.splitlines()[1].split()[:3] == ["lic", "1", "1.0"], r
        assert gpuclu.run("xce", "claim", "remove", cid).rc == 0
        gpuclu.wait_stat(second, "DONE")
    finally:
        gpuclu.run("xce", "claim", "remove", cid)
        gpuclu.run("bkill", str(first))
        gpuclu.wait_stat(first, "EXIT", "DONE")
