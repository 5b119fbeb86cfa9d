"""bstatus: read or set a job's external status (its message 0)."""

import click

from xce.cli.common import lsf_command, run
from xce.client.jobs import external_status as jobstatus
from xce.client.site import current_user, open_state
from xce.errors import text


@lsf_command(help="Show a job's external status, or set it with -d (the "
             "message of index 0 that bpost and bread share).")
@click.option("-d", "description", metavar='"description"',
              help="Set the status to this text.")
@click.option("-J", "name", metavar="job_name",
              help="Your jobs of this name ('*' is a wildcard).")
@click.argument("jobid", required=False)
def cli(description, name, jobid):
    if (jobid is None) == (name is None):
        raise click.UsageError(text("STATUS_SELECTOR"))
    site, reader = open_state()
    with reader:
        jobs = jobstatus.targets(reader, current_user(), jobid, name)
        if description is None:
            return jobstatus.show(reader, jobs)
    return jobstatus.set_status(site, jobs, description)


def main(argv=None):
    run(cli, "bstatus", argv)


if __name__ == "__main__":
    main()
