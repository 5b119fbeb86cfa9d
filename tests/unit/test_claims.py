"""Claims in the controller's turn, driven in process (the in-memory spool
and agent link of tests/lib): a GPU job's claim is made at its start and
released at its end, a standalone claim reaches the scheduler's view of
the host and ends by itself at its --until time, a restarted
controller reads both kinds back from the store, a job's claim holds
while its host is lost (UNKWN), and licence tokens claimed with
duration and decay come back to a waiting job."""

import pytest

from xce.controller import dispatch
from xce.store.reader import Reader

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

V100 = {"model": "TeslaV100", "memory": "16G"}
GPU_HOST = {"h1": {"MXJ": 4, "gpus": [V100, V100]}}
SITE = site_yaml("claims", GPU_HOST)
TOKENS_SITE = site_yaml("claims", GPU_HOST, resources={"lic": {
    "TYPE": "Numeric", "DESCRIPTION": "(Solver tokens)",
    "LOCATION": "(2@[all])"}})
HELLO = hello("h1")


def _spec():
    return submission(gpu="num=1:mode=exclusive_process")


def _controller(etc):
    return started_controller(site(etc, SITE), etc)


@pytest.fixture
def etc(tmp_path):
    return tmp_path / "etc"


def _rows(ctl):
    with Reader(ctl.store.path) as reader:
        return {(r[0], r[1]): (r[4], r[5]["gpus"]) for r in reader.claims()}


def _reply(ctl, req_id):
    return ctl.spool.replies[req_id]


def test_a_job_claim_lives_from_start_to_end_and_a_claim_expires(etc):
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    req = ctl.spool.put("claim", {"op": "add", "user": "root",
                                  "host": "h1", "gpus": [1],
                                  "until": 1010}, uid=0)
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1001.0)
    assert _reply(ctl, req) == {"ok": True, "text": "Claim <1> is created"}
    # root's job takes its claimed device first.
    assert ctl.jobs[(1, 0)]["spec"]["gpu_alloc"]["hosts"] == {"h1": [1]}
    assert _rows(ctl) == {("1", "h1"): ("root", [1]),
                          ("job 1", "h1"): ("root", [1])}
    hosts = {h.name: h for h in dispatch.snapshot(ctl)[1]}
    assert [(d.id, d.claim, d.njobs) for d in hosts["h1"].gpus] == [
        (0, None, 0), (1, "root", 1)]
    # A restarted controller reads both back.
    ctl.store.close()
    ctl = _controller(etc)
    assert sorted(ctl.claims.by_id) == ["1", "job 1"]
    assert ctl.claims.last_id == 1
    ctl.run_once(1002.0, inbox=[("h1", [
        {**HELLO, "jobs": [{"job": 1, "idx": 0, "attempt": 1,
                            "state": "running", "pid": 7}]},
        {"op": "finished", "job": 1, "idx": 0, "attempt": 1,
         "stat": "DONE", "exit_code": 0, "end_time": 1002.0}])])
    assert _rows(ctl) == {("1", "h1"): ("root", [1])}
    ctl.run_once(1010.0)            # its --until time
    assert _rows(ctl) == {}
    assert ctl.claims.by_id == {}
    ctl.store.close()


def test_a_claim_of_a_job_is_not_removed_and_unknown_claims_are_named(etc):
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1001.0)
    bad = [ctl.spool.put("claim", {"op": "remove", "claim": c}, uid=0)
           for c in ("job 1", "7")]
    past = ctl.spool.put("claim", {"op": "add", "user": "root", "host": "h1",
                                   "gpus": [0], "until": 900}, uid=0)
    ctl.run_once(1002.0)
    assert [_reply(ctl, r)["error"] for r in bad + [past]] == [
        "job 1: The claim of a job ends with the job; not removed",
        "7: No such claim", "--until: the time is already past"]
    assert list(_rows(ctl)) == [("job 1", "h1")]
    ctl.store.close()


def test_a_job_claim_holds_its_rusage_terms_and_the_pass_decays_them(etc):
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    spec = dict(_spec(), resreq=["rusage[mem=2:duration=10:decay=1]"])
    ctl.spool.put("submit", {"spec": spec}, uid=0)
    ctl.run_once(1001.0)
    job = ctl.jobs[(1, 0)]
    claim = ctl.claims.by_id["job 1"]
    # duration=10 is minutes, as in LSF
    assert claim["parts"]["h1"][1] == [("mem", 2.0, 600, True)]
    with Reader(ctl.store.path) as reader:
        assert reader.claims()[0][6] == [["mem", 2.0, 600, True]]
    # What the pass charges comes from the claim, decayed by run time.
    start = job["start_time"]
    ctl.now = start + 300
    assert dispatch.reserved(ctl, job) == {"mem": pytest.approx(1.0)}
    ctl.now = start + 600
    assert dispatch.reserved(ctl, job) == {}
    ctl.store.close()


