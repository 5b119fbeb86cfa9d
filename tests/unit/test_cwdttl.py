"""JOB_CWD_TTL on the agent (xce.agent.cwdttl): a directory the job's
wrapper made is due its TTL after the job ends, removed as the job's
user with rmdir (only when empty), and the list of those due outlives
the agent: a new one arms them again, and a bad list file removes
nothing; a new attempt in a directory still due takes it over."""

import heapq
import json

from xce.agent import cwdttl


class _Table(cwdttl.CwdTtl):
    """What the mixin uses of the agent's JobTable."""

    def __init__(self, workdir, now=1000.0):
        self.timers, self._seq, self.box_removers = [], 0, set()
        self.now = lambda: now
        self._init_cwdttl(workdir)

    def at(self, when, action, key, arg=None):
        self._seq += 1
        heapq.heappush(self.timers, (when, self._seq, action, key, arg))

    def run_timers(self, now):
        while self.timers and self.timers[0][0] <= now:
            _, _, action, key, arg = heapq.heappop(self.timers)
            getattr(self, "_timer_" + action)(key, arg, now)


def _msg(**kw):
    return {"cwd": "/scratch/ann/7_0", "uid": 1000, "gid": 100,
            "cwd_ttl": 2, **kw}


def _job_files(tmp_path, made=True, tmp=False):
    prefix = str(tmp_path / "7.0.1")
    if made:
        open(prefix + ".made", "w").close()
    if tmp:
        open(prefix + ".cwd", "w").close()
    return prefix


def test_a_made_directory_is_due_its_ttl_after_the_job(tmp_path,
                                                       monkeypatch):
    spawned = []
    monkeypatch.setattr(cwdttl.spawn, "spawn",
                        lambda argv, env: spawned.append(argv) or 42)
    table = _Table(tmp_path)
    table.note_made_cwd(_msg(), _job_files(tmp_path))
    assert [e["due"] for e in table.cwd_due] == [1000.0 + 2 * 3600]
    table.run_timers(1000.0 + 2 * 3600 - 1)
    assert spawned == []
    table.run_timers(1000.0 + 2 * 3600)
    assert len(spawned) == 1 and spawned[0][-1] == "/scratch/ann/7_0"
    assert "rmdir --" in " ".join(spawned[0])
    assert table.box_removers == {42}       # reaped as a removal
    assert json.loads((tmp_path / cwdttl.FILE).read_text()) == []


def test_nothing_is_due_for_what_the_job_did_not_make(tmp_path):
    table = _Table(tmp_path)
    table.note_made_cwd(_msg(), _job_files(tmp_path, made=False))
    table.note_made_cwd(_msg(), _job_files(tmp_path, tmp=True))  # in /tmp
    table.note_made_cwd(_msg(cwd_ttl=None), _job_files(tmp_path))
    assert table.cwd_due == [] and table.timers == []


def test_the_list_outlives_the_agent(tmp_path, monkeypatch):
    spawned = []
    monkeypatch.setattr(cwdttl.spawn, "spawn",
                        lambda argv, env: spawned.append(argv) or 7)
    _Table(tmp_path).note_made_cwd(_msg(cwd_ttl=0), _job_files(tmp_path))
    again = _Table(tmp_path, now=5000.0)
    assert len(again.cwd_due) == 1
    again.run_timers(5000.0)
    assert spawned and again.cwd_due == []


def test_a_bad_list_file_removes_nothing(tmp_path):
    (tmp_path / cwdttl.FILE).write_text("not json")
    assert _Table(tmp_path).cwd_due == []
    (tmp_path / cwdttl.FILE).write_text(json.dumps(
        [{"path": "relative", "uid": 1, "gid": 1, "due": 0}, "x"]))
    assert _Table(tmp_path).cwd_due == []


def test_a_new_attempt_takes_over_a_directory_still_due(tmp_path):
    table = _Table(tmp_path)
    table.note_made_cwd(_msg(), _job_files(tmp_path))   # a failed pre-exec
    other = str(tmp_path / "8.0.1")
    table.take_over_cwd(_msg(cwd="/scratch/ann/8_0", cwd_create=True), other)
    table.take_over_cwd(_msg(uid=1001, cwd_create=True), other)
    table.take_over_cwd(_msg(), other)      # no directory of its own made
    assert len(table.cwd_due) == 1
    again = str(tmp_path / "7.0.2")
    table.take_over_cwd(_msg(cwd_create=True), again)
    assert table.cwd_due == []
    assert json.loads((tmp_path / cwdttl.FILE).read_text()) == []
    table.run_timers(1000.0 + 2 * 3600)     # the old timer does nothing
    # The new attempt made it now: due after that attempt in turn.
    table.note_made_cwd(_msg(), again)
    assert len(table.cwd_due) == 1
