"""HOST_PRE_EXEC on a parallel job's other hosts: the start is held until
each has run it, and an agent too old for it is refused the job."""

from types import SimpleNamespace

import pytest

from xce.agent import prepost as agent_prepost
from xce.agent.journal import Journal
from xce.config.load import load
from xce.controller import hoststeps, prepost, startmsg
from xce.controller.apply import apply

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
        self.sent = self.out = []   # nothing is flushed here

    def queue(self, msg):
        self.sent.append(msg)


class _Ctl:
    def __init__(self, cfg, version=hoststeps.HOST_STEPS_VERSION):
        self.cfg = cfg
        self.hosts = {"h1": {"protocol": version}, "h2": {"protocol": version}}
        self.links = {"h1": _Link(), "h2": _Link()}
        self.host_pre_waiting = {}
        self.jobs = {}
        self.post_waiting = {}
        self.index = SimpleNamespace(finished={}, generation=0)
        self.events = []

    def emit(self, kind, job, **data):
        apply(job, kind, data, 0)
        self.events.append((kind, data))

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
    msg = startmsg.start_message(ctl, job)
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
    msg = startmsg.start_message(ctl, job)
    with pytest.raises(RuntimeError, match="the agent on h2 speaks "
                       "protocol 12, too old for this job's HOST_PRE_EXEC"):
        hoststeps.start(ctl, job, msg)
    assert ctl.links["h1"].sent == [] == ctl.links["h2"].sent


def test_a_job_on_one_host_starts_at_once(cfg):
    ctl, job = _Ctl(cfg), dict(_job(), exec_hosts="h1 h1")
    msg = startmsg.start_message(ctl, job)
    hoststeps.start(ctl, job, msg)
    assert ctl.links["h1"].sent == [msg] and ctl.host_pre_waiting == {}


def test_a_start_held_before_a_controller_restart_is_held_again(cfg):
    # After a restart the other host may not have said hello yet (its
    # protocol unknown): the start is held again all the same.
    ctl, job = _Ctl(cfg, version=1), _job()
    ctl.hosts["h1"]["protocol"] = hoststeps.HOST_STEPS_VERSION
    ctl.jobs[(3, 0)] = job
    msg = startmsg.start_message(ctl, job)
    hoststeps.start(ctl, job, msg, again=True)
    assert ctl.links["h1"].sent == []
    [ask] = ctl.links["h2"].sent
    assert ask["stage"] == "pre" and (3, 0) in ctl.host_pre_waiting


def test_a_host_back_while_a_start_waits_on_it_is_asked_again(cfg):
    ctl, job = _Ctl(cfg), _job()
    ctl.jobs[(3, 0)] = job
    hoststeps.start(ctl, job, startmsg.start_message(ctl, job))
    [ask] = ctl.links["h2"].sent
    hoststeps.hello(ctl, "h2")          # still queued, unsent: not twice
    assert ctl.links["h2"].sent == [ask]
    ctl.links["h2"].sent.clear()        # gone with the old link
    hoststeps.hello(ctl, "h2")
    assert ctl.links["h2"].sent == [ask]
    hoststeps.hello(ctl, "h1")          # the first host is asked nothing
    assert ctl.links["h1"].sent == []


def _finished(post_hosts=("h2",)):
    job = dict(_job(), stat="DONE")
    job["spec"] = dict(job["spec"], post="RUN", post_hosts=list(post_hosts))
    return job


def test_a_host_post_exec_failing_on_another_host_is_the_jobs_post_err(cfg):
    ctl, job = _Ctl(cfg), _finished()
    ctl.post_waiting[(3, 0)] = job
    prepost.post_reported(ctl, {"job": 3, "idx": 0, "attempt": 1,
                                "post_state": "POST_DONE"})
    # The first host's part alone: the stage still runs.
    assert job["spec"]["post"] == "RUN" and ctl.index.generation == 0
    hoststeps.reported(ctl, "h2", {"job": 3, "idx": 0, "attempt": 1,
                                   "stage": "post", "code": 3})
    assert job["spec"]["post"] == "POST_ERR"
    assert job["spec"]["post_parts"] == {"h1": "POST_DONE",
                                         "h2": "POST_ERR"}
    assert ctl.index.generation == 1 and ctl.post_waiting == {}
    # said again (a hello): nothing more
    ctl.store = SimpleNamespace(job_row=lambda *key: job)
    prepost.post_reported(ctl, {"job": 3, "idx": 0, "attempt": 1,
                                "post_state": "POST_DONE"})
    assert [k for k, _ in ctl.events] == ["POST", "POST"]


