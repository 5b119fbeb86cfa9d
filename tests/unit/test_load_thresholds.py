"""Load thresholds (xce.lang.loadthresh), the suspend/resume decision of
run windows and loads (xce.scheduler.suspending), and xce.yaml's windows
and thresholds: read, or refused with file:line."""

import pytest

from xce.config.load import ConfigError
from xce.lang import loadthresh as lt
from xce.scheduler import suspending as sp

from tests.lib.builders import migrated_site, site

BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
"""


@pytest.mark.parametrize("value, pair", [
    ("0.7/2.0", (0.7, 2.0)), ("15/", (15.0, None)), ("/4", (None, 4.0)),
    ("3.5", (3.5, None)), (3, (3.0, None)), (0.5, (0.5, None)),
    ("()", (None, None)), ("-", (None, None)), ("", (None, None)),
    (" 12 / 15 ", (12.0, 15.0)),
])
def test_thresholds_read_lsf_forms(value, pair):
    assert lt.parse(value) == pair


@pytest.mark.parametrize("value", ["a/b", "1/2/3", "-1", "nan", True, "inf"])
def test_a_bad_threshold_is_refused(value):
    with pytest.raises(lt.ThresholdError):
        lt.parse(value)


def test_beyond_is_above_for_growing_indices_and_below_for_free_space():
    th = {"r1m": (0.7, 2.0), "mem": (100.0, 10.0)}
    assert lt.beyond(th, {"r1m": 0.5, "mem": 500}) is None
    assert lt.beyond(th, {"r1m": 0.8, "mem": 500}) == "r1m"
    assert lt.beyond(th, {"r1m": 0.8, "mem": 500}, lt.STOP) is None
    assert lt.beyond(th, {"r1m": 0.1, "mem": 50}) == "mem"
    assert lt.beyond(th, {"r1m": 0.1, "mem": 5}, lt.STOP) == "mem"
    assert lt.beyond(th, {}) is None        # nothing reported yet
    assert lt.beyond(None, {"r1m": 9}) is None


def _sit(**kw):
    sit = sp.Situation(queue_priority={"low": 10, "high": 40})
    for key, value in kw.items():
        setattr(sit, key, value)
    return sit


def test_a_closed_run_window_suspends_and_its_opening_resumes():
    jobs = [sp.Running((1, 0), "low", ["h1"]),
            sp.Running((2, 0), "high", ["h1"])]
    stop, cont = sp.decide(jobs, _sit(run_open={"low": False}))
    assert stop == [((1, 0), sp.WINDOW)] and cont == []
    jobs[0].suspended = sp.WINDOW
    assert sp.decide(jobs, _sit(run_open={"low": False})) == ([], [])
    assert sp.decide(jobs, _sit()) == ([], [(1, 0)])


def test_load_beyond_loadstop_suspends_one_job_lowest_priority_newest():
    jobs = [sp.Running((1, 0), "low", ["h1"], start_time=10),
            sp.Running((2, 0), "low", ["h1"], start_time=20),
            sp.Running((3, 0), "high", ["h1"], start_time=30)]
    sit = _sit(host_load={"h1": {"r1m": 5.0, "it": 0}},
               host_thresholds={"h1": {"r1m": (1.0, 4.0)}})
    assert sp.decide(jobs, sit) == ([((2, 0), "LOAD:r1m")], [])


def test_a_queue_threshold_suspends_only_that_queues_jobs():
    jobs = [sp.Running((1, 0), "low", ["h1"]),
            sp.Running((3, 0), "high", ["h1"])]
    sit = _sit(host_load={"h1": {"mem": 50.0}},
               queue_thresholds={"high": {"mem": (200.0, 100.0)}})
    assert sp.decide(jobs, sit) == ([((3, 0), "LOAD:mem")], [])


def test_the_lone_job_of_an_idle_host_is_not_suspended():
    jobs = [sp.Running((1, 0), "low", ["h1"])]
    sit = _sit(host_load={"h1": {"r1m": 5.0, "it": 3}},
               host_thresholds={"h1": {"r1m": (1.0, 4.0)}})
    assert sp.decide(jobs, sit) == ([], [])
    sit.host_load["h1"]["it"] = 0
    assert sp.decide(jobs, sit)[0] == [((1, 0), "LOAD:r1m")]


def test_a_load_suspended_job_resumes_within_loadsched_one_per_host():
    jobs = [sp.Running((1, 0), "low", ["h1"], "LOAD:r1m", 10),
            sp.Running((2, 0), "high", ["h1"], "LOAD:r1m", 20)]
    th = {"h1": {"r1m": (1.0, 4.0)}}
    busy = _sit(host_load={"h1": {"r1m": 2.0}}, host_thresholds=th)
    assert sp.decide(jobs, busy) == ([], [])      # between sched and stop
    calm = _sit(host_load={"h1": {"r1m": 0.5}}, host_thresholds=th)
    assert sp.decide(jobs, calm) == ([], [(2, 0)])


def test_a_job_suspended_by_paging_waits_for_pg_susp_it_of_idleness():
    """PG_SUSP_IT (default 180 s): within loadSched is not enough for a
    job suspended by pg; its host must also be idle (it, minutes) that
    long.  A job suspended by another index does not wait."""
    th = {"h1": {"pg": (1.0, 4.0), "r1m": (1.0, 4.0)}}
    by_pg = [sp.Running((1, 0), "low", ["h1"], "LOAD:pg", 10)]
    by_r1m = [sp.Running((2, 0), "low", ["h1"], "LOAD:r1m", 10)]
    busy = {"h1": {"pg": 0.5, "r1m": 0.5, "it": 2}}      # 120 s idle
    assert sp.decide(by_pg, _sit(host_load=busy, host_thresholds=th)) == \
        ([], [])
    assert sp.decide(by_r1m, _sit(host_load=busy, host_thresholds=th)) == \
        ([], [(2, 0)])
    idle = {"h1": {"pg": 0.5, "r1m": 0.5, "it": 3}}      # 180 s idle
    assert sp.decide(by_pg, _sit(host_load=idle, host_thresholds=th)) == \
        ([], [(1, 0)])
    assert sp.decide(by_pg, _sit(host_load=busy, host_thresholds=th,
                                 pg_susp_it=60)) == ([], [(1, 0)])
    assert sp.decide(by_pg, _sit(host_load={"h1": {"pg": 0.5}},
                                 host_thresholds=th, pg_susp_it=0)) == \
        ([], [(1, 0)])


def _load(tmp_path, text):
    return site(tmp_path, BASE + text)


def test_xce_yaml_windows_and_thresholds_are_read(tmp_path):
    cfg = _load(tmp_path, """\
