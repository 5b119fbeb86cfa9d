"""bmod -cwd/-cwdn, -i/-in, -x/-xn, -G/-Gn and -gpu/-gpun: a pending job
changed, then run, and the change seen where it acts (the directory the
job runs in, the input it reads, the host it has alone, the group it is
filed under, the GPUs it gets; tests/cli/test_fairshare_group.py shows
the group charged); bjobs -l, bhist -l and JOB_MODIFY2 (where LSF's
field is known) show it; a running job and bad input are refused in
LSF's words, exit 255, nothing changed."""

import getpass

from tests.lib.xcecluster import blocked, wait_for

RUNNING_ONLY = ("Only the following parameters can be used to modify a "
                "running job: -c, -M, -W, -o, -e, -r. Job not modified.\n")
EXCL_QUEUE = """\
  excl:
    PRIORITY: 35
    EXCLUSIVE: Y
"""


def _changed(cluster, *argv):
    r = cluster.run("bmod", *argv)
    assert (r.rc, r.out, r.err) == (
        0, f"Parameters of job <{argv[-1]}> are being changed\n", ""), r


def _refused_once_started(cluster, *opts):
    """LSF's bmod changes these of a pending job only (LSB_MOD_ALL_JOBS
    names none of them): a started job is refused and keeps its spec."""
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    before = cluster.stored_job(running)["spec"]
    r = cluster.run("bmod", *opts, str(running))
    assert (r.rc, r.out, r.err) == (255, "", f"Job <{running}>: "
                                    + RUNNING_ONLY), r
    assert cluster.stored_job(running)["spec"] == before
    cluster.run("bkill", str(running))


def test_bmod_cwd_moves_a_pending_job_and_cwdn_brings_it_back(
        make_cluster, tmp_path):
    cluster, blocker = blocked(make_cluster)
    (cluster.root / "rel").mkdir()
    there = tmp_path / "there"
    there.mkdir()
    jobid = cluster.submit("-o", str(cluster.root / "o1"), "pwd")
    _changed(cluster, "-cwd", str(there), str(jobid))
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["specified_cwd"], spec["cwd"]) == (str(there), str(there))
    assert f"Specified CWD <{there}>" in cluster.long(jobid)
    # -cwdn: the submission directory again; a relative -cwd is under it.
    _changed(cluster, "-cwdn", str(jobid))
    spec = cluster.stored_job(jobid)["spec"]
    assert "specified_cwd" not in spec and spec["cwd"] == spec["subcwd"]
    assert "Specified CWD" not in cluster.long(jobid)
    _changed(cluster, "-cwd", "rel", str(jobid))
    assert cluster.stored_job(jobid)["spec"]["cwd"] == str(
        cluster.root / "rel")
    # Bad input: both forms at once, no value, a started job.
    r = cluster.run("bmod", "-cwd", "/x", "-cwdn", str(jobid))
    assert r.rc == 255 and r.out == "" and \
        "-cwd and -cwdn cannot be used together" in r.err, r
    r = cluster.run("bmod", "-cwd", "", str(jobid))
    assert (r.rc, r.out, r.err) == (255, "", "bmod: -cwd: Bad argument: "
                                    "the value is empty. Job not "
                                    "modified.\n"), r
    assert cluster.stored_job(jobid)["spec"]["specified_cwd"] == "rel"
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE")
    assert (cluster.root / "o1").read_text().startswith(
        str(cluster.root / "rel") + "\n")
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    for line in (f"Current working directory changes to : {there};",
                 "Current working directory changes to default;",
                 "Current working directory changes to : rel;"):
        assert line in hist, (line, hist)
    recs = cluster.wait_lsb_events("JOB_MODIFY2", jobid,
                                  until=lambda r: len(r) == 3)
    assert [r["cwd"] for r in recs] == [
        str(there), spec["subcwd"], str(cluster.root / "rel")]
    assert cluster.proc.poll() is None


