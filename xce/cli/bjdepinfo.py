"""bjdepinfo: show a job's dependencies: the jobs it waits for, or (-c)
the jobs waiting for it."""

from xce.cli.lsfargs import Opt, Parser, run, whole
from xce.client.depend import report
from xce.client.ids import parse as parse_id
from xce.client.site import open_state

OPTIONS = [
    Opt("-r", "level", type=whole(1), default=1, metavar="level",
        help="Follow dependencies this many levels."),
    Opt("-l", "long_out", takes=False,
        help="Also print each condition and whether it is satisfied."),
    Opt("-p", "pending_only", takes=False,
        help="Only the parents whose condition is not satisfied."),
    Opt("-c", "child", takes=False,
        help="The jobs that depend on this job."),
]
# LSF 10.1's bjdepinfo has no other option.
PARSER = Parser("bjdepinfo", OPTIONS, args_metavar="job_ID",
                help_text="Show the jobs a job depends on (or, with -c, the "
                "jobs that depend on it).",
                conflicts=[("-c", "-p")], nargs=(1, 1))


def bjdepinfo(o, args):
    jobid = args[0]
    number, idx = parse_id(jobid)
    _, reader = open_state()
    with reader:
        lines = report.report(reader, jobid, number, idx, o["level"],
                              o["child"], o["pending_only"], o["long_out"])
    return report.print_report(lines, jobid, o["child"])


def main(argv=None):
    run(PARSER, bjdepinfo, argv)


if __name__ == "__main__":
    main()
