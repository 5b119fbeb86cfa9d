"""bswitch: move jobs to another queue."""

import click

from xce.cli.common import lsf_command, run
from xce.client.requests import selection, send
from xce.client.site import Site
from xce.errors import XceError

NO_DEST = "The destination queue name must be specified."


@lsf_command(help="Switch jobs to the destination queue.")
@click.option("-q", "queue", metavar="queue_name", help="Jobs in this queue.")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or all.")
@click.option("-m", "host", metavar="host", help="Jobs running on this host.")
@click.option("-J", "name", metavar="job_name", help="Jobs with this name.")
@click.argument("dest", required=False)
@click.argument("ids", nargs=-1)
def cli(queue, user, host, name, dest, ids):
    if dest is None:
        raise XceError(NO_DEST)
    body = selection(ids, user, queue, name, host)
    body["dest"] = dest
    return send(Site(), "switch", body)


def main(argv=None):
    run(cli, "bswitch", argv)


if __name__ == "__main__":
    main()