def test_every_hosts_part_done_in_any_order_is_post_done(cfg):
    ctl, job = _Ctl(cfg), _finished()
    ctl.post_waiting[(3, 0)] = job
    hoststeps.reported(ctl, "h2", {"job": 3, "idx": 0, "attempt": 1,
                                   "stage": "post", "code": 0})
    assert job["spec"]["post"] == "RUN"
    prepost.post_reported(ctl, {"job": 3, "idx": 0, "attempt": 1,
                                "post_state": "POST_DONE"})
    assert job["spec"]["post"] == "POST_DONE"


def test_a_host_back_while_its_post_part_is_awaited_is_asked_again(cfg):
    ctl, job = _Ctl(cfg), _finished()
    ctl.post_waiting[(3, 0)] = job
    ctl.index.finished[(3, 0)] = SimpleNamespace(post=None)
    hoststeps.hello(ctl, "h2")
    [ask] = ctl.links["h2"].sent
    assert (ask["op"], ask["stage"]) == ("host_steps", "post")
    assert [s["cmd"] for s in ask["steps"]] == ["/sbin/tidy"]
    hoststeps.hello(ctl, "h1")
    assert ctl.links["h1"].sent == []


class _Agent(agent_prepost.PrePost):
    """The agent's side of host steps, its spawns counted, not run."""

    def __init__(self, monkeypatch, path):
        self._init_prepost()
        self.journal = Journal(path)
        self.outbox, self.spawned = [], []
        monkeypatch.setattr(agent_prepost.spawn, "spawn", self._spawn)

    def _spawn(self, argv, env, stdin_fd=None):
        self.spawned.append(argv)
        return 1000 + len(self.spawned)


def _asked(cfg):
    """The controller's host_steps ask of job 3's other host, h2."""
    ctl, job = _Ctl(cfg), _job()
    ctl.jobs[(3, 0)] = job
    hoststeps.start(ctl, job, startmsg.start_message(ctl, job))
    [ask] = ctl.links["h2"].sent
    return ask


DONE = {"op": "host_steps_done", "job": 3, "idx": 0, "attempt": 1,
        "stage": "pre", "code": 4}


def test_host_pre_exec_asked_again_after_it_ended_is_not_run_again(
        cfg, monkeypatch, tmp_path):
    # The controller restarted (or the link dropped) before it had the
    # steps' end: asked again for the same attempt, the agent says how
    # they ended; it runs them once per start attempt, as LSF.
    ask = _asked(cfg)
    agent = _Agent(monkeypatch, tmp_path / "journal")
    agent.host_steps(ask)
    agent.host_steps(ask)           # still running: it goes on
    assert len(agent.spawned) == 1 and agent.outbox == []
    assert agent.step_exited(1001, 4)
    assert agent.outbox == [DONE]
    agent.outbox.clear()            # lost with the link
    agent.host_steps(ask)
    assert len(agent.spawned) == 1 and agent.outbox == [DONE]
    agent.host_steps(dict(ask, attempt=2))      # a new attempt runs them
    assert len(agent.spawned) == 2
    # ... and the first attempt's end is past asking: forgotten.
    assert list(agent.journal.host_steps) == [(3, 0, 2, "host_pre")]


def _ran(monkeypatch, tmp_path, ask, code):
    """An agent that ran the steps of *ask*, ended with *code*."""
    agent = _Agent(monkeypatch, tmp_path / "journal")
    agent.host_steps(ask)
    agent.step_exited(1001, code)
    return agent


def _restarted(monkeypatch, tmp_path, ask):
    """A new agent on the same journal, recovered, then asked *ask*."""
    again = _Agent(monkeypatch, tmp_path / "journal")
    again.recover_host_steps()
    again.host_steps(ask)
    return again


def test_a_restarted_agent_says_how_host_pre_exec_ended_not_run_again(
        cfg, monkeypatch, tmp_path):
    ask = _asked(cfg)
    _ran(monkeypatch, tmp_path, ask, 4).journal.flush()    # no sync
    again = _restarted(monkeypatch, tmp_path, ask)
    assert again.spawned == [] and again.outbox == [DONE]


def test_host_steps_cut_short_by_a_restart_failed(
        cfg, monkeypatch, tmp_path):
    """Their status went with the agent: they failed (the job tries
    again), as a job's own pre-exec cut short by a restart does."""
    ask = _asked(cfg)
    _Agent(monkeypatch, tmp_path / "journal").host_steps(ask)
    again = _restarted(monkeypatch, tmp_path, ask)
    assert again.spawned == [] and again.outbox == [dict(DONE, code=1)]


def test_host_post_exec_ended_forgets_the_attempts_pre_exec(
        cfg, monkeypatch, tmp_path):
    ask = _asked(cfg)
    agent = _ran(monkeypatch, tmp_path, ask, 0)
    agent.host_steps(dict(ask, stage="post"))
    agent.step_exited(1002, 0)
    assert agent.journal.host_steps == {(3, 0, 1, "host_post"): 0}
    agent.journal.flush()
    assert Journal(tmp_path / "journal").host_steps == \
        {(3, 0, 1, "host_post"): 0}
