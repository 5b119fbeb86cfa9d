"""The live merge of a job with its application profile and queue, end
to end: bjobs -l's Combined and Effective requirement (job -R, profile
RES_REQ and queue RES_REQ), bmod -app / -appn, a reconfig that changes a
profile re-merging pending jobs, and bmod -g / -gn."""

import datetime

import pytest

from tests.lib.xcecluster import wait_for

APPS = """
applications:
  tall:
    RES_REQ: rusage[mem=20] span[hosts=1]
    RUNLIMIT: 30
  wide:
    RES_REQ: order[ut]
"""
PICKY = """\
  picky:
    PRIORITY: 20
    RES_REQ: select[type==any] order[r15s]
"""


@pytest.fixture
def cluster(make_cluster):
    return make_cluster(mxj=2, extra_queues=PICKY, extra=APPS)


def _later():
    """A begin time two hours ahead: the job stays pending."""
    return (datetime.datetime.now() + datetime.timedelta(hours=2)).strftime(
        "%Y:%m:%d:%H:%M")


def _details(cluster, jobid):
    out = cluster.long(jobid)
    block = out.split(" RESOURCE REQUIREMENT DETAILS:\n", 1)[1]
    lines = block.splitlines()
    return lines[0], lines[1]


def test_combined_merges_job_profile_and_queue(cluster):
    jobid = cluster.submit("-b", _later(), "-q", "picky", "-app", "tall",
                           "-R", "select[mem>1]", "true")
    combined, effective = _details(cluster, jobid)
    assert combined == (" Combined: select[(mem > 1) && (type == any)] "
                        "order[r15s] rusage[mem=20.00] span[hosts=1]")
    assert effective == " Effective: -"
    r = cluster.run("bjobs", "-o", "combined_resreq effective_resreq",
                    str(jobid))
    assert r.out.splitlines()[1].split() == [
        "select[(mem", ">", "1)", "&&", "(type", "==", "any)]",
        "order[r15s]", "rusage[mem=20.00]", "span[hosts=1]", "-"], r
    done = cluster.submit("-app", "tall", "true")
    cluster.wait_stat(done, "DONE")
    combined, effective = _details(cluster, done)
    assert combined == " Combined: rusage[mem=20.00] span[hosts=1]"
    assert effective == " Effective: rusage[mem=20.00] span[hosts=1]"


def test_bmod_app_and_appn_replace_the_profiles_values(cluster):
    jobid = cluster.submit("-b", _later(), "-app", "tall", "true")
    assert cluster.stored_job(jobid)["spec"]["runlimit"] == 30
    r = cluster.run("bmod", "-app", "wide", str(jobid))
    assert r.rc == 0, r
    spec = cluster.stored_job(jobid)["spec"]
    assert (spec["app"], spec.get("runlimit"), spec["app_resreq"]) == (
        "wide", None, "order[ut]")
    r = cluster.run("bmod", "-app", "nosuch", str(jobid))
    assert (r.rc, r.out) == (255, ""), r
    assert "Application profile does not exist" in r.err
    assert cluster.stored_job(jobid)["spec"]["app"] == "wide"
    assert cluster.run("bmod", "-appn", str(jobid)).rc == 0
    spec = cluster.stored_job(jobid)["spec"]
    assert "app" not in spec and "app_resreq" not in spec
    # A job's own -W survives a change of profile.
    own = cluster.submit("-b", _later(), "-app", "tall", "-W", "7", "true")
    assert cluster.run("bmod", "-app", "wide", str(own)).rc == 0
    assert cluster.stored_job(own)["spec"]["runlimit"] == 7


def test_reconfig_re_merges_pending_jobs_with_their_profile(cluster):
    jobid = cluster.submit("-b", _later(), "-app", "tall", "true")
    mine = cluster.submit("-b", _later(), "-app", "tall", "-W", "5", "true")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        "RES_REQ: rusage[mem=20] span[hosts=1]\n    RUNLIMIT: 30",
        "RES_REQ: rusage[mem=40]\n    RUNLIMIT: 45"))
    assert cluster.run("badmin", "reconfig").rc == 0
    wait_for(lambda: cluster.stored_job(jobid)["spec"]["runlimit"] == 45,
             what="the re-merged run limit")
    assert cluster.stored_job(mine)["spec"]["runlimit"] == 5
    combined, _ = _details(cluster, jobid)
    assert combined == " Combined: rusage[mem=40.00]"


def test_bmod_g_and_gn_move_a_pending_job_between_groups(cluster):
    jobid = cluster.submit("-b", _later(), "true")
    r = cluster.run("bmod", "-g", "/proj/a", str(jobid))
    assert r.rc == 0, r
    assert cluster.stored_job(jobid)["spec"]["job_group"] == "/proj/a"
    groups = [l.split()[0] for l in cluster.run("bjgroup").out.splitlines()]
    assert "/proj/a" in groups
    r = cluster.run("bmod", "-g", "bad name", str(jobid))
    assert r.rc == 255 and "Bad job group name" in r.err, r
    assert cluster.run("bmod", "-gn", str(jobid)).rc == 0
    assert "job_group" not in cluster.stored_job(jobid)["spec"]
