"""bstop: Suspend jobs."""

from xce.cli.common import run
from xce.cli.jobcmd import control_command

cli = control_command("stop", "Suspend jobs (SIGSTOP to running jobs; pending jobs become PSUSP).")


def main(argv=None):
    run(cli, "bstop", argv)


if __name__ == "__main__":
    main()
