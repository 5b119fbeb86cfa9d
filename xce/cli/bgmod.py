"""bgmod: change or remove a job group's job limit."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run, whole
from xce.client.jobgroups import request
from xce.client.site import Site
from xce.errors import text

OPTIONS = [
    Opt("-L", "limit", type=whole(0), metavar="limit",
        help="The group's new job limit."),
    Opt("-Ln", "no_limit", takes=False, help="Remove the group's job limit."),
]
# LSF 10.1's other bgmod option.
UNSUPPORTED = ("-u",)
PARSER = Parser("bgmod", OPTIONS, args_metavar="job_group_name",
                help_text="Modify a job group's job limit.",
                refused=UNSUPPORTED, nargs=(1, 1))


def bgmod(o, args):
    if (o["limit"] is None) == (not o["no_limit"]):
        raise UsageError(text("JGROUP_MOD_ONE"))
    return request(Site(), "mod", args[0], o["limit"])


def main(argv=None):
    run(PARSER, bgmod, argv)


if __name__ == "__main__":
    main()
