"""bsub -outdir, -hostfile and -nnodes end to end, and their refusals."""

import os
import stat


def _out(cluster, name):
    return (cluster.root / name).read_text()


def test_outdir_is_created_with_patterns_and_takes_relative_output(cluster):
    jobid = cluster.submit("-outdir", "runs/%U/%J_%I", "-o", "o.txt",
                           "-e", "e.txt", "echo $LSB_OUTDIR; echo err >&2")
    cluster.wait_stat(jobid, "DONE")
    user = cluster.run("id", "-un").out.strip()
    outdir = cluster.root / "runs" / user / f"{jobid}_0"
    assert stat.S_IMODE(os.stat(outdir).st_mode) == 0o700
    assert _out(cluster, f"runs/{user}/{jobid}_0/o.txt").startswith(
        f"{outdir}\n")
    assert _out(cluster, f"runs/{user}/{jobid}_0/e.txt") == "err\n"
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Output Directory <runs/%U/%J_%I>" in r.joined, r


def test_hostfile_places_the_slots_in_the_file_order(make_cluster):
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"], mxj=2)
    (cluster.root / "hosts").write_text("# layout\nvh001\nvh000 2\n")
    jobid = cluster.submit("-hostfile", "hosts", "-o", "h.out",
                           "echo $LSB_HOSTS; cat $LSB_DJOB_HOSTFILE")
    cluster.wait_stat(jobid, "DONE")
    assert _out(cluster, "h.out").startswith(
        "vh001 vh000 vh000\nvh001\nvh000\nvh000\n")
    r = cluster.run("bjobs", "-l", str(jobid))
    assert f"Host file <{cluster.root / 'hosts'}>" in r.joined, r


def test_hostfile_refusals(make_cluster):
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"], mxj=2)
    (cluster.root / "hosts").write_text("vh000\n")
    (cluster.root / "empty").write_text("# nothing\n")
    (cluster.root / "nohost").write_text("nosuchhost\n")
    cases = [
        (["-hostfile", "hosts", "-n", "2"],
         "-hostfile cannot be used with -n. Job not submitted.\n"),
        (["-hostfile", "hosts", "-m", "vh000"],
         "-hostfile cannot be used with -m. Job not submitted.\n"),
        (["-hostfile", "empty"],
         "The host file contains no host names. Job not submitted.\n"),
        (["-hostfile", "nohost"], "nosuchhost: Bad host name, host group "
         "name or cluster name. Job not submitted.\n"),
    ]
    for argv, err in cases:
        r = cluster.run("bsub", *argv, "true")
        assert (r.rc, r.out, r.err) == (255, "", err), (argv, r)
    r = cluster.run("bsub", "-hostfile", "missing", "true")
    assert r.rc == 255 and r.err.startswith(
        "Cannot read the host file: "), r
    r = cluster.run("bjobs", "-a")
    assert r.rc == 0 and r.out == "", r


def test_nnodes_takes_whole_hosts_exclusively(make_cluster):
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"], mxj=2)
    jobid = cluster.submit("-nnodes", "2", "-o", "n.out",
                           "echo $LSB_HOSTS; sleep 30")
    cluster.wait_stat(jobid, "RUN")
    other = cluster.submit("true")
    r = cluster.run("bhosts", "-w")
    assert r.out.count("closed_Excl") == 2, r
    assert cluster.stat(other) == "PEND"
    for command in ("bjobs", "bhist"):
        r = cluster.run(command, "-l", str(jobid))
        assert "2 Nodes Requested" in r.joined, r
    cluster.run("bkill", str(jobid))
    cluster.wait_stat(other, "DONE")
    assert _out(cluster, "n.out").startswith("vh000 vh001\n")
    for argv, err in [(["-nnodes", "0"], "Bad argument for option -nnodes. "
                       "Job not submitted.\n"),
                      (["-nnodes", "2", "-n", "2"], "-nnodes cannot be used "
                       "with -n. Job not submitted.\n")]:
        r = cluster.run("bsub", *argv, "true")
        assert (r.rc, r.out, r.err) == (255, "", err), (argv, r)


def test_bpeek_finds_the_output_inside_the_outdir(cluster):
    from tests.lib.xcecluster import wait_for
    jobid = cluster.submit("-outdir", "peek_%J", "-o", "o.txt", "-e",
                           "e.txt", "echo to-out; echo to-err >&2; sleep 60")
    cluster.wait_stat(jobid, "RUN")

    def peeked():
        r = cluster.run("bpeek", str(jobid))
        return r.rc == 0 and "to-out" in r.out and "to-err" in r.out
    wait_for(peeked, what="bpeek to show both files")
    cluster.run("bkill", str(jobid))
