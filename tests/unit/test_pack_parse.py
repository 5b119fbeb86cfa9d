"""bsub -pack reads each line with bsub's own parser."""

import pytest

from xce.cli import bsub
from xce.client.submit import options as sub
from xce.errors import XceError


@pytest.mark.parametrize("words, name, command", [
    (["-J", "a", "-R", "x", "-R", "y", "-H", "sleep", "-J", "1"], "a",
     ("sleep", "-J", "1")),
    (["-q", "short", "-o", "/dev/null", "echo", "hi"], None, ("echo", "hi")),
    (["--", "true"], None, ("true",)),
])
def test_a_line_reads_as_a_command_line(words, name, command):
    opts = bsub._parse_line(words)
    assert opts["name"] == name and opts["command"] == command


def test_a_bad_line_is_an_error_naming_the_option():
    with pytest.raises(XceError, match="illegal option -- Z"):
        bsub._parse_line(["-Z", "true"])
    # A word is an option whole: -Jname is no -J name.
    with pytest.raises(XceError, match="illegal option -- Jname"):
        bsub._parse_line(["-Jname", "true"])
    # -sp is read when the job is built, with LSF's words.
    opts = bsub._parse_line(["-sp", "notanumber", "true"])
    with pytest.raises(XceError, match="notanumber: Illegal job priority"):
        sub.parse_priority(opts["priority"])
