"""GPU jobs over real SSH hosts with declared devices: a parallel job
(-gpu num=2 -n 8 -R "span[ptile=4]") gets two devices on each of its
two hosts, and the task blaunch starts on each host sees that host's
devices in CUDA_VISIBLE_DEVICES."""

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


@pytest.fixture(scope="module")
def gpuclu(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    with shared_cluster("xcegpu-", ssh_hosts=ssh_hosts, mxj=4,
                        ssh_extra=GPUS) as c:
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
