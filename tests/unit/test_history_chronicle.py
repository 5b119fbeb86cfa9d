"""bhist -t's lines (xce.client.history.chronicle) from events alone."""

import time

from xce.client.history import chronicle

ROW = {"jobid": 7, "idx": 0, "user": "nosuchuser", "from_host": "hostA",
       "queue": "normal", "command": "sleep 1", "name": "sleep 1",
       "submit_time": 1000, "spec": '{"resreq": ["select[mem>1]"]}'}


def test_default_window_is_a_week_or_lsb_bhist_hours():
    assert chronicle.default_window(now=10**6, environ={}) == \
        (10**6 - 7 * 86400, 10**6)
    assert chronicle.default_window(
        now=10**6, environ={"LSB_BHIST_HOURS": "2"}) == (10**6 - 7200, 10**6)
    # Not a number of hours: the week.
    assert chronicle.default_window(
        now=10**6, environ={"LSB_BHIST_HOURS": "x"})[0] == 10**6 - 7 * 86400


def test_each_event_is_one_dated_line_naming_the_job():
    stamp = time.ctime(1000)
    assert chronicle.event_text(ROW, 1000, "SUBMIT", {"queue": "normal"}) == [
        f"{stamp}: Job <7> submitted from host <hostA> to Queue <normal>, "
        "CWD <$HOME>, User <nosuchuser>, Project <default>, Command "
        "<sleep 1>, Requested Resources <select[mem>1]>;"]
    assert chronicle.event_text(ROW, 1000, "START",
                                {"hosts": ["hostB"]}) == \
        [f"{stamp}: Job <7> dispatched to <hostB>;"]
    assert chronicle.event_text(ROW, 1000, "START",
                                {"hosts": ["b", "b", "c"]}) == \
        [f"{stamp}: Job <7> dispatched to 3 Hosts/Processors <2*b> <c>;"]
    assert chronicle.event_text(ROW, 1000, "FINISH", {"stat": "DONE"}) == \
        [f"{stamp}: Job <7> done successfully;"]
    assert chronicle.event_text(ROW, 1000, "FINISH",
                                {"stat": "EXIT", "exit_code": 3}) == \
        [f"{stamp}: Job <7> exited with exit code 3;"]
    assert chronicle.event_text(ROW, 1000, "RUNNING", {"pid": 5})[0] == \
        f"{stamp}: Job <7> starting (Pid 5);"


def test_the_job_an_id_named_at_the_time():
    old, new = dict(ROW, submit_time=10), dict(ROW, submit_time=500)
    assert chronicle._row_at([old, new], 100) is old
    assert chronicle._row_at([old, new], 600) is new
