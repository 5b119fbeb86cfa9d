"""bresume: Resume suspended jobs."""

from xce.cli.jobcmd import control_action, control_parser
from xce.cli.lsfargs import run

# LSF 10.1's other bresume options.
UNSUPPORTED = ("-app", "-C", "-sla")
PARSER = control_parser("bresume", "Resume suspended jobs (SIGCONT).",
                        UNSUPPORTED)


def main(argv=None):
    run(PARSER, control_action("resume"), argv)


if __name__ == "__main__":
    main()
