"""bresume: Resume suspended jobs."""

from xce.cli.common import run
from xce.cli.jobcmd import control_command

cli = control_command("resume", "Resume suspended jobs (SIGCONT).")


def main(argv=None):
    run(cli, "bresume", argv)


if __name__ == "__main__":
    main()
