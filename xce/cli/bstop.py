"""bstop: Suspend jobs (SIGSTOP) — the same path as bkill."""

import click

from xce.cli.common import lsf_command, run
from xce.client.control import control_request
from xce.envdir import Site


@lsf_command(help="Suspend jobs (SIGSTOP).")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or of all users.")
@click.option("-q", "queue", metavar="queue", help="Jobs in this queue.")
@click.option("-J", "name", metavar="name", help="Jobs with this name.")
@click.option("-m", "host", metavar="host", help="Jobs running on this host.")
@click.argument("ids", nargs=-1)
def cli(user, queue, name, host, ids):
    return control_request(Site(), "stop", ids, user, queue, name, host)


def main(argv=None):
    run(cli, "bstop", argv)


if __name__ == "__main__":
    main()
