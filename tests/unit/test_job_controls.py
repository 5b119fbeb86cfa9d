"""Queue JOB_CONTROLS, TERMINATE_WHEN, STOP_COND and RESUME_COND: parsed
as LSF writes them, refused with their reason where xce cannot act
(commands, CHKPNT, bad signal names or expressions), read from xce.yaml
with file:line errors, migrated or left out with file:line, and used by
the suspension decision instead of the queue's thresholds."""

import pytest

from xce.config.load import ConfigError
from xce.lang import jobcontrols as jc
from xce.scheduler import suspending as sp

from tests.lib.builders import migrated_site, site

BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
"""


def test_job_controls_take_signal_names_per_action():
    assert jc.parse_controls("SUSPEND[SIGTSTP] RESUME [ SIGCONT ] "
                             "terminate[sigterm]") == {
        "SUSPEND": "SIGTSTP", "RESUME": "SIGCONT", "TERMINATE": "SIGTERM"}
    assert jc.signal_number("SIGUSR1") == 10 or jc.signal_number("USR1")


@pytest.mark.parametrize("value, problem", [
    ("SUSPEND[SIGFOO]", "SIGFOO is not a signal name"),
    ("SUSPEND[brequeue $LSB_JOBID]", "signals only, not commands"),
    ("TERMINATE[CHKPNT]", "xce does not checkpoint jobs"),
    ("STOP[SIGTERM]", "STOP is not SUSPEND, RESUME or TERMINATE"),
    ("SUSPEND[SIGTSTP] SUSPEND[SIGSTOP]", "SUSPEND is given twice"),
    ("SUSPEND SIGTSTP", "is not ACTION[signal]"),
    ("", "no action given"),
])
def test_a_job_control_xce_cannot_act_on_is_refused(value, problem):
    with pytest.raises(jc.ControlError, match=problem.replace("[", r"\[")
                       .replace("$", r"\$")):
        jc.parse_controls(value)


def test_terminate_when_and_conditions():
    assert jc.parse_terminate_when("preempt Window") == ["WINDOW", "PREEMPT"]
    with pytest.raises(jc.ControlError, match="USER is not WINDOW"):
        jc.parse_terminate_when("USER")
    text, sel = jc.parse_condition("it < 5 && r1m > 2")
    assert text == "select[it < 5 && r1m > 2]"
    assert sel.matches({"it": 1, "r1m": 3}) and \
        not sel.matches({"it": 9, "r1m": 3})
    for bad in ("r1m >", "select[r1m > 1] rusage[mem=10]"):
        with pytest.raises(jc.ControlError):
            jc.parse_condition(bad)


def _sit(**kw):
    sit = sp.Situation(queue_priority={"q": 10})
    for key, value in kw.items():
        setattr(sit, key, value)
    return sit


def test_stop_cond_suspends_instead_of_the_queue_thresholds():
    jobs = [sp.Running((1, 0), "q", ["h1"], start_time=1),
            sp.Running((2, 0), "q", ["h1"], start_time=2)]
    stop = jc.condition("select[r1m > 2]")
    # Beyond the queue's loadStop, but STOP_COND is false: no suspension.
    sit = _sit(host_load={"h1": {"r1m": 1.5, "it": 0}},
               queue_thresholds={"q": {"r1m": (0.5, 1.0)}},
               stop_cond={"q": stop})
    assert sp.decide(jobs, sit) == ([], [])
    sit.host_load["h1"]["r1m"] = 3.0
    assert sp.decide(jobs, sit) == ([((2, 0), "LOAD:STOP_COND")], [])


def test_resume_cond_resumes_instead_of_the_queue_thresholds():
    jobs = [sp.Running((1, 0), "q", ["h1"], "LOAD:STOP_COND", 1)]
    sit = _sit(host_load={"h1": {"r1m": 0.1}},
               resume_cond={"q": jc.condition("select[r1m > 5]")})
    assert sp.decide(jobs, sit) == ([], [])     # within loadSched, no
    sit.resume_cond = {"q": jc.condition("select[r1m < 1]")}
    assert sp.decide(jobs, sit) == ([], [(1, 0)])


def test_xce_yaml_job_controls_are_read_and_bad_ones_refused(tmp_path):
    cfg = site(tmp_path, BASE + """\
queues:
  normal:
    JOB_CONTROLS: SUSPEND[SIGTSTP] TERMINATE[SIGTERM]
    TERMINATE_WHEN: LOAD WINDOW
    STOP_COND: r1m > 3
    RESUME_COND: select[r1m < 1]
""")
    q = cfg.queues["normal"]
    assert q.job_controls == {"SUSPEND": "SIGTSTP", "TERMINATE": "SIGTERM"}
    assert q.terminate_when == ["WINDOW", "LOAD"]
    assert (q.stop_cond, q.resume_cond) == ("select[r1m > 3]",
                                            "select[r1m < 1]")
    with pytest.raises(ConfigError) as info:
        site(tmp_path, BASE + """\
queues:
  normal:
    JOB_CONTROLS: SUSPEND[SIGFOO]
    TERMINATE_WHEN: USER
    STOP_COND: r1m >
""")
    text = "\n".join(info.value.errors)
    path = tmp_path / "xce.yaml"
    assert f"{path}:7: JOB_CONTROLS: bad job control: SUSPEND[SIGFOO]: " \
        "SIGFOO is not a signal name" in text
    assert f"{path}:8: TERMINATE_WHEN: bad job control: USER is not" in text
    assert f"{path}:9: STOP_COND: bad job control:" in text


def test_the_migrator_carries_job_controls_and_reports_bad_ones(tmp_path):
    result = migrated_site(tmp_path, {
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\n"
                      "JOB_CONTROLS = SUSPEND[SIGTSTP] RESUME[SIGCONT]\n"
                      "TERMINATE_WHEN = WINDOW\n"
                      "STOP_COND = select[r1m > 3]\n"
                      "End Queue\n"
                      "Begin Queue\nQUEUE_NAME = other\n"
                      "JOB_CONTROLS = SUSPEND[brequeue $LSB_JOBID]\n"
                      "TERMINATE_WHEN = SOMETIMES\n"
                      "RESUME_COND = select[r1m <]\n"
                      "End Queue\n"})
    entries = {e.label: e for e in result.migration.entries}
    report = "\n".join(f"{e.origin} {e.label} {e.status} {e.why or ''}"
                       for e in result.migration.entries)
    assert "queue normal JOB_CONTROLS = SUSPEND[SIGTSTP] RESUME[SIGCONT] " \
        "enforced" in report, report
    assert "queue normal TERMINATE_WHEN = WINDOW enforced" in report
    assert "queue normal STOP_COND = select[r1m > 3] enforced" in report
    bad = [e for e in entries.values() if "other" in e.label and
           e.status == "not carried"]
    assert len(bad) == 3, report
    assert any("lsb.queues:9" in str(e.origin) and "signals only" in e.why
               for e in bad), report
    cfg = site(tmp_path / "etc", (tmp_path / "etc" / "xce.yaml").read_text())
    assert cfg.queues["normal"].terminate_when == ["WINDOW"]
    assert cfg.queues["other"].job_controls == {}
