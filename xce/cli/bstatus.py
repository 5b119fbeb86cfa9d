"""bstatus: read or set a job's external status (its message 0)."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.jobs import external_status as jobstatus
from xce.client.site import current_user, open_state
from xce.errors import text

OPTIONS = [
    Opt("-d", "description", metavar='"description"',
        help="Set the status to this text."),
    Opt("-J", "name", metavar="job_name",
        help="Your jobs of this name ('*' is a wildcard)."),
]
# LSF 10.1's bstatus has no other option.
PARSER = Parser("bstatus", OPTIONS, args_metavar="[job_ID]",
                help_text="Show a job's external status, or set it with -d "
                "(the message of index 0 that bpost and bread share).",
                nargs=(0, 1))


def bstatus(o, args):
    jobid = args[0] if args else None
    name, description = o["name"], o["description"]
    if (jobid is None) == (name is None):
        raise UsageError(text("STATUS_SELECTOR", "bstatus"))
    site, reader = open_state()
    with reader:
        jobs = jobstatus.targets(reader, current_user(), jobid, name)
        if description is None:
            return jobstatus.show(reader, jobs)
    return jobstatus.set_status(site, jobs, description)


def main(argv=None):
    run(PARSER, bstatus, argv)


if __name__ == "__main__":
    main()
