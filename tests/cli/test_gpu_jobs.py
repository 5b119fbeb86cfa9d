"""GPU jobs end to end on virtual hosts with declared devices: each job
gets its own exclusive devices (CUDA_VISIBLE_DEVICES), a controller
restart keeps the assignment, a parallel job gets devices on every host,
and bad -gpu strings are refused with nothing submitted."""

from tests.lib.xcecluster import wait_for

GPUS = """\
gpus:
  - {model: TeslaV100, memory: 16G}
  - {model: TeslaV100, memory: 16G}
"""
HOSTS = ["vh000", "vh001"]


def _gpu_cluster(make_cluster, **kw):
    return make_cluster(virtual_hosts=HOSTS, mxj=4, host_extra=GPUS, **kw)


def _env_of(cluster, jobid, tmp_path):
    out = tmp_path / f"{jobid}.out"
    wait_for(lambda: out.exists() and "CVD=" in out.read_text(),
             what=f"output of job {jobid}")
    lines = out.read_text().splitlines()
    return {k: v for k, _, v in (line.partition("=") for line in lines
                                 if line[:3] in ("CVD", "HST", "ALL"))}


def _submit_env_job(cluster, tmp_path, *opts, sleep=30):
    cmd = ('echo "CVD=$CUDA_VISIBLE_DEVICES"; echo "HST=$(hostname)"; '
           'echo "ALL=$LSB_GPU_ALLOC_INFO"; sleep %d' % sleep)
    jobid = cluster.submit("-o", str(tmp_path / "%J.out"), *opts, cmd)
    return jobid


def _alloc(cluster, jobid):
    return cluster.stored_job(jobid)["spec"].get("gpu_alloc")


def test_two_jobs_never_see_the_same_exclusive_device_and_a_restart_keeps_them(
        make_cluster, tmp_path):
    cluster = _gpu_cluster(make_cluster)
    jobs = [_submit_env_job(cluster, tmp_path, "-gpu",
                            "num=1:mode=exclusive_process")
            for _ in range(5)]
    for j in jobs[:4]:
        cluster.wait_stat(j, "RUN")
    held = set()
    for j in jobs[:4]:
        alloc = _alloc(cluster, j)
        (host, ids), = alloc["hosts"].items()
        assert alloc["excl"] is True and len(ids) == 1
        held.add((host, ids[0]))
        env = _env_of(cluster, j, tmp_path)
        assert env["CVD"] == str(ids[0])
        assert env["ALL"] == f"{host}:{ids[0]}"
    assert len(held) == 4               # every device once
    # The fifth waits, and says for what on each host.
    assert cluster.stat(jobs[4]) == "PEND"
    r = cluster.run("bjobs", "-p", str(jobs[4]))
    assert "Not enough free GPUs on the host: the job needs 1, 0 free" in \
        r.out, r
    # A restarted controller charges the same devices: still nothing
    # free, and the running jobs keep theirs.
    before = {j: _alloc(cluster, j) for j in jobs[:4]}
    cluster.kill_controller()
    cluster.start()
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 0, r
    assert cluster.stat(jobs[4]) == "PEND"
    assert {j: _alloc(cluster, j) for j in jobs[:4]} == before
    # A job's end frees its device for the waiting one.
    r = cluster.run("bkill", str(jobs[0]))
    assert r.rc == 0, r
    cluster.wait_stat(jobs[4], "RUN")
    assert _alloc(cluster, jobs[4])["hosts"] == before[jobs[0]]["hosts"]


def test_shared_devices_take_several_jobs(make_cluster, tmp_path):
    cluster = _gpu_cluster(make_cluster)
    jobs = [_submit_env_job(cluster, tmp_path, "-gpu", "num=2")
            for _ in range(3)]
    for j in jobs:
        cluster.wait_stat(j, "RUN")
    hosts = [next(iter(_alloc(cluster, j)["hosts"])) for j in jobs]
    assert len(set(hosts)) < len(hosts)     # two shared jobs on one host
    for j in jobs:
        assert _env_of(cluster, j, tmp_path)["CVD"] == "0,1"


def test_a_parallel_job_gets_devices_on_every_host(make_cluster, tmp_path):
    cluster = _gpu_cluster(make_cluster)
    work = tmp_path / "w"
    work.mkdir()
    script = (f'for h in $LSB_EXECHOSTS; do blaunch -z $h /bin/sh -c '
              f'"echo \\$CUDA_VISIBLE_DEVICES >{work}/$h.task"; done; '
              f'echo $CUDA_VISIBLE_DEVICES >{work}/first')
    jobid = cluster.submit("-gpu", "num=2:mode=exclusive_process", "-n", "8",
                           "-R", "span[ptile=4]", script)
    cluster.wait_stat(jobid, "DONE", "EXIT")
    assert cluster.stat(jobid) == "DONE"
    assert _alloc(cluster, jobid) == {
        "hosts": {"vh000": [0, 1], "vh001": [0, 1]}, "excl": True,
        "gmem": 0.0, "num": 2, "mode": "exclusive_process"}
    for h in HOSTS:
        assert (work / f"{h}.task").read_text() == "0,1\n"
    assert (work / "first").read_text() == "0,1\n"


