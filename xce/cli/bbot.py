"""bbot: Move a pending job relative to the bottom of the queue."""

from xce.cli.jobcmd import move_action, move_parser
from xce.cli.lsfargs import run

PARSER = move_parser(
    "bbot", "Move a pending job relative to the bottom of the queue "
    "(among your own jobs; an administrator moves among all).")


def main(argv=None):
    run(PARSER, move_action("bottom"), argv)


if __name__ == "__main__":
    main()
