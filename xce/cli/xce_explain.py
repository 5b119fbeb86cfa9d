"""xce explain JOBID [-json]: a pending job's decision trace.

Reached as `xce explain ...` (xce.py hands the words over) or run as a
module; parsed with the light LSF parser, so no click on this path.
"""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client import explain
from xce.client.site import open_state
from xce.errors import text

PARSER = Parser(
    "xce explain",
    [Opt("-json", "as_json", takes=False,
         help="The trace as JSON (COMMAND, JOBS, RECORDS).")],
    args_metavar="job_ID | \"job_ID[index]\"",
    help_text="Why a pending job is pending: its queue and position, "
              "each host with the requirement or limit that excluded it "
              "(what the host had, what the job wanted) and the decision "
              "of one scheduling pass.")


def _action(values, args):
    if len(args) != 1:
        raise UsageError(text("EXPLAIN_ONE_JOB"))
    site, reader = open_state()
    with reader:
        return explain.explain(site, reader, args[0], values["as_json"])


def main(argv=None):
    run(PARSER, _action, argv)


if __name__ == "__main__":
    main()
