"""bjgroup: show job groups, their jobs and limits (read from the store)."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.jobgroups import show
from xce.client.site import open_state
from xce.errors import text

OPTIONS = [
    Opt("-s", "tree", takes=False,
        help="Sort by hierarchy; with a group name, that group's tree "
        "(a trailing / shows the group alone)."),
    Opt("-N", "slots", takes=False, help="Count job slots, not jobs."),
]
# LSF 10.1's bjgroup has no other option.
PARSER = Parser("bjgroup", OPTIONS, args_metavar="[group_name]",
                help_text="Show job groups.", nargs=(0, 1))


def bjgroup(o, args):
    if args and not o["tree"]:
        raise UsageError(text("JGROUP_NAME_NEEDS_S", group=args[0]))
    _, reader = open_state()
    with reader:
        return show(reader, args[0] if args else None, o["tree"], o["slots"])


def main(argv=None):
    run(PARSER, bjgroup, argv)


if __name__ == "__main__":
    main()
