"""bjobs refuses the layouts LSF cannot combine, rather than printing one
of them and dropping the other without a word."""

import pytest

from xce.cli.bjobs import PARSER
from xce.cli.lsfargs import UsageError


@pytest.mark.parametrize("argv, first, second", [
    # IBM's bjobs -json page: not with -noheader.
    (["-o", "jobid", "-json", "-noheader"], "-json", "-noheader"),
    # LSF's bjobs takes -o as a layout of its own: not with -l, -UF, -w, -W.
    (["-o", "jobid", "-l"], "-o", "-l"),
    (["-l", "-o", "jobid"], "-o", "-l"),
    (["-o", "jobid", "-UF"], "-o", "-UF"),
    (["-o", "jobid", "-w"], "-o", "-w"),
    (["-aw", "-o", "jobid"], "-o", "-w"),
    (["-o", "jobid", "-W"], "-o", "-W"),
    # -A is a table of its own (-w and -noheader shape it).
    (["-A", "-l"], "-A", "-l"),
    (["-l", "-A"], "-A", "-l"),
    (["-A", "-UF"], "-A", "-UF"),
    (["-A", "-o", "jobid"], "-A", "-o"),
    (["-A", "-W"], "-A", "-W"),
    (["-A", "-WL"], "-A", "-WL"),
    (["-A", "-psum"], "-A", "-psum"),
    # IBM's bjobs -psum page: only with the filters of pending jobs.
    (["-psum", "-l"], "-psum", "-l"),
    (["-psum", "-UF"], "-psum", "-UF"),
    (["-psum", "-w"], "-psum", "-w"),
    (["-psum", "-o", "jobid"], "-psum", "-o"),
    (["-psum", "-a"], "-psum", "-a"),
    (["-psum", "-r"], "-psum", "-r"),
    (["-psum", "-noheader"], "-psum", "-noheader"),
])
def test_layouts_that_cannot_be_combined_are_refused(argv, first, second):
    with pytest.raises(UsageError,
                       match=f"^bjobs: {first} and {second} cannot be used "
                             "together$"):
        PARSER.parse(argv + ["1"])


@pytest.mark.parametrize("argv", [
    ["-noheader", "-o", "jobid stat", "-aJ", "*x*"],    # Snakemake
    ["-json", "-o", "jobid stat start_time"],           # Toil
    ["-w", "-q", "normal"],                              # Nextflow
    ["-l", "-w"],
    ["-p", "-o", "jobid pend_reason"],
    ["-A", "-w", "-noheader", "-a"],
    ["-psum", "-p", "-q", "normal", "-u", "all", "-J", "x", "-pi"],
])
def test_what_the_tools_and_users_type_still_parses(argv):
    PARSER.parse(argv)