def test_bad_gpu_requests_are_refused_and_nothing_is_submitted(
        make_cluster):
    cluster = _gpu_cluster(make_cluster)
    for value, words in (
            ("num=x", "Bad GPU requirement syntax: num=x"),
            ("mode=fast", "Bad GPU requirement syntax: mode=fast"),
            # no GPUs here, so no MPS daemon to start: refused, with why
            ("num=1:mps=yes", "mps=yes: xce starts no Multi-Process "
                              "Service daemon (use mps=no)"),
            ("mps=per_gpu,share", "mps=per_gpu,share: xce starts no "
                                  "Multi-Process Service daemon"),
            ("gmodel=A100", "No host that the job may use has GPUs that "
                            "match the GPU requirement"),
            ("num=3", "asks for more GPUs than any host that the job may "
                      "use has (2)")):
        r = cluster.run("bsub", "-gpu", value, "sleep", "1")
        assert r.rc == 255 and r.out == "", (value, r)
        assert words in r.err and len(r.err.strip().splitlines()) == 1, r
    r = cluster.run("bjobs", "-a")
    assert "No job found" in r.err + r.out, r
    r = cluster.run("bhosts")          # the controller goes on
    assert r.rc == 0, r


def test_gpu_views_of_hosts_and_jobs(make_cluster, tmp_path):
    cluster = _gpu_cluster(make_cluster)
    jobid = cluster.submit("-gpu", "num=1:mode=exclusive_process:gmem=2G",
                           "-m", "vh001", "sleep", "30")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bhosts", "-gpu")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    assert lines[0].split() == ["HOST_NAME", "ID", "MODEL", "MUSED", "MRSV",
                                "NJOBS", "RUN", "SUSP", "RSV"]
    assert lines[1].split() == ["vh000", "0", "TeslaV100", "-", "0M", "0",
                                "0", "0", "0"]
    assert lines[3].split() == ["vh001", "0", "TeslaV100", "-", "2.0G",
                                "1", "1", "0", "0"]
    assert lines[4].split() == ["1", "TeslaV100", "-", "0M", "0", "0", "0",
                                "0"]
    r = cluster.run("lshosts", "-gpu")
    assert r.rc == 0 and r.err == "", r
    assert r.out.splitlines()[0].split() == [
        "HOST_NAME", "gpu_id", "gpu_model", "gpu_driver", "gpu_factor",
        "numa_id", "vendor"]
    assert r.out.splitlines()[2].split()[:2] == ["1", "TeslaV100"]
    r = cluster.run("lsload", "-gpu")
    assert r.rc == 0 and r.err == "", r
    assert [x.split()[0::1] for x in r.out.splitlines()[1:]] == [
        ["vh000", "ok", "2", "-", "-", "2"],
        ["vh001", "ok", "2", "-", "-", "2"]]
    r = cluster.run("bjobs", "-l", "-gpu", str(jobid))
    assert r.rc == 0 and r.err == "", r
    section = r.joined[r.joined.index("GPU_ALLOCATION:"):].splitlines()
    assert section[1].split()[:3] == ["HOST", "TASK", "GPU_ID"]
    assert section[2].split()[:5] == ["vh001", "0", "0", "TeslaV100",
                                      "16.0G"]
    r = cluster.run("bjobs", "-noheader", "-o", "gpu_num gpu_mode gpu_alloc",
                    str(jobid))
    assert r.out.split() == ["1", "exclusive_process", "vh001:0"], r
    r = cluster.run("bjobs", "-gpu", str(jobid))
    assert r.rc == 255 and "-gpu: use only with the -l or -UF option" in \
        r.err, r


def test_gpu_requests_are_refused_when_lsb_gpu_new_syntax_is_n(make_cluster):
    cluster = _gpu_cluster(make_cluster,
                           extra_params="  LSB_GPU_NEW_SYNTAX: N")
    r = cluster.run("bsub", "-gpu", "-", "sleep", "1")
    assert r.rc == 255 and r.out == "", r
    assert "The -gpu option and GPU_REQ are not enabled " \
        "(LSB_GPU_NEW_SYNTAX=N)" in r.err, r
    jobid = cluster.submit("sleep", "1")        # other jobs go on
    cluster.wait_stat(jobid, "DONE")


def test_gpu_req_of_a_queue_and_of_a_profile_give_jobs_their_devices(
        make_cluster, tmp_path):
    cluster = _gpu_cluster(
        make_cluster,
        extra_queues='  gpuq:\n    PRIORITY: 20\n'
                     '    GPU_REQ: "num=2:mode=exclusive_process"\n',
        extra='applications:\n  one:\n    GPU_REQ: "num=1"\n')
    # No -gpu: the queue's GPU_REQ is the job's requirement.
    whole = _submit_env_job(cluster, tmp_path, "-q", "gpuq")
    cluster.wait_stat(whole, "RUN")
    alloc = _alloc(cluster, whole)
    (host, ids), = alloc["hosts"].items()
    assert (ids, alloc["excl"]) == ([0, 1], True)
    assert _env_of(cluster, whole, tmp_path)["CVD"] == "0,1"
    # The profile's num=1 over the queue's num=2; the mode stays the
    # queue's (LSF's merge: job, profile, queue, cluster).
    one = _submit_env_job(cluster, tmp_path, "-q", "gpuq", "-app", "one")
    cluster.wait_stat(one, "RUN")
    alloc = _alloc(cluster, one)
    (other, ids), = alloc["hosts"].items()
    assert (other != host, len(ids), alloc["excl"]) == (True, 1, True)
    # A queue without GPU_REQ gives a job without -gpu no device.
    plain = cluster.submit("sleep", "30")
    cluster.wait_stat(plain, "RUN")
    assert _alloc(cluster, plain) is None
    r = cluster.run("bkill", str(whole), str(one), str(plain))
    assert r.rc == 0, r
