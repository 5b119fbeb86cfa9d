"""lsload: load indices of the hosts (``-`` until agents report load)."""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.host_load import lsload_table, pick


@lsf_command(help="Show host load indices.")
@click.option("-w", "wide", is_flag=True, help="Wide format.")
@click.option("-l", "long_format", is_flag=True, help="Show all indices.")
@click.argument("names", nargs=-1)
def cli(wide, long_format, names):
    _, reader = open_state()
    with reader:
        hosts = pick(reader.hosts(), names)
    print(lsload_table(hosts, long_format, wide))
    return 0


def main(argv=None):
    run(cli, "lsload", argv)


if __name__ == "__main__":
    main()
