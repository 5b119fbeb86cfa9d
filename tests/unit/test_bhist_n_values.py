"""bhist -n: which files a value names, and the submissions they hold
(xce.client.history.logfiles)."""

import pytest

from xce.client.history import logfiles
from xce.errors import XceError

_NEW = ('"JOB_NEW" "10.1" {t} {job} 0 0 1 {t} 0 0 -65535 0 0 "alice" -1\n')


@pytest.mark.parametrize("value, files", [
    ("0", None), ("1", (0, 0)), ("3", (0, 2)), ("2,5", (2, 5)),
    ("4,4", (4, 4))])
def test_values_name_files(value, files):
    assert logfiles.numbers_of(value) == files


@pytest.mark.parametrize("value, message", [
    ("x", "bhist: The number of event log files must be a positive "
          "integer."),
    ("-1", "bhist: The number of event log files must be a positive "
           "integer."),
    ("3,2", "bhist: 3,2: The range of event log files must be "
            "min_logfile,max_logfile with 1 <= min <= max."),
    ("0,2", "bhist: 0,2: The range of event log files must be "
            "min_logfile,max_logfile with 1 <= min <= max."),
    ("1,", "bhist: 1,: The range of event log files must be "
           "min_logfile,max_logfile with 1 <= min <= max.")])
def test_bad_values_are_refused(value, message):
    with pytest.raises(XceError) as e:
        logfiles.numbers_of(value)
    assert str(e.value) == message


def test_submissions_of_the_files_asked_for(tmp_path):
    (tmp_path / "lsb.events").write_text(
        "# 0\n" + _NEW.format(t=300, job=3) +
        '"JOB_STATUS" "10.1" 301 3 64\n')
    (tmp_path / "lsb.events.1").write_text(
        "# 250\n" + _NEW.format(t=200, job=2) + _NEW.format(t=210, job=1))
    (tmp_path / "lsb.events.3").write_text("# 150\n" +     # .2 is gone
                                           _NEW.format(t=100, job=1))
    (tmp_path / "lsb.acct.1").write_text(_NEW.format(t=1, job=9))
    assert logfiles.submissions(tmp_path, 0, 0) == {(3, 300)}
    assert logfiles.submissions(tmp_path, 0, 1) == {(3, 300), (2, 200),
                                                    (1, 210)}
    assert logfiles.submissions(tmp_path, 2, 99) == {(1, 100)}
    rows = [{"jobid": 1, "submit_time": 100.5},
            {"jobid": 1, "submit_time": 210.2}]
    assert logfiles.in_files(rows, logfiles.submissions(tmp_path, 1, 1)) \
        == rows[1:]


def test_a_missing_current_file_is_an_error(tmp_path):
    (tmp_path / "lsb.events.1").write_text("# 1\n")
    with pytest.raises(XceError, match="lsb.events: No such file"):
        logfiles.submissions(tmp_path, 0, 1)
    assert logfiles.submissions(tmp_path, 1, 1) == set()
