"""btop: move a pending job to the top of the user's jobs in its queue."""

import click

from xce.cli.common import lsf_command, run
from xce.client.modify import move
from xce.envdir import Site


@lsf_command(help="Move a pending job relative to the top of the queue "
             "(among your own jobs; an administrator moves among all).")
@click.argument("jobid", required=False)
@click.argument("position", required=False)
def cli(jobid, position):
    if jobid is None:
        raise click.UsageError("Job ID must be specified.")
    if position is None:
        pos = 1
    elif not position.isdigit() or int(position) <= 0:
        raise click.UsageError(f"{position}: Position value must be a positive "
                         "integer.")
    else:
        pos = int(position)
    return move(Site(), "top", jobid, pos)


def main(argv=None):
    run(cli, "btop", argv)


if __name__ == "__main__":
    main()
