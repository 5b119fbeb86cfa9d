"""bpeek: show the output of an unfinished job so far."""

import click

from xce.cli.common import lsf_command, run
from xce.client.peek import peek
from xce.client.site import current_user, open_state, open_store
from xce.errors import text


@lsf_command(help="Show the stdout (and a separate stderr) a running job has "
             "written so far.")
@click.option("-f", "follow", is_flag=True, help="Follow the output until "
              "the job ends.")
@click.option("-q", "queue", metavar="queue_name", help="Your latest job in this queue.")
@click.option("-m", "host", metavar="host_name", help="Your latest job on this host.")
@click.option("-J", "name", metavar="job_name", help="Your latest job with this name.")
@click.argument("jobid", required=False)
def cli(follow, queue, host, name, jobid):
    chosen = [x for x in (queue, host, name, jobid) if x is not None]
    if len(chosen) > 1:
        raise click.UsageError(text("PEEK_SELECTORS"))
    site, reader = open_state()
    reader.close()
    return peek(lambda: open_store(site), current_user(), jobid,
                queue, host, name, follow, site.spool / "output")


def main(argv=None):
    run(cli, "bpeek", argv)


if __name__ == "__main__":
    main()
