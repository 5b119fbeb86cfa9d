"""xce sim --verify: a mixed workload runs live on virtual hosts (arrays, a
parallel job with span, a dependency, a queue slot limit, slot
reservation with backfill, preemption), then the simulator replays the
run's inputs from the store and finds every decision the same."""

import json

from xce.sim import history, lsblog
from tests.lib.xcecluster import Cluster, virtual_names, wait_for

QUEUES = """\
  bf:
    PRIORITY: 20
    SLOT_RESERVE: MAX_RESERVE_TIME[50]
    BACKFILL: Y
  lim:
    PRIORITY: 25
    UJOB_LIMIT: 2
  high:
    PRIORITY: 70
    PREEMPTION: PREEMPTIVE[bf]
"""


def _all_ended(c, n):
    r = c.run("bjobs", "-a", "-noheader", "-o", "stat")
    ended = [s for s in r.out.split() if s in ("DONE", "EXIT")]
    return len(ended) >= n and ended


def test_a_live_mixed_run_replays_with_no_difference(tmp_path):
    c = Cluster(tmp_path / "c", virtual_hosts=virtual_names(3), mxj=2,
                extra_queues=QUEUES)
    try:
        c.start(timeout=120)
        for q in ("bf", "lim", "high"):
            assert c.run("badmin", "qinact", q).rc == 0
        first = c.submit("-q", "bf", "-n", "4", "-R", "span[ptile=2]",
                         "-W", "1", "sleep 3")
        c.submit("-q", "bf", "-J", "arr[1-5]", "-W", "1", "sleep 2")
        c.submit("-q", "bf", "-n", "6", "-W", "1", "sleep 1")
        c.submit("-q", "bf", "-w", f"done({first})", "-W", "1", "sleep 1")
        c.submit("-q", "lim", "-J", "l[1-4]", "sleep 1")
        assert c.run("badmin", "qact", "bf").rc == 0
        c.wait_stat(first, "RUN", timeout=60)
        # Every slot is taken: the high job preempts bf jobs.
        assert c.run("badmin", "qact", "high").rc == 0
        high = c.submit("-q", "high", "-n", "2", "sleep 2")
        c.wait_stat(high, "RUN", "DONE", timeout=60)
        assert c.run("badmin", "qact", "lim").rc == 0
        wait_for(lambda: _all_ended(c, 13), timeout=180,
                 what="13 jobs to end")
        r = c.run("xce", "sim", "--verify", "--envdir", str(c.envdir),
                  timeout=120)
        # The run's history as a workload: its 13 jobs, as they ran.
        store = c.spool / "store" / "xce.db"
        replay = c.run("xce", "sim", "--workload", str(store), "--envdir",
                       str(c.envdir), "--json", timeout=120)
        # And from LSF's files the run wrote: the same jobs, the same run.
        # The files follow the replies (lsb.events(5)): polled up to the
        # 13 ends.
        c.wait_lsb_records("lsb.acct", "JOB_FINISH",
                           until=lambda r: len(r) >= 13)
        c.wait_lsb_records("lsb.events", "JOB_STATUS", until=lambda r: sum(
            int(w[4]) & (32 | 64) != 0 for w in r) >= 13)
        logdir = c.logdir
        from_logs = [c.run("xce", "sim", "--workload", str(logdir / name),
                           "--envdir", str(c.envdir), "--json",
                           timeout=120)
                     for name in ("lsb.events", "lsb.acct")]
    finally:
        c.stop()
    assert (r.rc, r.err) == (0, ""), r
    first_line = r.out.splitlines()[0]
    assert first_line.endswith(": 0 difference(s)"), r.out
    # Every job started (13), and the preemption and resume were checked.
    assert "(13 start(s), 1 preempt(s), 1 resume(s))" in first_line, r.out
    assert (replay.rc, replay.err) == (0, ""), replay
    summary = json.loads(replay.out.splitlines()[-1])
    assert (summary["jobs"], summary["rejected"]) == (13, []), summary
    # LSF's logs keep whole seconds: the same jobs, submissions and
    # queues, with run times within a second of the store's.
    for r in from_logs:
        assert (r.rc, r.err) == (0, ""), r
        got = json.loads(r.out.splitlines()[-1])
        assert (got["jobs"], got["rejected"]) == (13, []), got
        assert {q: v["jobs"] for q, v in got["per_queue"].items()} == \
            {q: v["jobs"] for q, v in summary["per_queue"].items()}, got
    stored = history.read(store).jobs
    for name in ("lsb.events", "lsb.acct"):
        logged = lsblog.read(logdir / name)
        assert logged.bad == [], (name, logged.bad)
        assert len(logged.jobs) == len(stored) == 13
        for a, b in zip(logged.jobs, stored):
            assert (a.number, int(a.submit), a.procs, a.user) == \
                (b.number, int(b.submit), b.procs, b.user), name
            for key in ("queue", "nslots", "runlimit", "asked_hosts"):
                assert a.spec.get(key) == b.spec.get(key), (name, key)
            assert a.spec["resreq"] == (b.spec.get("resreq") or []), name
            assert abs(a.run - b.run) <= 1.0, (name, a, b)


def test_a_job_waiting_for_a_decaying_reservation_replays_the_same(
        tmp_path):
    """The live controller passes when something changed or a
    reservation shrank (rusagewake), not at every agent report; the
    replay must not pass at every later turn once one change was seen."""
    c = Cluster(tmp_path / "c", virtual_hosts=virtual_names(1), mxj=4,
                extra_params="  XCE_LOAD_PASS_INTERVAL: 30",
                extra="limits:\n  - NAME: mem\n    USERS: all\n"
                      "    MEM: 1000\n")
    try:
        c.start(timeout=60)
        # 600 MB that shrink to nothing over 20 s; the second job's
        # 500 MB fit after 3.4 s, and live passes for it when the
        # reservation ends (the decay steps pass at most every 30 s).
        first = c.submit("-o", "/dev/null", "-R",
                         "rusage[mem=600:duration=20s:decay=1]", "sleep 25")
        c.wait_stat(first, "RUN")
        second = c.submit("-o", "/dev/null", "-R", "rusage[mem=500]", "true")
        c.wait_stat(second, "DONE", timeout=60)
        r = c.run("xce", "sim", "--verify", "--envdir", str(c.envdir),
                  timeout=120)
    finally:
        c.stop()
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.splitlines()[0].endswith(": 0 difference(s)"), r.out
    assert "(2 start(s)," in r.out, r.out
