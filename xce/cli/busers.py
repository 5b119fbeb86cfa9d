"""busers: job counts and limits per user or user group."""

import getpass

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.users import busers_table

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Do not cut long names."),
]
# The rest of LSF 10.1's busers options.
UNSUPPORTED = ("-alloc", "-json", "-o")
PARSER = Parser("busers", OPTIONS,
                args_metavar="[user_name | user_group | all] ...",
                help_text="Show job slot counts and limits of users and user "
                "groups.", refused=UNSUPPORTED)


def busers(o, names):
    _, reader = open_state()
    with reader:
        print(busers_table(reader, tuple(names), getpass.getuser(),
                           o["wide"]))
    return 0


def main(argv=None):
    run(PARSER, busers, argv)


if __name__ == "__main__":
    main()
