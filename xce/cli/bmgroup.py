"""bmgroup: the host groups of the configuration and their members."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.users import groups_table

OPTIONS = [
    Opt("-r", "recursive", takes=False, help="Expand subgroups."),
    Opt("-w", "wide", takes=False, help="Do not cut long names."),
]
# The rest of LSF 10.1's bmgroup options.
UNSUPPORTED = ("-cu", "-l")
PARSER = Parser("bmgroup", OPTIONS, args_metavar="[host_group ...]",
                help_text="Show host groups and their members.",
                refused=UNSUPPORTED)


def bmgroup(o, names):
    _, reader = open_state()
    with reader:
        print(groups_table(reader, "host", tuple(names), o["recursive"],
                           o["wide"], False))
    return 0


def main(argv=None):
    run(PARSER, bmgroup, argv)


if __name__ == "__main__":
    main()
