"""bstop: Suspend jobs."""

from xce.cli.jobcmd import control_action, control_parser
from xce.cli.lsfargs import run

# LSF 10.1's other bstop options.
UNSUPPORTED = ("-a", "-app", "-C", "-sla")
PARSER = control_parser("bstop", "Suspend jobs (SIGSTOP to running jobs; "
                        "pending jobs become PSUSP).", UNSUPPORTED)


def main(argv=None):
    run(PARSER, control_action("stop"), argv)


if __name__ == "__main__":
    main()
