"""Pure parts of bjobs -A, -W, -psum/-pe/-pi, the filed-under filters and
the submit-time profile checks."""

import json
import sqlite3
import time

import pytest

from xce.client.jobs import arrays as jobarray
from xce.client.jobs import wide as jobwide
from xce.client.jobs import pending as pendsum
from xce.client.jobs.filters import Filters
from xce.config.model import Config
from xce.config.appconf import AppConf
from xce.store.schema import SET_ASIDE
from xce.controller.submit import Rejected, apply_profile, check_profiles

from tests.lib.fake_controller import FakeController


def _pending(jobid, reasons=None, stat="PEND"):
    return {"jobid": jobid, "idx": 0, "stat": stat,
            "pend_reason": json.dumps(reasons) if reasons else None}


def test_array_line_columns_line_up_with_the_header():
    counts = {"PEND": 3, "RUN": 1, "DONE": 12, "EXIT": 2}
    line = jobarray.line(1234, "verylongname[1-100]", "someowner", counts,
                         18)
    header = jobarray.HEADER
    assert line.startswith("1234     verylong someowne   ")
    # every number ends where its header word ends
    for word, value in (("NJOBS", "18"), ("PEND", "3"), ("DONE", "12"),
                        ("RUN", "1"), ("EXIT", "2"), ("PSUSP", "0")):
        end = header.index(word) + len(word)
        assert line[end - len(value):end] == value, word
    wide = jobarray.line(1234, "verylongname[1-100]", "someowner", counts,
                         18, wide=True)
    assert wide.startswith("1234     verylongname[1-100] someowner   ")


def test_wide_times_and_cpu():
    t = time.mktime((2026, 3, 4, 5, 6, 7, 0, 0, -1))
    assert jobwide.wide_time(t) == "03/04-05:06:07"
    assert jobwide.wide_time(None) == "-"
    assert jobwide.cpu_text(3723.25) == "001:02:03.25"
    assert jobwide.cpu_text(None) == "000:00:00.00"


def test_extra_columns_keep_lsf_order():
    assert jobwide.extra_header({"WP", "WL"}) == "  TIME_LEFT   %COMPLETE"
    assert jobwide.extra_header(set()) == ""


def test_percent_complete_from_the_run_limit():
    now = 10_000.0
    row = {"stat": "RUN", "start_time": now - 300, "exec_hosts": "h",
           "spec": json.dumps({"runlimit": 10})}
    job = jobwide.Job(row, now)
    assert jobwide.percent_complete(job) == "50% L"
    row["spec"] = "{}"
    assert jobwide.percent_complete(jobwide.Job(row, now)) == ""


def test_condensed_hosts():
    row = {"exec_hosts": "a a b a"}
    assert jobwide.condensed(row)["exec_hosts"] == "3*a b"
    assert jobwide.condensed({"exec_hosts": "a"}) == {"exec_hosts": "a"}


def test_eligibility_of_pending_jobs():
    slots = _pending(1, [["Not enough job slot(s)", ["h1"]]])
    depend = _pending(2, [["Job dependency condition not satisfied", None]])
    held = _pending(3, stat="PSUSP")
    new = _pending(4)
    rows = [slots, depend, held, new]
    assert pendsum.select(rows, True) == [slots, new]
    assert pendsum.select(rows, False) == [depend, held]


def test_pending_summary_counts_jobs_and_host_occurrences():
    rows = [_pending(1, [["Not enough job slot(s)", ["h1", "h2"]],
                         ["Closed by LSF administrator", ["h3"]]]),
            _pending(2, [["Not enough job slot(s)", ["h1"]]]),
            _pending(3, [["Job dependency condition not satisfied", None]])]
    text = pendsum.summary(rows, "clu", now=0)
    lines = text.splitlines()
    assert lines[0].startswith("Pending reason summary: published ")
    assert lines[1] == "Summarizing 3 pending jobs in cluster (clu):"
    squeezed = [" ".join(line.split()) for line in lines[2:]]
    assert squeezed == ["Individual host based reasons: 2 jobs",
                        "Not enough job slot(s): 3",
                        "Closed by LSF administrator: 1",
                        "Job dependency condition not satisfied: 1 job"]
    assert lines[3].startswith("    Not enough")


