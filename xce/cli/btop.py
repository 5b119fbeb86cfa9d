"""btop: Move a pending job relative to the top of the queue."""

from xce.cli.common import run
from xce.cli.jobcmd import move_command

cli = move_command("top", "Move a pending job relative to the top of the queue (among your own jobs; an administrator moves among all).")


def main(argv=None):
    run(cli, "btop", argv)


if __name__ == "__main__":
    main()
