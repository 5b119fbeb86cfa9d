"""bugroup: the user groups of the configuration and their members."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.users import groups_table

OPTIONS = [
    Opt("-r", "recursive", takes=False, help="Expand subgroups."),
    Opt("-w", "wide", takes=False, help="Do not cut long names."),
    Opt("-l", "long_format", takes=False, help="Long format."),
]
# LSF 10.1's bugroup has no other option.
PARSER = Parser("bugroup", OPTIONS, args_metavar="[user_group ...]",
                help_text="Show user groups and their members.")


def bugroup(o, names):
    _, reader = open_state()
    with reader:
        print(groups_table(reader, "user", tuple(names), o["recursive"],
                           o["wide"], o["long_format"]))
    return 0


def main(argv=None):
    run(PARSER, bugroup, argv)


if __name__ == "__main__":
    main()