def test_bmod_i_gives_a_pending_job_new_input_and_in_removes_it(
        make_cluster):
    cluster, blocker = blocked(make_cluster)
    (cluster.root / "in1").write_text("first\n")
    (cluster.root / "in2").write_text("second\n")
    out = cluster.root / "o"
    jobid = cluster.submit("-i", "in1", "-o", str(out), "cat")
    _changed(cluster, "-in", str(jobid))
    assert "stdin" not in cluster.stored_job(jobid)["spec"]
    assert "Input File" not in cluster.long(jobid)
    _changed(cluster, "-i", "in2", str(jobid))
    assert cluster.stored_job(jobid)["spec"]["stdin"] == "in2"
    assert "Input File <in2>" in cluster.long(jobid)
    r = cluster.run("bmod", "-i", "", str(jobid))
    assert (r.rc, r.out, r.err) == (255, "", "bmod: -i: Bad argument: "
                                    "the value is empty. Job not "
                                    "modified.\n"), r
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE")
    assert out.read_text().startswith("second\n")
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert "Input file is disabled;" in hist, hist
    assert "Input file change to : in2;" in hist, hist
    recs = cluster.wait_lsb_events("JOB_MODIFY2", jobid,
                                  until=lambda r: len(r) == 2)
    assert recs[0]["delOptions"] & 0x8 and not recs[0]["options"] & 0x8
    assert recs[1]["options"] & 0x8 and recs[1]["inFile"] == "in2"
    _refused_once_started(cluster, "-i", "in1")


def test_bmod_x_makes_a_pending_job_exclusive_and_xn_undoes_it(
        make_cluster):
    cluster = make_cluster(virtual_hosts=["vh000"], mxj=2,
                           extra_queues=EXCL_QUEUE)
    blocker = cluster.submit("-n", "2", "sleep", "60")
    cluster.wait_stat(blocker, "RUN")
    plain = cluster.submit("sleep", "60")
    # The queue must take exclusive jobs, as for bsub -x.
    r = cluster.run("bmod", "-x", str(plain))
    assert (r.rc, r.out, r.err) == (
        255, "", "normal: Queue does not accept EXCLUSIVE jobs. "
        "Job not modified.\n"), r
    assert not cluster.stored_job(plain)["spec"].get("exclusive")
    jobid = cluster.submit("-q", "excl", "sleep", "60")
    _changed(cluster, "-x", str(jobid))
    assert cluster.stored_job(jobid)["spec"]["exclusive"] is True
    assert "Exclusive Execution" in cluster.long(jobid)
    # An exclusive job may not move to a queue without EXCLUSIVE.
    r = cluster.run("bmod", "-q", "normal", str(jobid))
    assert (r.rc, r.out, r.err) == (
        255, "", "normal: Queue does not accept EXCLUSIVE jobs. "
        "Job not modified.\n"), r
    _changed(cluster, "-xn", str(jobid))
    assert "exclusive" not in cluster.stored_job(jobid)["spec"]
    _changed(cluster, "-x", str(jobid))
    # Released: the exclusive job has the host alone, the other waits.
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: "Running an exclusive job" in cluster.run(
        "bjobs", "-p", str(plain)).out, what="the closed_Excl reason")
    assert cluster.stat(plain) == "PEND"
    r = cluster.run("bmod", "-xn", str(jobid))
    assert (r.rc, r.out, r.err) == (255, "", f"Job <{jobid}>: "
                                    + RUNNING_ONLY), r
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    assert "Job changes to exclusive;" in hist, hist
    assert "Job changes to nonexclusive;" in hist, hist
    recs = cluster.wait_lsb_events("JOB_MODIFY2", jobid,
                                  until=lambda r: len(r) == 3)
    assert recs[0]["options"] & 0x40 and recs[1]["delOptions"] & 0x40
    cluster.run("bkill", "0")
    assert cluster.proc.poll() is None


