"""A trace's user group in xce sim: an SWF job's group (field 13) is
submitted as bsub -G when the configuration defines a user group of that
name, and the controller's submission checks it as live; a group the
configuration does not define is reported, never dropped in silence.
lsb.events' JOB_NEW gives the -G of a recorded job."""

import json

from xce.sim import engine, lsblog, metrics, report, swf
from xce.store.lsbfiles import records

from tests.lib.simsite import sim_cluster
from tests.unit.test_sim_lsblog import SPEC, _job, _read_with_new, _row

YAML = """\
parameters:
  DEFAULT_QUEUE: normal
queues:
  normal:
    PRIORITY: 30
user_groups:
  g1:
    members: [u1]
"""


def _replay(tmp_path, rows):
    """Replay one-minute jobs of (user, group) -1: unknown; the specs the
    controller's submission was given, and the replay."""
    cl = sim_cluster(tmp_path, YAML, "1x4")
    path = tmp_path / "t.swf"
    path.write_text("".join(
        f"{n} 0 -1 60 1 -1 -1 1 60 -1 1 {user} {group} -1 -1 -1 -1 -1\n"
        for n, (user, group) in enumerate(rows, 1)))
    given, submit = {}, cl.submit

    def spy(spec, user, jobid=None):
        given[jobid] = dict(spec)
        return submit(spec, user, jobid)
    cl.submit = spy
    return given, engine.Replay(cl, swf.read(path).jobs).run()


def test_a_group_the_configuration_defines_is_submitted_with_the_job(
        tmp_path):
    given, replay = _replay(tmp_path, [(1, 1), (1, -1)])
    assert given[1]["user_group"] == "g1"
    assert "user_group" not in given[2]         # the trace gives none
    assert replay.ungrouped == {} and replay.rejected == []
    assert report.rejected_lines(metrics.summary(replay, 4)) == []


def test_the_controllers_check_refuses_a_user_outside_the_group(tmp_path):
    # u2 is not a member of g1: the job is rejected as bsub -G g1 is live.
    _, replay = _replay(tmp_path, [(2, 1)])
    ((tj, why),) = replay.rejected
    assert tj.number == 1 and "g1" in why
    assert len(replay.records) == 0


def test_groups_the_configuration_lacks_are_reported(tmp_path):
    given, replay = _replay(tmp_path, [(1, 7), (1, 7), (1, 3), (1, 1)])
    assert [given[n].get("user_group") for n in (1, 2, 3, 4)] == \
        [None, None, None, "g1"]
    assert len(replay.records) == 4
    s = metrics.summary(replay, 4)
    assert s["ungrouped"] == {"g3": 1, "g7": 2}
    assert report.rejected_lines(s) == [
        "warning: 3 job(s) replayed without their trace's user group, "
        "which the configuration does not define (g3, g7)"]


def test_lsb_events_job_new_gives_the_jobs_user_group(tmp_path):
    job = _job(spec=json.dumps(dict(SPEC, user_group="g1")))
    events, acct = [], []
    records(_row(1, 100, "SUBMIT", {}, job), events, acct)
    (tj,) = _read_with_new(tmp_path, events[0], job).jobs
    assert tj.spec["user_group"] == "g1"
    (tj,) = lsblog.read(_acct(tmp_path, job)).jobs
    assert "user_group" not in tj.spec


def _acct(tmp_path, job):
    events, acct = [], []
    records(_row(4, 119, "STATUS", {"stat": "DONE", "exit_code": 0}, job),
            events, acct)
    path = tmp_path / "lsb.acct"
    path.write_text("".join(acct))
    return path
