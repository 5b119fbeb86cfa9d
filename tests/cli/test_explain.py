"""xce explain against a real controller: the trace of a pending job names
each host with what it had and what the job wanted; -json parses; unknown,
malformed and not-pending jobs get one LSF-style line and exit 255, and
the controller keeps running."""

import json
import socket

from tests.lib.xcecluster import wait_for

HUGE = 10 ** 12     # more memory than any test machine has


def test_select_on_mem_pending_job_is_explained_host_by_host(cluster):
    host = socket.gethostname()
    jobid = cluster.submit("-R", f"select[mem>{HUGE}]", "true")
    r = cluster.run("xce", "explain", str(jobid))
    assert r.rc == 0, r
    assert r.err == ""
    assert f"Job <{jobid}>, User <root>, Queue <normal>" in r.out
    assert f"{host}" in r.out
    assert "not usable: Job's resource requirements not satisfied" in r.out
    assert "mem: had " in r.out and f"wanted mem > {HUGE}" in r.out
    assert "Decision: stays pending: Job's resource requirements not " \
        "satisfied: 1 host" in r.out

    r = cluster.run("xce", "explain", "-json", str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    doc = json.loads(r.out)
    assert doc["JOBS"] == 1
    trace = doc["RECORDS"][0]
    assert trace["jobid"] == str(jobid) and trace["queue"] == "normal"
    row = next(h for h in trace["hosts"] if h["host"] == host)
    assert row["usable"] is False
    mem = next(d for d in row["details"] if d["what"] == "mem")
    assert isinstance(mem["had"], (int, float)) and mem["had"] < HUGE
    assert mem["wanted"] == f"mem > {HUGE}"
    assert trace["decision"]["action"] == "pend"
    assert cluster.run("bkill", str(jobid)).rc == 0


def test_explain_agrees_with_the_pend_reason_of_the_regular_pass(cluster):
    jobid = cluster.submit("-R", f"select[maxmem>{HUGE}]", "true")
    shown = wait_for(lambda: _pend_reasons(cluster, jobid),
                     what="the pass's pend reason")
    doc = json.loads(cluster.run("xce", "explain", "-json", str(jobid)).out)
    reasons = doc["RECORDS"][0]["decision"]["reasons"]
    assert [f" {text}: {len(hosts)} host;" for text, hosts in reasons] == \
        shown == [" Job's resource requirements not satisfied: 1 host;"]
    assert cluster.run("bkill", str(jobid)).rc == 0


def _pend_reasons(cluster, jobid):
    """The reason lines of bjobs -p for the job, once the pass gave one."""
    r = cluster.run("bjobs", "-p", str(jobid))
    lines = r.out.splitlines()[1:]
    reasons = [x for x in lines if x.startswith(" ")]
    return reasons if reasons and "New job" not in reasons[0] else None


def test_bad_input_gets_one_line_and_exit_255(cluster):
    r = cluster.run("xce", "explain", "999999")
    assert (r.rc, r.out, r.err) == (255, "", "Job <999999> is not found\n")
    r = cluster.run("xce", "explain", "12abc")
    assert (r.rc, r.out, r.err) == (255, "", "12abc: Illegal job ID.\n")
    r = cluster.run("xce", "explain", "-bogus", "1")
    assert r.rc == 255 and r.out == ""
    assert r.err.splitlines()[0] == "xce explain: illegal option -- bogus"
    r = cluster.run("xce", "explain")
    assert r.rc == 255 and r.out == ""
    assert r.err.splitlines()[0] == "xce explain: exactly one job ID is needed"
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    r = cluster.run("xce", "explain", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err == (f"Job <{jobid}> is not pending (status DONE): the "
                     "scheduler has no decision to explain\n")
    # The controller is still there and answers.
    assert cluster.proc.poll() is None
    assert cluster.run("bjobs", "-a", str(jobid)).rc == 0


def test_a_bad_explain_request_in_the_spool_is_answered_not_fatal(cluster):
    from xce.envdir import Site
    from xce.spool.client import call
    site = Site(str(cluster.envdir))
    from xce.spool.client import new_request_id
    # Written by hand: the command itself refuses to spool it.
    req_id = new_request_id()
    tmp = cluster.spool / "tmp" / f"{req_id}.json"
    tmp.write_text(json.dumps({"version": 1, "kind": "explain", "id": req_id,
                               "jobid": "not-a-number"}))
    tmp.rename(cluster.spool / "incoming" / f"{req_id}.json")
    reply = call(site, "explain", {"jobid": 424242}, timeout=20)
    assert reply["ok"] is False and reply["code"] == "NO_JOB"
    bad = cluster.spool / "replies" / f"{req_id}.json"
    wait_for(bad.exists, what="the bad request's reply")
    assert json.loads(bad.read_text())["error"].startswith("Bad request: ")
    assert cluster.proc.poll() is None
