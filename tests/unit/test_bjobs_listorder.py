"""bjobs lists jobs as LSF's mbatchd hands them over: started jobs
(running and suspended) first, by queue priority then start time; then
pending jobs by queue priority, -sp priority and queue position; then
finished jobs in the order they finished."""

from xce.client.jobs.listorder import ordered
from xce.model import userprio


def _row(jobid, stat, queue="normal", seq=None, start=None, end=None,
         sp=None, sp_time=None, idx=0):
    return {"jobid": jobid, "idx": idx, "stat": stat, "queue": queue,
            "seq": jobid if seq is None else seq, "start_time": start,
            "end_time": end, "submit_time": 100.0 + jobid,
            "_order_sp": sp, "_order_sp_time": sp_time}


PRIO = {"normal": 30, "high": 50, "low": 10}


def _ids(rows, policy=None):
    return [(r["jobid"], r["idx"]) for r in ordered(rows, PRIO, policy)]


def test_started_then_pending_then_finished():
    rows = [_row(1, "DONE", end=300), _row(2, "PEND"), _row(3, "RUN",
            start=200), _row(4, "USUSP", start=150), _row(5, "EXIT",
            end=250), _row(6, "PSUSP"), _row(7, "SSUSP", start=220)]
    assert _ids(rows) == [(4, 0), (3, 0), (7, 0), (2, 0), (6, 0), (5, 0),
                          (1, 0)]


def test_higher_priority_queues_come_first_in_each_part():
    rows = [_row(1, "PEND", "low"), _row(2, "PEND", "high"),
            _row(3, "PEND"), _row(4, "RUN", "low", start=100),
            _row(5, "RUN", "high", start=300)]
    assert _ids(rows) == [(5, 0), (4, 0), (2, 0), (3, 0), (1, 0)]


def test_pending_keep_queue_position_and_array_elements_their_index():
    # btop moved job 3 ahead of job 2 (a smaller seq).
    rows = [_row(2, "PEND", seq=5), _row(3, "PEND", seq=1),
            _row(9, "PEND", seq=9, idx=2), _row(9, "PEND", seq=9, idx=1)]
    assert _ids(rows) == [(3, 0), (2, 0), (9, 1), (9, 2)]


def test_pending_by_user_priority_when_max_user_priority_is_set():
    pol = userprio.policy({"MAX_USER_PRIORITY": "100"})
    rows = [_row(1, "PEND"), _row(2, "PEND", sp=90, sp_time=None),
            _row(3, "PEND", sp=10)]
    assert _ids(rows, pol) == [(2, 0), (1, 0), (3, 0)]
    assert _ids(rows) == [(1, 0), (2, 0), (3, 0)]


def test_a_queue_unknown_to_the_listing_sorts_as_the_lowest():
    rows = [_row(1, "PEND", "gone"), _row(2, "PEND")]
    assert _ids(rows) == [(2, 0), (1, 0)]
