"""HOST_PRE_EXEC on a parallel job's other hosts: the start is held until
each has run it, and an agent too old for it is refused the job."""

import pytest

from xce.config.load import load
from xce.controller import dispatch, hoststeps

YAML = """\
cluster:
  name: c
queues:
  normal:
    PRIORITY: 30
    HOST_PRE_EXEC: /sbin/health
    HOST_POST_EXEC: /sbin/tidy
hosts:
  h1: {}
  h2: {}
"""


class _Link:
    def __init__(self):
        self.sent = []

    def queue(self, msg):
        self.sent.append(msg)


class _Ctl:
    def __init__(self, cfg, version=hoststeps.HOST_STEPS_VERSION):
        self.cfg = cfg
        self.hosts = {"h1": {"protocol": version}, "h2": {"protocol": version}}
        self.links = {"h1": _Link(), "h2": _Link()}
        self.host_pre_waiting = {}
        self.jobs = {}

    def job_data(self, job):
        return {"env": {}, "jobfile": None}

    def label(self, job):
        return str(job["jobid"])


def _job():
    return {"jobid": 3, "idx": 0, "attempt": 1, "queue": "normal",
            "name": "j", "user": "ann", "exec_hosts": "h1 h1 h2",
            "from_host": "h1", "submit_time": 0, "stat": "RUN",
            "spec": {"command": "true", "cwd": "/", "subcwd": "/",
                     "uid": 1000, "gid": 1000, "stdout": "/o"}}


@pytest.fixture
def cfg(tmp_path):
    (tmp_path / "xce.yaml").write_text(YAML)
    return load(tmp_path)


def test_the_start_waits_for_the_other_hosts_host_pre_exec(cfg):
    ctl, job = _Ctl(cfg), _job()
    ctl.jobs[(3, 0)] = job
    msg = dispatch.start_message(ctl, job)
    hoststeps.start(ctl, job, msg)
    assert ctl.links["h1"].sent == []
    [steps] = ctl.links["h2"].sent
    assert (steps["op"], steps["stage"]) == ("host_steps", "pre")
    assert [s["cmd"] for s in steps["steps"]] == ["/sbin/health"]
    assert "pre" not in steps["start"] and steps["start"]["hosts"] == \
        ["h1", "h1", "h2"]
    # a report of another attempt changes nothing
    hoststeps.reported(ctl, "h2", {"job": 3, "idx": 0, "attempt": 2,
                                   "stage": "pre", "code": 0})
    assert ctl.links["h1"].sent == []
    hoststeps.reported(ctl, "h2", {"job": 3, "idx": 0, "attempt": 1,
                                   "stage": "pre", "code": 0})
    assert ctl.links["h1"].sent == [msg] and ctl.host_pre_waiting == {}


def test_host_post_exec_goes_to_the_other_hosts_when_the_job_ends(cfg):
    ctl, job = _Ctl(cfg), _job()
    hoststeps.job_ended(ctl, dict(job, stat="DONE"), "h1 h1 h2", 1)
    assert ctl.links["h1"].sent == []
    [steps] = ctl.links["h2"].sent
    assert steps["stage"] == "post"
    assert [s["cmd"] for s in steps["steps"]] == ["/sbin/tidy"]


def test_an_agent_too_old_for_host_steps_is_refused_the_job(cfg):
    ctl, job = _Ctl(cfg, hoststeps.HOST_STEPS_VERSION - 1), _job()
    ctl.hosts["h1"]["protocol"] = hoststeps.HOST_STEPS_VERSION
    msg = dispatch.start_message(ctl, job)
    with pytest.raises(RuntimeError, match="the agent on h2 speaks "
                       "protocol 12, too old for this job's HOST_PRE_EXEC"):
        hoststeps.start(ctl, job, msg)
    assert ctl.links["h1"].sent == [] == ctl.links["h2"].sent


def test_a_job_on_one_host_starts_at_once(cfg):
    ctl, job = _Ctl(cfg), dict(_job(), exec_hosts="h1 h1")
    msg = dispatch.start_message(ctl, job)
    hoststeps.start(ctl, job, msg)
    assert ctl.links["h1"].sent == [msg] and ctl.host_pre_waiting == {}
