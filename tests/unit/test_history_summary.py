"""bhist's time table read through SQLite (json_extract) agrees with the one
built from fully decoded events, on a store written by the real writer."""

from functools import partial

from xce.client.history import events as history
from xce.store.reader import Reader
from xce.store.writer import Store

from tests.lib.builders import job_row

NOW = 10_000

# The jobs here are ann's, submitted at 100 unless they say otherwise.
_job = partial(job_row, user="ann", submit_time=100)


def _fill(path):
    store = Store(path)
    ev = store.event
    # Held, released, run, suspended, resumed, finished late (end_time).
    ev(100.5, "SUBMIT", 1, 0, queue="normal", user="ann", hold=True)
    ev(110, "STATUS", 1, 0, stat="PEND")
    ev(115, "START", 1, 0, hosts=["h"], attempt=1)
    ev(116, "RUNNING", 1, 0, pid=5, start_time=116)
    ev(117, "USAGE", 1, 0, cpu_time=1.0, max_mem=10)
    ev(120, "STATUS", 1, 0, stat="USUSP")
    ev(125, "STATUS", 1, 0, stat="RUN")
    ev(130, "FINISH", 1, 0, stat="DONE", end_time=133.7)
    store.save_job(_job(1, "DONE", name="j1", end_time=133.7))
    # Requeued after a run; still pending at NOW.
    ev(200, "SUBMIT", 2, 0, queue="normal", user="ann", hold=False)
    ev(205, "START", 2, 0, hosts=["h"], attempt=1)
    ev(210, "REQUEUE", 2, 0, stat="PEND", by="ann")
    store.save_job(_job(2, "PEND", name="j2"))
    # A row without events: its history is rebuilt from the row.
    store.save_job(_job(3, "EXIT", name="j3", submit_time=300, start_time=302,
                        exec_hosts="h", end_time=310))
    store.commit()
    store.close()


def test_summary_from_sql_steps_equals_the_decoded_one(tmp_path):
    path = tmp_path / "xce.db"
    _fill(path)
    with Reader(path) as reader:
        selection = history.Selection(user="all", stats="all")
        light = selection.rows(reader, history.SUMMARY_COLUMNS)
        full = selection.rows(reader)
        fast = history.summary_of_rows(reader, light, now=NOW)
        slow = history.summary_table(history.histories(reader, full),
                                     now=NOW)
    assert fast == slow
    lines = fast.splitlines()
    assert lines[2].split()[3:] == ["5", "10", "13", "5", "0", "0", "33"]
    assert lines[3].split()[3] == str(NOW - 210 + 5)    # PEND after requeue
    assert lines[4].split()[3:6] == ["2", "0", "8"]


def test_usage_events_are_not_read_for_the_table(tmp_path):
    path = tmp_path / "xce.db"
    _fill(path)
    with Reader(path) as reader:
        steps = reader.job_state_steps([(1, 0)])[(1, 0)]
    assert [kind for _, kind, *_ in steps] == [
        "SUBMIT", "STATUS", "START", "STATUS", "STATUS", "FINISH"]
    assert steps[0][3] == 1 and steps[-1][4] == 133.7


def test_events_decoded_in_one_go_or_each_alone_when_one_is_bad():
    texts = ['{"a":1}', None, '[1]', '{"b":"x,y"}']
    assert history.decode_all(texts) == [{"a": 1}, {}, {}, {"b": "x,y"}]
    # A broken row (or one that would split into two) is read alone.
    for bad in ('{"a":', '1,2'):
        assert history.decode_all(['{"a":1}', bad]) == [{"a": 1}, {}]
