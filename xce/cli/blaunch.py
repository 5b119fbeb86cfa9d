"""blaunch: start tasks of the current job on its hosts, wait for them.

``blaunch [-n] [-u host_file | -z "host ..." | host] command [argument ...]``
"""

import os

import click

from xce.cli.common import lsf_command, run
from xce.client import blaunch as bl
from xce.client.site import Site
from xce.errors import XceError, text


@lsf_command(help="Launch tasks of the current job on its hosts.",
             context_settings={"allow_interspersed_args": False})
@click.option("-n", "no_stdin", is_flag=True,
              help="Tasks read nothing (their stdin is always /dev/null).")
@click.option("-z", "hostlist", metavar="'host ...'",
              help="Start one task on each of these hosts.")
@click.option("-u", "hostfile", metavar="host_file",
              help="Start one task per line of this file.")
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
def cli(no_stdin, hostlist, hostfile, words):
    words = list(words)
    if hostlist:
        hosts = hostlist.split()
    elif hostfile:
        hosts = bl.hosts_from_file(hostfile)
    elif words:
        hosts = [words.pop(0)]
    else:
        hosts = []
    if not hosts or not words:
        raise click.UsageError(text("BLAUNCH_USAGE"))
    bl.job_of(os.environ)     # fail early outside a job
    try:
        return bl.launch(Site(), hosts, words)
    except KeyboardInterrupt:
        raise XceError(text("BLAUNCH_INTERRUPTED"))


def main(argv=None):
    run(cli, "blaunch", argv)


if __name__ == "__main__":
    main()
