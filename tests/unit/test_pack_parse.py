"""bsub -pack's fast line parser agrees with click's parse of bsub."""

import pytest

from xce.cli import bsub
from xce.client import pack
from xce.errors import XceError

LINES = [
    ["-J", "a", "-R", "x", "-R", "y", "-H", "-sp", "3", "sleep", "-J", "1"],
    ["-Jname", "true"],
    ["-q", "short", "-o", "/dev/null", "echo", "hi"],
    ["--", "true"],
    ["true"],
]


@pytest.mark.parametrize("words", LINES, ids=lambda w: " ".join(w))
def test_fast_parser_gives_clicks_result(words):
    fast = pack.fast_parser(bsub.cli, bsub._parse_line)
    assert fast(words) == bsub._parse_line(words)


def test_fast_parser_reports_clicks_errors():
    fast = pack.fast_parser(bsub.cli, bsub._parse_line)
    with pytest.raises(XceError, match="-Z"):
        fast(["-Z", "true"])
    with pytest.raises(XceError):
        fast(["-sp", "notanumber", "true"])


def test_lines_skip_blanks_and_comments(tmp_path):
    f = tmp_path / "p"
    f.write_text("# c\n\n  -J x true\nbsub -q short true\n")
    assert pack.read_lines(f) == [(3, "-J x true"), (4, " -q short true")]
