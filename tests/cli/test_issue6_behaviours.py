"""LSF behaviours real tools depend on (issue 6 item 4, reference section 7)
that no other test pinned down: -R given several times, -M units, -W forms,
bkill of several ids in one call, bjobs -noheader -o 'jobid stat' IDS."""

import json

import pytest

from tests.lib.xcecluster import blocked


def _spec(cluster, jobid):
    from xce.store.reader import Reader
    with Reader(cluster.spool / "store" / "xce.db") as r:
        row = r.jobs("jobid=?", (jobid,))[0]
    return json.loads(row["spec"] or "{}")


def test_several_R_options_merge_as_one_requirement(cluster):
    # Nextflow's form: one -R per concern.
    jobid = cluster.submit("-R", "select[mem>=1] rusage[mem=10]",
                           "-R", "span[hosts=1]",
                           "-R", "select[hname==nosuchhost]", "true")
    merged = _spec(cluster, jobid)["resreq_merged"]
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
    assert _spec(cluster, jobid)["memlimit"] == kb


@pytest.mark.parametrize("value, minutes", [
    ("45", 45), ("1:30", 90), ("01:05", 65), ("0:59", 59)])
def test_W_is_minutes_or_hours_and_minutes(make_cluster, value, minutes):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("-W", value, "true")
    assert _spec(cluster, jobid)["runlimit"] == minutes
    r = cluster.run("bjobs", "-l", str(jobid))
    assert f" {float(minutes):.1f} min" in r.out


def test_bkill_of_several_ids_terminates_each(make_cluster):
    cluster, blocker = blocked(make_cluster)
    pending = [cluster.submit("sleep 60") for _ in range(3)]
    ids = [blocker] + pending
    r = cluster.run("bkill", *map(str, ids))
    assert (r.rc, r.err) == (0, "")
    assert r.out == "".join(f"Job <{j}> is being terminated\n" for j in ids)
    for j in ids:
        cluster.wait_stat(j, "EXIT")


def test_bjobs_noheader_jobid_stat_for_given_ids(cluster):
    done = cluster.submit("true")
    cluster.wait_stat(done, "DONE")
    live = cluster.submit("sleep 60")
    cluster.wait_stat(live, "RUN")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", str(done),
                    str(live))
    assert (r.rc, r.err) == (0, "")
    assert [l.split() for l in r.out.splitlines()] == [
        [str(done), "DONE"], [str(live), "RUN"]]
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", str(live),
                    "99999")
    assert r.rc == 0 and r.out.split() == [str(live), "RUN"]
    assert r.err == "Job <99999> is not found\n"
