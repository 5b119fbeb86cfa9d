"""The controller's side of slot reservation (xce.controller.reserve):
MAX_RESERVE_TIME in seconds, the running jobs' predicted ends, expiry
deadlines and what is published for bhosts and bjobs."""

import json
from functools import partial

from xce.config.model import Config, QueueConf
from xce.controller import reserve
from xce.scheduler.core import Decisions, QueueView

from tests.lib.builders import job_row
from tests.lib.fake_controller import FakeController


def _ctl(params=None, jobs=None, now=1000.0):
    cfg = Config(path=None, params=dict(params or {}))
    cfg.queues = {"resv": QueueConf("resv", slot_reserve=3, backfill=True),
                  "normal": QueueConf("normal")}
    return FakeController(cfg, (jobs or {}).values(), now=now)


# The jobs here are in the reserving queue unless they say otherwise.
_job = partial(job_row, queue="resv")


def test_window_is_cycles_times_mbd_sleep_time():
    ctl = _ctl()
    assert reserve.window(ctl.cfg, ctl.cfg.queues["resv"]) == 30
    assert reserve.window(ctl.cfg, ctl.cfg.queues["normal"]) is None
    ctl = _ctl({"MBD_SLEEP_TIME": 60})
    assert reserve.window(ctl.cfg, ctl.cfg.queues["resv"]) == 180


def test_no_context_without_a_reserving_or_backfill_queue():
    ctl = _ctl()
    assert reserve.context(ctl, [QueueView("normal", 30)]) is None


def test_context_carries_running_ends_and_live_starts():
    jobs = {(1, 0): _job(1, "RUN", exec_hosts="a a b", start_time=100.0,
                         spec={"runlimit": 10}),
            (2, 0): _job(2, "SSUSP", exec_hosts="b", start_time=200.0),
            (3, 0): _job(3, "PEND"), (4, 0): _job(4, "DONE", exec_hosts="a")}
    ctl = _ctl(jobs=jobs)
    ctl.reservations.since = {(3, 0): 900.0, (9, 0): 1.0}   # job 9 is gone
    ctl.passes.started = {(1, 0), (2, 0), (4, 0), (8, 0)}  # as snapshot keeps
    ctx = reserve.context(ctl, [QueueView("resv", 30, reserve_time=30)])
    assert ctx.now == 1000.0
    assert ctx.ends == {"a": [(700.0, 2)], "b": [(700.0, 1), (None, 1)]}
    assert ctx.since == {(3, 0): 900.0}


def test_record_sets_the_next_expiry_and_publishes_once():
    ctl = _ctl(jobs={(3, 0): _job(3, "PEND"), (5, 0): _job(5, "PEND")})
    out = Decisions(reserved={(3, 0): (990.0, {"a": 2}, 1600.0),
                              (5, 0): (950.0, {}, None)})
    reserve.record(ctl, out)
    assert ctl.reservations.since == {(3, 0): 990.0, (5, 0): 950.0}
    assert ctl.reservations.deadline == 980.0            # 950 + 3 x 10
    assert not ctl.dirty
    key, text = ctl.store.meta[-1]
    assert key == "reservations"
    assert json.loads(text)[0] == {"job": 3, "idx": 0, "queue": "resv",
                                   "since": 990.0, "hosts": {"a": 2},
                                   "start": 1600.0}
    reserve.record(ctl, out)                        # unchanged: no write
    assert len(ctl.store.meta) == 1
    assert reserve.due(ctl)                         # now 1000 >= 980


def test_a_reserving_job_that_leaves_pend_asks_for_a_pass():
    ctl = _ctl(jobs={(3, 0): _job(3, "PEND")})
    reserve.record(ctl, Decisions(reserved={(3, 0): (999.0, {"a": 1},
                                                        None)}))
    assert not reserve.due(ctl)
    ctl.jobs[(3, 0)]["stat"] = "PSUSP"
    assert reserve.due(ctl)
    del ctl.jobs[(3, 0)]
    assert reserve.due(ctl)


def test_expired_reservations_ask_for_another_pass_and_clear():
    ctl = _ctl(jobs={(3, 0): _job(3, "PEND")})
    reserve.record(ctl, Decisions(expired=[(3, 0)]))
    assert ctl.dirty and ctl.reservations.since == {}
    assert ctl.reservations.deadline is None and not reserve.due(ctl)
    assert ctl.store.meta == [("reservations", "[]")]