def test_sim_verify_replays_standalone_claims(etc):
    from xce.sim.verify import verify
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    ctl.spool.put("claim", {"op": "add", "user": "nobody", "host": "h1",
                            "gpus": [0, 1]}, uid=0)
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1001.0)
    assert ctl.jobs[(1, 0)]["stat"] == "PEND"   # every device is nobody's
    ctl.spool.put("claim", {"op": "remove", "claim": "1"}, uid=0)
    ctl.run_once(1002.0)
    assert ctl.jobs[(1, 0)]["stat"] == "RUN"
    ctl.store.close()
    v = verify(ctl.cfg, ctl.store.path)
    assert (v.kinds.get("start"), v.differences) == (1, [])
    assert not {"CLAIM_ADD", "CLAIM_REMOVE"} & set(v.skipped)


def test_licence_tokens_of_a_claim_decay_and_a_waiting_job_takes_them(etc):
    """Cluster-wide tokens reserved with duration and decay: the claim
    holds what the job started with, the pass charges less and less of
    it, and a job waiting for a token starts once one is left."""
    ctl = started_controller(site(etc, TOKENS_SITE), etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    first = dict(_spec(), gpu=None,
                 resreq=["rusage[lic=2:duration=10:decay=1]"])
    ctl.spool.put("submit", {"spec": first}, uid=0)
    ctl.run_once(1001.0)
    ctl.spool.put("submit", {"spec": dict(_spec(), gpu=None,
                                          resreq=["rusage[lic=1]"])}, uid=0)
    ctl.run_once(1002.0)
    job = ctl.jobs[(1, 0)]
    assert ctl.claims.by_id["job 1"]["parts"]["h1"][1] == [
        ("lic", 2.0, 600, True)]
    assert (job["stat"], ctl.jobs[(2, 0)]["stat"]) == ("RUN", "PEND")
    assert "reserving resource (lic)" in ctl.jobs[(2, 0)]["pend_reason"]
    # Half the duration gone: one token is charged, one is free.
    ctl.now = job["start_time"] + 300
    assert dispatch.reserved(ctl, job) == {"lic": pytest.approx(1.0)}
    # The next pass (live, the agents' load reports bring one at least
    # every XCE_LOAD_PASS_INTERVAL) starts the waiting job.
    ctl.dirty = True
    ctl.run_once(job["start_time"] + 301)
    assert ctl.jobs[(2, 0)]["stat"] == "RUN"
    ctl.store.close()


def test_decay_alone_freeing_a_token_starts_a_pass_at_that_time(etc):
    """No job ends and no request comes: the controller wakes when the
    decaying reservation has freed the token the waiting job needs (not
    at the next load report), and no sooner."""
    ctl = started_controller(site(etc, TOKENS_SITE), etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    ctl.spool.put("submit", {"spec": dict(
        _spec(), gpu=None, resreq=["rusage[lic=2:duration=10:decay=1]"])},
        uid=0)
    ctl.run_once(1001.0)
    ctl.spool.put("submit", {"spec": dict(_spec(), gpu=None,
                                          resreq=["rusage[lic=1]"])}, uid=0)
    ctl.run_once(1002.0)
    start = ctl.jobs[(1, 0)]["start_time"]
    assert ctl.jobs[(2, 0)]["stat"] == "PEND"
    # 2 tokens over 600 s: the second whole one is free half-way through.
    assert ctl.passes.rusage_next == pytest.approx(start + 300)
    ctl.run_once(start + 299)
    assert ctl.jobs[(2, 0)]["stat"] == "PEND"
    assert ctl.run_once(start + 299.5) <= 0.5 + 1e-6    # sleeps no longer
    ctl.run_once(start + 300)
    assert ctl.jobs[(2, 0)]["stat"] == "RUN"
    ctl.store.close()


def test_a_job_claim_holds_through_its_hosts_loss_and_a_restart(etc):
    from xce.controller import hostloss
    ctl = _controller(etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    ctl.spool.put("submit", {"spec": _spec()}, uid=0)
    ctl.run_once(1001.0)
    device = ctl.jobs[(1, 0)]["spec"]["gpu_alloc"]["hosts"]["h1"]
    ctl.now = 1002.0
    hostloss.mark_unknown(ctl, "h1")        # its agent is gone
    ctl.run_once(1002.0)
    assert ctl.jobs[(1, 0)]["stat"] == "UNKWN"
    assert _rows(ctl) == {("job 1", "h1"): ("root", device)}
    # A restarted controller still charges the device of the UNKWN job.
    ctl.store.close()
    ctl = _controller(etc)
    assert ctl.jobs[(1, 0)]["stat"] == "UNKWN"
    hosts = {h.name: h for h in dispatch.snapshot(ctl)[1]}
    assert [d.njobs for d in hosts["h1"].gpus if d.id in device] == [1]
    # The agent comes back without it: the job ends, and so does its claim.
    ctl.run_once(1003.0, inbox=[("h1", [HELLO])])
    assert (1, 0) not in ctl.jobs
    assert _rows(ctl) == {}
    ctl.store.close()


def test_a_claim_keeps_licence_tokens_for_its_user_and_verify_replays_it(
        etc):
    import pwd
    from xce.sim.verify import verify
    nobody = pwd.getpwnam("nobody").pw_uid
    ctl = started_controller(site(etc, TOKENS_SITE), etc)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    req = ctl.spool.put("claim", {"op": "add", "user": "nobody",
                                  "counters": {"lic": 1}}, uid=0)
    ctl.run_once(1001.0)
    assert _reply(ctl, req) == {"ok": True, "text": "Claim <1> is created"}
    tokens = dict(_spec(), gpu=None, resreq=["rusage[lic=1]"])
    for _ in (1, 2):
        ctl.spool.put("submit", {"spec": tokens}, uid=0)
    ctl.run_once(1002.0)
    # Of two tokens one is nobody's: root's second job waits.
    assert [ctl.jobs[(n, 0)]["stat"] for n in (1, 2)] == ["RUN", "PEND"]
    ctl.spool.put("submit", {"spec": tokens}, uid=nobody)
    ctl.run_once(1003.0)
    assert [ctl.jobs[(n, 0)]["stat"] for n in (2, 3)] == ["PEND", "RUN"]
    with Reader(ctl.store.path) as reader:
        assert [(r[0], r[1], r[4], r[6]) for r in reader.claims()
                if r[2] is None] == [("1", "", "nobody",
                                      [["lic", 1.0, 0, False]])]
    # Removed, the claim keeps nothing: the token nobody's job gives
    # back goes to root's waiting job.
    ctl.spool.put("claim", {"op": "remove", "claim": "1"}, uid=0)
    ctl.run_once(1004.0, inbox=[("h1", [
        {"op": "finished", "job": 3, "idx": 0, "attempt": 1,
         "stat": "DONE", "exit_code": 0, "end_time": 1004.0}])])
    assert ctl.jobs[(2, 0)]["stat"] == "RUN"
    ctl.store.close()
    v = verify(ctl.cfg, ctl.store.path)
    assert (v.kinds.get("start"), v.differences) == (3, [])


@pytest.mark.parametrize("body, error", [
    ({"counters": {"mem": 1}}, "mem: Not a shared resource; only tokens of "
     "a shared resource (ResourceMap) can be claimed"),
    ({"counters": {"lic": 3}}, "lic: 3 with the 0 that other claims keep "
     "is more than the 2 there are"),
    ({"counters": {"lic": 1}, "host": "nosuch"},
     "nosuch: Bad host name, host group name or cluster name"),
    ({"counters": {"lic": 1}, "gpus": [0], "host": "h1"},
     "A claim holds --gpus of a host or --counter tokens of shared "
     "resources: give one of them"),
    ({}, "A claim holds --gpus of a host or --counter tokens of shared "
     "resources: give one of them"),
    ({"gpus": [0]}, "--gpus: name the host of the devices with --host"),
])
def test_bad_counter_claims_are_refused(etc, body, error):
    ctl = started_controller(site(etc, TOKENS_SITE), etc)
    req = ctl.spool.put("claim", {"op": "add", "user": "nobody", **body},
                        uid=0)
    ctl.run_once(1000.0, inbox=[("h1", [HELLO])])
    assert _reply(ctl, req) == {"ok": False, "error": error}
    assert ctl.claims.by_id == {}
    ctl.store.close()
