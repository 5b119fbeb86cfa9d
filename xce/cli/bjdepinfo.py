"""bjdepinfo: show a job's dependencies: the jobs it waits for, or (-c)
the jobs waiting for it."""

import click

from xce.cli.common import Whole, lsf_command, run
from xce.client.depend import report
from xce.client.ids import parse as parse_id
from xce.client.site import open_state
from xce.errors import text


@lsf_command(help="Show the jobs a job depends on (or, with -c, the jobs "
             "that depend on it).")
@click.option("-r", "level", type=Whole(1), default=1,
              metavar="level", help="Follow dependencies this many levels.")
@click.option("-l", "long_out", is_flag=True,
              help="Also print each condition and whether it is satisfied.")
@click.option("-p", "pending_only", is_flag=True,
              help="Only the parents whose condition is not satisfied.")
@click.option("-c", "child", is_flag=True,
              help="The jobs that depend on this job.")
@click.argument("jobid")
def cli(level, long_out, pending_only, child, jobid):
    if child and pending_only:
        raise click.UsageError(text("CHILD_AND_PENDING"))
    number, idx = parse_id(jobid)
    _, reader = open_state()
    with reader:
        lines = report.report(reader, jobid, number, idx, level,
                                   child, pending_only, long_out)
    return report.print_report(lines, jobid, child)


def main(argv=None):
    run(cli, "bjdepinfo", argv)


if __name__ == "__main__":
    main()
