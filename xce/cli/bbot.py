"""bbot: Move a pending job relative to the bottom of the queue."""

from xce.cli.common import run
from xce.cli.jobcmd import move_command

cli = move_command("bottom", "Move a pending job relative to the bottom of the queue (among your own jobs; an administrator moves among all).")


def main(argv=None):
    run(cli, "bbot", argv)


if __name__ == "__main__":
    main()
