"""lsb.params MAX_JOBID: after it, job ids start again at 1, skipping the
ids of jobs the controller still knows; commands refuse a job id above
it with LSF's "Illegal job ID." (exit 255)."""

import sqlite3

import pytest

from tests.lib.xcecluster import shared_cluster


def set_next_jobid(cluster, jobid):
    """Put the controller's id counter at *jobid* while it is stopped."""
    db = sqlite3.connect(cluster.spool / "store" / "xce.db")
    with db:
        db.execute("INSERT OR REPLACE INTO meta VALUES('next_jobid', ?)",
                   (str(jobid),))
    db.close()


def test_job_ids_wrap_after_max_jobid_skipping_ids_in_use(cluster):
    held = cluster.submit("-H", "true")
    assert held == 1
    cluster.stop()
    set_next_jobid(cluster, 999999)
    cluster.start()
    assert cluster.submit("-H", "true") == 999999
    assert cluster.submit("-H", "true") == 2
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", "1", "2",
                    "999999")
    assert (r.rc, r.err) == (0, "")
    # In submission order: 2 came after 999999 (its seq is later).
    assert r.out.split() == ["1", "PSUSP", "999999", "PSUSP", "2", "PSUSP"]


@pytest.fixture(scope="module")
def raised_max():
    with shared_cluster("xcemaxid-",
                        extra_params="  MAX_JOBID: 1500000") as c:
        yield c


@pytest.mark.parametrize("command", [["bjobs"], ["bkill"], ["bhist", "-l"],
                                     ["bpeek"], ["bmod", "-q", "normal"]])
def test_a_job_id_above_max_jobid_is_illegal(raised_max, command):
    r = raised_max.run(*command, "1500001")
    assert (r.rc, r.out, r.err) == (255, "", "1500001: Illegal job ID.\n")


def test_an_array_element_of_a_job_id_above_max_jobid_is_illegal(raised_max):
    r = raised_max.run("bjobs", "1500001[3]")
    assert (r.rc, r.out, r.err) == (255, "", "1500001[3]: Illegal job ID.\n")


def test_a_job_id_up_to_max_jobid_is_only_not_found(raised_max):
    r = raised_max.run("bjobs", "1500000")
    assert (r.rc, r.out, r.err) == (255, "", "Job <1500000> is not found\n")


def test_the_default_max_jobid_is_999999(cluster):
    r = cluster.run("bjobs", "1000000")
    assert (r.rc, r.out, r.err) == (255, "", "1000000: Illegal job ID.\n")


def test_a_max_jobid_lowered_below_the_counter_wraps_at_the_next_submit(
        make_cluster):
    c = make_cluster(extra_params="  MAX_JOBID: 2000000")
    c.stop()
    set_next_jobid(c, 1500000)
    c.start()
    assert c.submit("-H", "true") == 1500000
    yaml = c.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("MAX_JOBID: 2000000",
                                             "MAX_JOBID: 999999"))
    r = c.run("badmin", "reconfig")
    assert r.rc == 0, r
    assert c.submit("-H", "true") == 1
