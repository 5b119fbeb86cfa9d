"""bapp: application profiles and their job counts."""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.apps import bapp_table


@lsf_command(help="Show application profiles.")
@click.option("-l", "long_format", is_flag=True, help="Long format.")
@click.option("-w", "wide", is_flag=True,
              help="Wide format: names are not truncated.")
@click.argument("names", nargs=-1)
def cli(long_format, wide, names):
    _, reader = open_state()
    with reader:
        print(bapp_table(reader, names, long_format, wide))
    return 0


def main(argv=None):
    run(cli, "bapp", argv)


if __name__ == "__main__":
    main()