def _filtered(filters, jobs):
    """Ids of *jobs* ((id, exec_hosts, spec)) the filters' SQL selects,
    next to job 9, a row the controller set aside whose spec is no JSON."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE jobs(jobid, exec_hosts, exit_reason, spec)")
    db.executemany("INSERT INTO jobs VALUES(?,?,NULL,?)",
                   [(i, h, json.dumps(s)) for i, h, s in jobs])
    db.execute("INSERT INTO jobs VALUES(9, '', ?, '{not json')",
               (SET_ASIDE + "spec is not JSON",))
    where, args = filters.sql()
    return [r[0] for r in db.execute(
        f"SELECT jobid FROM jobs WHERE {where} ORDER BY jobid", args)]


def test_filters_select_on_the_submission_and_the_hosts():
    jobs = [(1, "h1 h1", {"project": "p", "app": "fluent",
                          "job_group": "/a/b", "user_group": "g"}),
            (2, "", {}), (3, "h10", {"job_group": "/ab"}),
            (4, "x*y", {"job_group": "/A/b"})]
    assert _filtered(Filters(project="default"), jobs) == [2, 3, 4, 9]
    assert _filtered(Filters(project="p", app="fluent"), jobs) == [1]
    assert _filtered(Filters(user_group="g"), jobs) == [1]
    assert _filtered(Filters(job_group="/a"), jobs) == [1]
    assert _filtered(Filters(job_group="/a/b"), jobs) == [1]
    assert _filtered(Filters(job_group="/"), jobs) == [1, 3, 4]
    for hosts, found in (({"h1"}, [1]), ({"h1", "h10"}, [1, 3]),
                         ({"x*y"}, [4]), ({"x"}, []), (set(), [])):
        by_host = Filters(host="given")
        by_host.hosts = hosts
        assert _filtered(by_host, jobs) == found, hosts
    assert not Filters()


def _ctl(apps=(), slas=(), groups=None, admins=()):
    cfg = Config(path=None, admins=list(admins), user_groups=groups or {},
                 raw={"applications": {a: {} for a in apps},
                      "service_classes": {s: {} for s in slas}})
    return FakeController(cfg)


@pytest.mark.parametrize("spec, message", [
    ({"sla": "gold"}, "Service classes (-sla) are not supported by xce"),
    ({"user_group": "x"}, "x: Bad user group name"),
    ({"user_group": "g"}, "g: User not in the specified user group"),
    ({"job_group": "a/b"}, "a/b: Bad job group name"),
    ({"job_group": "/a//b"}, "/a//b: Bad job group name"),
])
def test_submit_refuses_what_the_configuration_lacks(spec, message):
    with pytest.raises(Rejected) as e:
        check_profiles(_ctl(groups={"g": ["bob"]}), spec, "alice")
    assert str(e.value) == message


@pytest.mark.parametrize("group, user", [
    ("g", "alice"),         # alice is in sub, a subgroup of g: not direct
    ("most", "bob"),        # all but bob
])
def test_bsub_G_takes_only_a_group_the_user_is_a_direct_member_of(group,
                                                                  user):
    ctl = _ctl(groups={"g": ["sub", "carl"], "sub": ["alice"],
                       "most": ["all", "~bob"]})
    with pytest.raises(Rejected) as e:
        check_profiles(ctl, {"user_group": group}, user)
    assert str(e.value) == f"{group}: User not in the specified user group"


def test_submit_refuses_an_unknown_profile_and_fills_from_a_known_one():
    cfg = Config(path=None, apps={"fluent": AppConf("fluent",
                                                    limits={"runlimit": 5})})
    with pytest.raises(Rejected) as e:
        apply_profile(cfg, {"app": "x"})
    assert str(e.value) == "Application profile does not exist"
    spec = {"app": "fluent"}
    apply_profile(cfg, spec)
    filled = {"app": "fluent", "runlimit": 5, "app_filled": ["runlimit"]}
    assert spec == filled
    cfg.params["DEFAULT_APPLICATION"] = "fluent"
    spec = {}
    apply_profile(cfg, spec)
    assert spec == filled


def test_submit_accepts_known_names_and_members():
    ctl = _ctl(apps=["fluent"], slas=["gold"],
               groups={"g": ["sub"], "sub": ["alice"],
                       "everyone": ["all"], "most": ["all", "~bob"]})
    check_profiles(ctl, {"app": "fluent", "user_group": "sub",
                         "job_group": "/proj/run_1"}, "alice")
    check_profiles(ctl, {"user_group": "everyone"}, "alice")
    check_profiles(ctl, {"user_group": "most"}, "alice")
    # an administrator may charge any group
    check_profiles(_ctl(groups={"g": ["bob"]}, admins=["root"]),
                   {"user_group": "g"}, "root")
