"""The row of size and count limits (xce.client.text.limits.row_lines)."""

from xce.client.text import limits


def test_bqueues_sizes_follow_the_unit_for_limits():
    """A queue's sizes in LSF_UNIT_FOR_LIMITS, as configured; KB when
    the amount is not a whole number of that unit."""
    values = {"filelimit": 20480, "datalimit": 1500, "processlimit": 30}
    assert limits.row_lines(values, unit="MB") == [
        "", " FILELIMIT DATALIMIT PROCESSLIMIT",
        "      20 M    1500 K           30"]
    assert limits.row_lines(values, unit="KB")[2].split() == [
        "20480", "K", "1500", "K", "30"]


def test_without_a_unit_sizes_are_scaled_as_bjobs_shows_them():
    assert limits.row_lines({"filelimit": 20000})[2] == "    19.5 M"
