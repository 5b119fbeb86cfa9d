"""Result.joined, what end-to-end tests search in bjobs -l, bhist -l and
bacct -l: the logical lines back, whatever column a fold fell on."""

from types import SimpleNamespace

from tests.lib.xcecluster import Result
from xce.client.text.wrap import INDENT, wrap


def _result(out):
    return Result(SimpleNamespace(returncode=0, stdout=out, stderr=""))


def test_a_word_cut_by_the_fold_is_whole_again():
    # "Exclusive" straddles column 79: LSF cuts it, as xce does.
    line = "Job <1>, User <root>, Project <default>, Status <RUN>, Queue " \
        "<normal_qq>, Exclusive Execution, Command <sleep 60>"
    out = "\n" + wrap(line) + "\n"
    assert "Exclusive" not in out and "Exclusive" not in " ".join(out.split())
    assert _result(out).joined == "\n" + line + "\n"


def test_every_continuation_of_a_long_line_is_joined():
    path = "/scratch/" + "deep/" * 40
    line = f"Tue Dec 01 10:00:00: Submitted from host <h>, CWD <{path}>;"
    out = wrap(line) + "\n" + wrap(line.replace("CWD", "Output File"))
    assert len(out.splitlines()) > 4
    assert _result(out).joined.splitlines() == [
        line, line.replace("CWD", "Output File")]


def test_lines_that_were_not_folded_are_kept():
    out = ("\n RUNLIMIT\n 10.0 min\n\n MEMORY USAGE:\n"
           " MAX MEM: 1 Mbytes;  AVG MEM: 1 Mbytes\n" +
           " " * (INDENT - 1) + "indented less than a continuation\n")
    r = _result(out)
    assert r.joined == out and r.out == out
