"""bjgroup takes a group name only with -s (LSF: bjgroup [-s [group]]);
without it the error says what to type."""

import pytest

from xce.cli import bjgroup


def test_a_group_name_without_s_says_to_add_s(capsys):
    with pytest.raises(SystemExit) as done:
        bjgroup.main(["/g1"])
    assert done.value.code == 255
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0] == ("bjgroup: a job group name is taken only "
                                   "with -s: bjgroup -s /g1")
