"""bsub options in the forms workflow tools write them: -R given several
times, -M in LSF_UNIT_FOR_LIMITS or with a unit, -W as minutes or
hours:minutes, -cwd . as the submission directory, and -nnodes refused
clearly."""

import pytest

from tests.lib.xcecluster import blocked


def test_several_R_options_merge_as_one_requirement(cluster):
    # Nextflow's form: one -R per concern.
    jobid = cluster.submit("-R", "select[mem>=1] rusage[mem=10]",
                           "-R", "span[hosts=1]",
                           "-R", "select[hname==nosuchhost]", "true")
    merged = cluster.stored_job(jobid)["spec"]["resreq_merged"]
    assert merged == ("select[(mem >= 1) && (hname == nosuchhost)] "
                      "rusage[mem=10.00] span[hosts=1]")
    # The select of a later -R counts as much as the first one.
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r.out.splitlines()[2] == \
        " Job's resource requirements not satisfied: 1 host;"


@pytest.mark.parametrize("unit, value, kb", [
    ("KB", "2048", 2048),
    ("MB", "100", 100 * 1024),
    ("GB", "2", 2 * 1024 * 1024),
    ("MB", "1G", 1024 * 1024),
    ("KB", "300M", 300 * 1024),
])
def test_M_is_in_LSF_UNIT_FOR_LIMITS_unless_suffixed(make_cluster, unit,
                                                     value, kb):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-M", value, "true",
                           env={"LSF_UNIT_FOR_LIMITS": unit})
    assert cluster.stored_job(jobid)["spec"]["memlimit"] == kb


@pytest.mark.parametrize("value, minutes", [
    ("45", 45), ("1:30", 90), ("01:05", 65), ("0:59", 59)])
def test_W_is_minutes_or_hours_and_minutes(make_cluster, value, minutes):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-W", value, "true")
    assert cluster.stored_job(jobid)["spec"]["runlimit"] == minutes
    r = cluster.run("bjobs", "-l", str(jobid))
    assert f" {float(minutes):.1f} min" in r.joined


@pytest.mark.parametrize("cwd_arg", [".", "./"])
def test_cwd_dot_is_the_submission_directory(cluster, tmp_path, cwd_arg):
    work = tmp_path / "work dir"
    work.mkdir()
    out = tmp_path / "pwd.txt"
    jobid = cluster.submit("-cwd", cwd_arg, "-o", str(out), "pwd",
                           cwd=str(work))
    cluster.wait_stat(jobid, "DONE")
    assert str(work) in out.read_text().splitlines()
    r = cluster.run("bjobs", "-noheader", "-o", "exec_cwd", str(jobid))
    assert r.out.strip() == str(work)


def test_bsub_lines_with_trailing_comments_keep_the_lines_after(make_cluster):
    cluster = make_cluster()
    script = ("#!/bin/sh\n#BSUB options of the nightly run:\n"
              "#BSUB -J commented   # the job's name\n"
              "#BSUB -o out.%J        # its output\n#BSUB -q short\n"
              "echo hello\n")
    r = cluster.run("bsub", input=script)
    assert r.rc == 0 and "is submitted to queue <short>." in r.out, r
    job = int(r.out.split("<", 1)[1].split(">", 1)[0])
    cluster.wait_stat(job, "DONE")
    r = cluster.run("bjobs", "-noheader", "-o", "name queue output_file",
                    str(job))
    assert r.out.split() == ["commented", "short", "out.%J"], r
    assert (cluster.root / f"out.{job}").read_text().startswith("hello\n")


def test_a_stray_word_in_a_bsub_line_is_refused(make_cluster):
    cluster = make_cluster()
    script = "#!/bin/sh\n#BSUB -n 1 stray\n#BSUB -q short\necho hi\n"
    r = cluster.run("bsub", input=script)
    assert (r.rc, r.out, r.err) == (
        255, "", "stray: Bad argument. Job not submitted.\n"), r
    r = cluster.run("bjobs", "-a")
    assert r.out == "", r
