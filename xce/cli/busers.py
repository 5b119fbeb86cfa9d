"""busers: job counts and limits per user or user group."""

import getpass

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.users import busers_table


@lsf_command(help="Show job slot counts and limits of users and user groups.")
@click.option("-w", "wide", is_flag=True, help="Do not cut long names.")
@click.argument("names", nargs=-1)
def cli(wide, names):
    _, reader = open_state()
    with reader:
        print(busers_table(reader, names, getpass.getuser(), wide))
    return 0


def main(argv=None):
    run(cli, "busers", argv)


if __name__ == "__main__":
    main()
