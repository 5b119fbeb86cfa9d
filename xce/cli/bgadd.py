"""bgadd: create a job group (and its missing parents)."""

from xce.cli.lsfargs import Opt, Parser, run, whole
from xce.client.jobgroups import request
from xce.client.site import Site

OPTIONS = [
    Opt("-L", "limit", type=whole(0), metavar="limit",
        help="Most started jobs (RUN, SSUSP, USUSP) under the group, its "
        "subgroups included."),
]
# LSF 10.1's other bgadd option: service classes are refused (bsub -sla).
UNSUPPORTED = ("-sla",)
PARSER = Parser("bgadd", OPTIONS, args_metavar="job_group_name",
                help_text="Create a job group.", refused=UNSUPPORTED,
                nargs=(1, 1))


def bgadd(o, args):
    return request(Site(), "add", args[0], o["limit"])


def main(argv=None):
    run(PARSER, bgadd, argv)


if __name__ == "__main__":
    main()
