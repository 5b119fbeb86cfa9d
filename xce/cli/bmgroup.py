"""bmgroup: the host groups of the configuration and their members."""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.users import groups_table

@lsf_command(help="Show host groups and their members.")
@click.option("-r", "recursive", is_flag=True, help="Expand subgroups.")
@click.option("-w", "wide", is_flag=True, help="Do not cut long names.")
@click.argument("names", nargs=-1)
def cli(recursive, wide, names, long_format=False):
    _, reader = open_state()
    with reader:
        print(groups_table(reader, "host", names, recursive, wide,
                           long_format))
    return 0

def main(argv=None):
    run(cli, "bmgroup", argv)

if __name__ == "__main__":
    main()
