"""lshosts: static facts of the hosts (type, model, CPUs, memory)."""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.host_load import lshosts_long, lshosts_table, pick


@lsf_command(help="Show static host information.")
@click.option("-w", "wide", is_flag=True, help="Wide format.")
@click.option("-l", "long_format", is_flag=True, help="Long format.")
@click.argument("names", nargs=-1)
def cli(wide, long_format, names):
    _, reader = open_state()
    with reader:
        hosts = pick(reader.hosts(), names)
    print(lshosts_long(hosts) if long_format else lshosts_table(hosts, wide))
    return 0


def main(argv=None):
    run(cli, "lshosts", argv)


if __name__ == "__main__":
    main()