hosts:
  default: {r1m: 3.5/4.5, DISPATCH_WINDOW: "(20:00-8:30)"}
  h1: {mem: 100/10}
queues:
  normal:
    RUN_WINDOW: 5:19:00-1:8:30 20:00-8:30
    DISPATCH_WINDOW: 8-18
    ut: 0.7/0.9
""")
    q, h = cfg.queues["normal"], cfg.hosts["h1"]
    assert q.thresholds == {"ut": (0.7, 0.9)}
    assert q.dispatch_window[0] == (480, 1080)
    assert q.run_window is not None
    assert h.thresholds == {"r1m": (3.5, 4.5), "mem": (100.0, 10.0)}
    assert h.dispatch_window[0] == (0, 510)


def test_bad_windows_and_thresholds_are_refused_with_file_and_line(tmp_path):
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, """\
hosts:
  h1: {r1m: fast}
queues:
  normal:
    RUN_WINDOW: 25-8
    DISPATCH_WINDOW: 8
    mem: 1/2/3
""")
    text = "\n".join(info.value.errors)
    path = tmp_path / "xce.yaml"
    assert f"{path}:6: r1m: bad load threshold: 'fast' is not" in text
    assert f"{path}:9: RUN_WINDOW: bad time window: 25-8: 25 is not a " \
        "time of day" in text
    assert f"{path}:10: DISPATCH_WINDOW: bad time window: 8: a time " \
        "window is begin-end" in text
    assert f"{path}:11: mem: bad load threshold:" in text


def test_the_migrator_carries_windows_and_reports_a_bad_one(tmp_path):
    result = migrated_site(tmp_path, {
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\n"
                      "RUN_WINDOW = 5:19:00-1:8:30 20:00-8:30\n"
                      "DISPATCH_WINDOW = 8:00-25:00\n"
                      "r1m = 0.7/2.0\nut = x/y\nEnd Queue\n",
        "lsb.hosts": "Begin Host\nHOST_NAME MXJ r1m DISPATCH_WINDOW\n"
                     "default 2 3.5/4.5 (20:00-8:30)\nEnd Host\n"})
    report = "\n".join(e.label + " " + e.status + " " + (e.why or "")
                       for e in result.migration.entries)
    assert "queue normal RUN_WINDOW = 5:19:00-1:8:30 20:00-8:30 enforced" \
        in report
    assert "queue normal r1m = 0.7/2.0 enforced" in report
    assert "DISPATCH_WINDOW = 8:00-25:00 not carried" in report
    assert "ut = x/y not carried" in report
    cfg = site(tmp_path / "etc", (tmp_path / "etc" / "xce.yaml").read_text())
    assert cfg.queues["normal"].thresholds == {"r1m": (0.7, 2.0)}


def test_the_controller_and_simulator_read_pg_susp_it():
    from types import SimpleNamespace
    from xce.controller import windows
    ctl = SimpleNamespace(cfg=SimpleNamespace(queues={}, params={}),
                          hosts={}, now=0.0)
    assert windows.situation(ctl).pg_susp_it == 180.0
    ctl.cfg.params["PG_SUSP_IT"] = 45
    assert windows.situation(ctl).pg_susp_it == 45.0


def test_a_running_job_switched_to_another_queue_is_looked_at_again():
    """bswitch of a running job (same hosts, new queue) makes the next turn
    enforce the new queue's run window and thresholds at once."""
    from types import SimpleNamespace
    from xce.controller import windows
    ctl = SimpleNamespace(windows=windows.State(on_host={}))
    job = {"jobid": 7, "idx": 0, "stat": "RUN", "exec_hosts": "h1",
           "queue": "normal"}
    windows.noted(ctl, job)
    ctl.windows.changed = False
    windows.noted(ctl, dict(job))               # nothing new
    assert not ctl.windows.changed
    windows.noted(ctl, dict(job, queue="night"))
    assert ctl.windows.changed
