"""Queue preemption end to end: a job of a PREEMPTIVE queue starts at once
on a full host by suspending (SSUSP) a job of a lower-priority queue, which
is resumed when the preemptive job ends and finishes with its own status."""

import re

import pytest

from tests.lib.xcecluster import Cluster, group_stopped, wait_for

QUEUES = ("  high:\n    PRIORITY: 70\n    PREEMPTION: PREEMPTIVE[low]\n"
          "  low:\n    PRIORITY: 10\n")
# The preemptive job, and the low jobs that count to a file in small steps
# until low.go (time stopped does not count, so the count stands still
# while a job is suspended), run until the test has seen what it needs, not
# for a guessed number of seconds.
HIGH = "while [ ! -e high.go ]; do sleep 0.02; done"
COUNTER = ("i=0; while [ ! -e low.go ]; do i=$((i+1)); "
           "echo $i > tick.$LSB_JOBID; sleep 0.2; done; exit {code}")


@pytest.fixture
def preempt_cluster(tmp_path):
    c = Cluster(tmp_path / "c", mxj=2, extra_queues=QUEUES)
    try:
        yield c.start()
    finally:
        c.stop()


def _ticks(cluster, jobid):
    try:
        return int((cluster.root / f"tick.{jobid}").read_text())
    except (OSError, ValueError):
        return 0


def _counts_on(cluster, jobid, held):
    """The resumed job's next count follows the one it was held at: it
    was resumed, not started again."""
    after = wait_for(lambda: _ticks(cluster, jobid) != held and
                     _ticks(cluster, jobid), what="the resumed job to count")
    assert after > held, (after, held)


def test_high_job_preempts_a_low_job_which_resumes_and_keeps_its_status(
        preempt_cluster):
    c = preempt_cluster
    ok = c.submit("-q", "low", COUNTER.format(code=0))
    failing = c.submit("-q", "low", COUNTER.format(code=3))
    c.wait_stat(ok, "RUN")
    c.wait_stat(failing, "RUN")
    wait_for(lambda: _ticks(c, ok) and _ticks(c, failing),
             what="both low jobs to count")
    high = c.submit("-q", "high", HIGH)
    c.wait_stat(high, "RUN")
    wait_for(lambda: {c.stat(ok), c.stat(failing)} == {"RUN", "SSUSP"},
             what="one low job to be preempted")
    victim, other = (ok, failing) if c.stat(ok) == "SSUSP" else (failing, ok)

    r = c.run("bjobs", "-l", str(victim))
    assert r.rc == 0 and r.err == ""
    # Folded lines joined (a fold may cut a word), then one blank
    # between words: the reason follows its heading on the next line.
    text = " ".join(r.joined.split())
    assert "Status <SSUSP>" in text
    assert "SUSPENDING REASONS: The job was preempted by a higher priority " \
        "job;" in text

    # Stopped for real: the other low job counts on, the victim does not.
    # bjobs shows SSUSP once it is committed, before the agent has stopped
    # the job: the count it is held at is read once its processes are.
    pgid = wait_for(lambda: c.job_pid(victim), what="the victim's pid")
    wait_for(lambda: group_stopped(pgid), what="the victim's processes "
             "to be stopped")
    held, start = _ticks(c, victim), _ticks(c, other)
    wait_for(lambda: _ticks(c, other) >= start + 3,
             what="the running low job to count on")
    assert _ticks(c, victim) == held

    (c.root / "high.go").write_text("")
    c.wait_stat(high, "DONE", timeout=20)
    c.wait_stat(victim, "RUN", timeout=20)
    _counts_on(c, victim, held)
    (c.root / "low.go").write_text("")
    c.wait_stat(ok, "DONE", timeout=40)
    c.wait_stat(failing, "EXIT", timeout=40)
    r = c.run("bjobs", "-l", str(failing))
    assert r.rc == 0 and r.err == ""
    assert "Exited with exit code 3." in r.joined


def test_bqueues_l_shows_preemption(preempt_cluster):
    r = preempt_cluster.run("bqueues", "-l", "high")
    assert r.rc == 0 and r.err == ""
    assert "SCHEDULING POLICIES:  PREEMPTIVE\n" in r.out
    assert "PREEMPTION = PREEMPTIVE[low]\n" in r.out
    r = preempt_cluster.run("bqueues", "-l", "low")
    assert r.rc == 0 and "PREEMPT" not in r.out


def test_reconfig_naming_an_unknown_queue_is_refused(preempt_cluster):
    c = preempt_cluster
    yaml = c.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("PREEMPTIVE[low]",
                                             "PREEMPTIVE[low nosuch]"))
    r = c.run("badmin", "reconfig")
    assert r.rc == 255 and r.out == ""
    assert re.search(r"xce\.yaml:\d+: PREEMPTION: nosuch: No such queue",
                     r.err), r.err
    # Still running, with the old configuration.
    r = c.run("bqueues", "-l", "high")
    assert r.rc == 0 and "PREEMPTION = PREEMPTIVE[low]\n" in r.out


def test_a_preempted_job_survives_a_controller_restart_and_resumes(
        make_cluster):
    c = make_cluster(mxj=1, extra_queues=QUEUES)
    low = c.submit("-q", "low", COUNTER.format(code=0))
    c.wait_stat(low, "RUN")
    wait_for(lambda: _ticks(c, low), what="the low job to count")
    high = c.submit("-q", "high", HIGH)
    c.wait_stat(high, "RUN")
    c.wait_stat(low, "SSUSP")
    c.kill_controller()
    c.proc.wait()
    c.start()
    # Still held (neither killed nor resumed early), then back when the
    # high job ends, with its count carried on from where it stopped.
    assert c.stat(low) == "SSUSP"
    held = _ticks(c, low)
    (c.root / "high.go").write_text("")
    c.wait_stat(high, "DONE", timeout=20)
    c.wait_stat(low, "RUN", timeout=20)
    _counts_on(c, low, held)
    (c.root / "low.go").write_text("")
    c.wait_stat(low, "DONE", timeout=30)
