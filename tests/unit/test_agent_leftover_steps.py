"""A pre/post-exec or host step's process is journalled (pid and start
time) before it may run, so that an agent restarted after kill -9, for
which the step has failed, kills what is left of it rather than letting
it work on for a job sent back to the queue."""

import os
import subprocess

from xce.agent import prepost, procs
from xce.agent.journal import Journal
from xce.agent.prepost import Chain, PrePost

from tests.lib.xcecluster import wait_for

KEY4 = (3, 0, 1, "host_pre")


class _Agent(PrePost):
    """The agent's side of the steps, over a real journal."""

    def __init__(self, path):
        self._init_prepost()
        self.journal = Journal(path)
        self.outbox = []


def _step(cmd):
    return {"level": "host", "cmd": cmd}


def _run_steps(agent, *cmds):
    msg = {"uid": os.getuid(), "gid": os.getgid()}
    agent.journal.host_steps_record(KEY4)
    agent._run(Chain(KEY4, "host_pre", [_step(c) for c in cmds], msg, None,
                     {"PATH": prepost.PATH}))


def _gone(pid):
    """Reaped here, or no such process."""
    try:
        return os.waitpid(pid, os.WNOHANG)[0] == pid
    except ChildProcessError:
        return not procs.alive(pid, None)


def _group_gone(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_restarted_agent_kills_the_step_left_running(tmp_path):
    said = tmp_path / "pid"
    _run_steps(_Agent(tmp_path / "journal"),
               f"echo $$ >{said}; sleep 600; :")
    wait_for(lambda: said.exists() and said.read_text().strip(),
             what="the step to say its pid")
    pid = int(said.read_text())
    # The journal has the very process the step's command runs in.
    again = _Agent(tmp_path / "journal")        # as after kill -9
    assert again.journal.steps == {KEY4: (pid, procs.start_ticks(pid))}
    again.kill_leftover_steps()
    wait_for(lambda: _gone(pid), what="the step to be killed")
    wait_for(lambda: _group_gone(pid), what="its sleep to be killed")
    # Its stage, failed after the restart, is over: so is its record.
    again.recover_host_steps()
    assert again.journal.steps == {}


def test_a_step_runs_only_once_its_pid_is_journalled(tmp_path,
                                                     monkeypatch):
    agent, ran = _Agent(tmp_path / "journal"), tmp_path / "ran"
    spawned = []
    real = prepost.spawn.spawn

    def spawn(argv, env, **kw):
        spawned.append(real(argv, env, **kw))
        return spawned[-1]

    def dies(*_):       # the agent killed before the record is written
        raise SystemExit
    monkeypatch.setattr(prepost.spawn, "spawn", spawn)
    monkeypatch.setattr(agent.journal, "step_record", dies)
    try:
        _run_steps(agent, f"touch {ran}")
    except SystemExit:
        pass
    [pid] = spawned
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 1 and not ran.exists()


def test_a_pid_reused_by_another_process_is_not_killed(tmp_path):
    other = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        j = Journal(tmp_path / "journal")
        j.step_record(KEY4, other.pid, procs.start_ticks(other.pid) + 1)
        j.flush()
        _Agent(tmp_path / "journal").kill_leftover_steps()
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_each_step_record_lasts_as_long_as_its_stage(tmp_path):
    j = Journal(tmp_path / "journal")
    job = (5, 0, 2)
    j.append("start", job, msg={}, dir="x")
    j.step_record((*job, "pre"), 11, 1)
    j.step_record((*job, "pre"), 12, 1)         # the next step
    j.step_record(KEY4, 13, 1)
    j.flush()
    assert Journal(tmp_path / "journal").steps == {
        (*job, "pre"): (12, 1), KEY4: (13, 1)}
    j.append("pid", job, pid=20)                # the job launched
    j.host_steps_record(KEY4, 0)                # the host stage ended
    assert j.steps == {}
    j.step_record((*job, "post"), 14, 1)
    j.append("post", job, post_state="POST_DONE")
    assert j.steps == {}
    j.step_record((*job, "post"), 15, 1)
    j.append("ack", job)
    assert j.steps == {}


def test_compaction_keeps_the_running_steps(tmp_path, monkeypatch):
    from xce.agent import journal
    monkeypatch.setattr(journal, "COMPACT_AFTER", 1)
    j = Journal(tmp_path / "journal")
    job = (5, 0, 2)
    j.append("start", job, msg={}, dir="x")
    j.append("pid", job, pid=20)
    j.append("exit", job, result={})
    j.step_record((*job, "post"), 14, 1)        # its post-exec runs
    j.step_record((6, 0, 1, "host_post"), 16, 2)
    j.append("start", (9, 0, 1), msg={}, dir="y")
    j.append("ack", (9, 0, 1))
    j.compact()
    assert len((tmp_path / "journal").read_text().splitlines()) == 4
    assert Journal(tmp_path / "journal").steps == {
        (*job, "post"): (14, 1), (6, 0, 1, "host_post"): (16, 2)}
