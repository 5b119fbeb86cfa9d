"""bsub -b, -t, -We and -Jd end to end: what bsub says, what bjobs -l,
bhist -l and lsb.events show, and LSF's refusals.  What the controller
does when a time comes is shown without waiting, by its turn driven with
a clock (tests/unit/test_job_times_turns.py)."""

import time

import pytest

from xce.client.submit import times
from xce.client.text.units import long_time
from tests.lib.timezone import Zone

HOUR = 3600


def _clock(t, fields):
    """*t* as bsub -b/-t words with the last *fields* fields."""
    lt = time.localtime(t)
    parts = [lt.tm_year, lt.tm_mon, lt.tm_mday, lt.tm_hour, lt.tm_min]
    return ":".join(str(p) for p in parts[-fields:])


def _whole_minute(t):
    lt = time.localtime(t)
    return time.mktime((lt.tm_year, lt.tm_mon, lt.tm_mday, lt.tm_hour,
                        lt.tm_min, 0, 0, 0, -1))


def _long(cluster, jobid, command="bjobs"):
    """The -l text with its folded lines joined (LSF folds at 79 columns,
    inside words) and one blank between words."""
    r = cluster.run(command, "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return _squeeze(r.joined)


def _squeeze(text):
    return " ".join(text.split())


def test_a_future_begin_time_keeps_the_job_pending_with_lsf_reason(cluster):
    later = _whole_minute(time.time() + 2 * HOUR)
    r = cluster.run("bsub", "-b", _clock(later, 2), "true")
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    assert r.err == f"Job will be scheduled after {times.shown(later)}\n"
    r = cluster.run("bjobs", "-l", str(jobid))
    assert " The job has a specified start time;" in r.joined.splitlines()
    text = _long(cluster, jobid)
    assert _squeeze(f"Specified Start Time <{long_time(later)}>") in text
    assert cluster.stat(jobid) == "PEND"
    assert _squeeze(f"Specified Start Time <{long_time(later)}>") in \
        _long(cluster, jobid, "bhist")
    new = cluster.wait_lsb_records("lsb.events", "JOB_NEW", jobid)[0]
    assert new[8] == str(int(later)), new       # beginTime


def test_a_begin_time_with_a_year_that_has_passed_is_reached(cluster):
    """The current minute, with its year: already reached, the job runs."""
    now = _whole_minute(time.time())
    jobid = cluster.submit("-b", _clock(now, 5), "true")
    cluster.wait_stat(jobid, "DONE")


def test_a_termination_time_is_shown_and_announced(cluster):
    now = time.time()
    begin = _whole_minute(now + 2 * HOUR)
    term = _whole_minute(now + 3 * HOUR)
    r = cluster.run("bsub", "-b", _clock(begin, 5), "-t", _clock(term, 4),
                    "-Jd", "nightly run", "-We", "1:30", "echo", "hi")
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    assert r.err.splitlines() == [
        f"Job will be scheduled after {times.shown(begin)}",
        f"Job will be terminated by {times.shown(term)}"]
    text = _long(cluster, jobid)
    assert _squeeze(f"Specified Termination Time <{long_time(term)}>") in text
    assert _squeeze("Command <echo hi>, Job Description <nightly run>") in text
    assert _squeeze("ESTIMATED_RUNTIME: 90.0 min of ") in text
    assert _squeeze("based on user provided runtime estimation.") in text


def test_a_running_job_is_ended_at_its_termination_time(cluster):
    """Through a real agent: at -t the job gets SIGUSR2 (which ends a
    job that does not catch it) and ends EXIT with TERM_DEADLINE.  bsub
    reads -t in its time zone, one whose next minute is seconds away."""
    zone = Zone(lead=12)
    term = zone.next_minute(lead=10)    # time to start it before then
    r = cluster.run("bsub", "-t", zone.clock(term), "-o", "out",
                    "trap 'echo got USR2; exit 140' USR2; "
                    "while :; do sleep 1; done", env={"TZ": zone.tz})
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    # Its start may be seen late on a loaded machine: "got USR2" below
    # says it ran when the deadline came.
    cluster.wait_stat(jobid, "RUN", "EXIT")
    cluster.wait_stat(jobid, "EXIT", timeout=term - time.time() + 30)
    row = cluster.stored_job(jobid)
    assert row["exit_reason"] == "TERM_DEADLINE"
    assert term <= row["end_time"] < term + 20, (term, row["end_time"])
    assert "got USR2" in (cluster.root / "out").read_text()
    assert "TERM_DEADLINE: job killed after deadline expires" in \
        (cluster.root / "out").read_text()
    for command in ("bjobs", "bhist", "bacct"):
        assert "TERM_DEADLINE" in _long(cluster, jobid, command), command
    assert cluster.proc.poll() is None


@pytest.mark.parametrize("argv, err", [
    (["-b", "25:00"], "25:00: Bad time specification. Job not submitted.\n"),
    (["-b", "10"], "10: Bad time specification. Job not submitted.\n"),
    (["-t", "1:2:3:4:5:6"],
     "1:2:3:4:5:6: Bad time specification. Job not submitted.\n"),
    (["-t", "2020:1:1:0:0"], "Bad time specification. Job not submitted.\n"),
    (["-b", "x:10"], "x:10: Bad time specification. Job not submitted.\n"),
    (["-We", "abc"],
     "abc: Bad runtime estimation specification. Job not submitted.\n"),
])
def test_bad_times_are_refused_and_nothing_is_submitted(cluster, argv, err):
    r = cluster.run("bsub", *argv, "true")
    assert (r.rc, r.out, r.err) == (255, "", err)
    r = cluster.run("bjobs", "-a")
    assert r.rc == 0 and r.out == "", r      # nothing was submitted


def test_a_begin_time_after_the_termination_time_is_refused(cluster):
    now = time.time()
    r = cluster.run("bsub", "-b", _clock(now + 3 * HOUR, 5),
                    "-t", _clock(now + 2 * HOUR, 5), "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("Start time is later than termination time. "
                     "Job not submitted.\n")


def test_oo_and_eo_overwrite_and_jd_is_not_read_as_j(cluster):
    (cluster.root / "w.out").write_text("old out\n")
    (cluster.root / "w.err").write_text("old err\n")
    jobid = cluster.submit("-oo", "w.out", "-eo", "w.err", "-Jd", "a b",
                           "echo new; echo bad >&2")
    cluster.wait_stat(jobid, "DONE")
    assert (cluster.root / "w.out").read_text().startswith("new\n")
    assert (cluster.root / "w.err").read_text() == "bad\n"
    text = _long(cluster, jobid)
    assert "Job Name" not in text
    assert _squeeze("Output File (overwrite) <w.out>") in text
    assert _squeeze("Error File (overwrite) <w.err>") in text
    for command in ("bjobs", "bhist"):
        assert _squeeze("Command <echo new; echo bad >&2>, Job Description "
                        "<a b>") in _long(cluster, jobid, command), command


def test_bhist_l_shows_the_mail_address_as_bjobs_l_does(cluster):
    jobid = cluster.submit("-H", "-u", "ann@example.org", "true")
    for command in ("bjobs", "bhist"):
        assert _squeeze("Project <default>, Mail <ann@example.org>") in \
            _long(cluster, jobid, command), command
    assert cluster.run("bkill", str(jobid)).rc == 0


def test_the_queue_estimate_is_shown_for_a_job_without_we(make_cluster):
    cluster = make_cluster(extra_queues="  est:\n    PRIORITY: 35\n"
                           "    ESTIMATED_RUNTIME: 30\n")
    later = _clock(time.time() + 2 * HOUR, 5)
    jobid = cluster.submit("-q", "est", "-b", later, "true")
    text = _long(cluster, jobid)
    assert _squeeze("ESTIMATED_RUNTIME: 30.0 min of ") in text
    assert _squeeze("based on queue configured runtime estimation.") in text


def test_bmod_changes_and_removes_the_times_estimate_and_description(
        cluster):
    now = time.time()
    begin = _whole_minute(now + 2 * HOUR)
    jobid = cluster.submit("-b", _clock(begin, 5), "-Jd", "first", "true")
    term = _whole_minute(now + 3 * HOUR)
    r = cluster.run("bmod", "-t", _clock(term, 5), "-We", "20",
                    "-Jd", "second", str(jobid))
    assert r.rc == 0, r
    assert r.out == f"Parameters of job <{jobid}> are being changed\n"
    assert r.err == f"Job will be terminated by {times.shown(term)}\n"
    text = _long(cluster, jobid)
    assert _squeeze(f"Specified Termination Time <{long_time(term)}>") \
        in text
    assert _squeeze("Job Description <second>") in text
    assert _squeeze("ESTIMATED_RUNTIME: 20.0 min") in text
    r = cluster.run("bmod", "-b", _clock(now + 4 * HOUR, 5), str(jobid))
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == ("Start time is later than termination time. "
                     "Job not modified.\n")
    r = cluster.run("bmod", "-b", "99:99", str(jobid))
    assert (r.rc, r.err) == (
        255, "99:99: Bad time specification. Job not modified.\n"), r
    r = cluster.run("bmod", "-b", "1:00", "-bn", str(jobid))
    assert r.rc == 255, r
    r = cluster.run("bmod", "-bn", "-tn", "-Wen", "-Jdn", str(jobid))
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "DONE")        # no begin time any more
    text = _long(cluster, jobid)
    for gone in ("Specified Start Time", "Specified Termination",
                 "Job Description", "ESTIMATED_RUNTIME"):
        assert gone not in text