def test_bmod_G_files_a_pending_job_under_another_group_and_Gn_removes_it(
        make_cluster):
    me = getpass.getuser()
    groups = (f"user_groups:\n  devs:\n    members: [{me}]\n"
              f"  ops:\n    members: [{me}]\n")
    cluster = make_cluster(mxj=1, extra_queues=groups)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    jobid = cluster.submit("-G", "devs", "true")
    _changed(cluster, "-G", "ops", str(jobid))
    assert cluster.stored_job(jobid)["spec"]["user_group"] == "ops"
    assert "User Group <ops>" in cluster.long(jobid)
    r = cluster.run("bjobs", "-noheader", "-o", "jobid", "-G", "ops")
    assert r.out.split() == [str(jobid)], r
    # Bad input, in bsub -G's words: nothing changes.
    # (Membership is not checked here: the test's user administers the
    # cluster, whom bsub -G lets use any group too.)
    for group, why in (("nope", "nope: Bad user group name"),
                       ("a ~b", None), ("~nope", None)):
        r = cluster.run("bmod", "-G", group, str(jobid))
        assert (r.rc, r.out) == (255, ""), r
        assert r.err.endswith(". Job not modified.\n"), r
        assert why is None or r.err.startswith(why), r
    r = cluster.run("bmod", "-G", "ops", "-Gn", str(jobid))
    assert r.rc == 255 and "-G and -Gn cannot be used together" in r.err, r
    assert cluster.stored_job(jobid)["spec"]["user_group"] == "ops"
    _changed(cluster, "-Gn", str(jobid))
    assert not cluster.stored_job(jobid)["spec"].get("user_group")
    assert "User Group" not in cluster.long(jobid)
    _changed(cluster, "-G", "~devs", str(jobid))
    assert cluster.stored_job(jobid)["spec"]["user_group_exclude"] == [
        "devs"]
    _changed(cluster, "-G", "devs", str(jobid))
    spec = cluster.stored_job(jobid)["spec"]
    assert spec["user_group"] == "devs" and \
        "user_group_exclude" not in spec
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(jobid, "DONE")
    r = cluster.run("bjobs", "-noheader", "-o", "ugroup", str(jobid))
    assert r.out.split() == ["devs"], r
    hist = cluster.run("bhist", "-l", str(jobid)).joined
    for line in ("User group changes to : ops;",
                 "User group changes to default;",
                 "User group changes to : ~devs;",
                 "User group changes to : devs;"):
        assert line in hist, (line, hist)
    _refused_once_started(cluster, "-G", "devs")
    assert cluster.proc.poll() is None


def test_bmod_gpu_changes_what_a_pending_job_gets_and_gpun_removes_it(
        make_cluster, tmp_path):
    gpus = ("gpus:\n  - {model: TeslaV100, memory: 16G}\n"
            "  - {model: TeslaV100, memory: 16G}\n")
    cluster = make_cluster(virtual_hosts=["vh000"], mxj=2, host_extra=gpus)
    blocker = cluster.submit("-n", "2", "sleep", "60")
    cluster.wait_stat(blocker, "RUN")
    show = 'echo "CVD=$CUDA_VISIBLE_DEVICES"'
    more = cluster.submit("-o", str(tmp_path / "more"), "-gpu",
                          "num=1:mode=exclusive_process", show)
    none = cluster.submit("-o", str(tmp_path / "none"), "-gpu", "num=1",
                          show)
    # Bad input, as bsub -gpu refuses it: nothing changes.
    for value, words in (("num=x", "Bad GPU requirement syntax: num=x"),
                         ("num=3", "asks for more GPUs than any host that "
                          "the job may use has (2)")):
        r = cluster.run("bmod", "-gpu", value, str(more))
        assert (r.rc, r.out) == (255, ""), (value, r)
        assert words in r.err and r.err.endswith(". Job not modified.\n") \
            and len(r.err.splitlines()) == 1, (value, r)
    assert cluster.stored_job(more)["spec"]["gpu"] == \
        "num=1:mode=exclusive_process"
    _changed(cluster, "-gpu", "num=2:mode=exclusive_process", str(more))
    _changed(cluster, "-gpun", str(none))
    assert "gpu" not in cluster.stored_job(none)["spec"]
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(more, "DONE")
    cluster.wait_stat(none, "DONE")
    assert (tmp_path / "more").read_text().startswith("CVD=0,1\n")
    assert (tmp_path / "none").read_text().startswith("CVD=\n")
    hist = cluster.run("bhist", "-l", str(more), str(none)).joined
    assert "GPU requirement changes to : num=2:mode=exclusive_process;" \
        in hist, hist
    assert "GPU requirement is removed;" in hist, hist
    _refused_once_started(cluster, "-gpu", "num=1")
    assert cluster.proc.poll() is None
