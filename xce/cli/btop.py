"""btop: Move a pending job relative to the top of the queue."""

from xce.cli.jobcmd import move_action, move_parser
from xce.cli.lsfargs import run

PARSER = move_parser(
    "btop", "Move a pending job relative to the top of the queue "
    "(among your own jobs; an administrator moves among all).")


def main(argv=None):
    run(PARSER, move_action("top"), argv)


if __name__ == "__main__":
    main()
