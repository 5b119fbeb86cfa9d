"""blimits: the resource limits of the configuration."""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state
from xce.client.cluster.limits import blimits_text


@lsf_command(help="Show the configured resource allocation limits.")
@click.option("-n", "names", multiple=True, metavar="limit_name", help="Only this limit.")
@click.option("-w", "wide", is_flag=True,
              help="Wide format: names and scopes are not truncated.")
def cli(names, wide):
    _, reader = open_state()
    with reader:
        print(blimits_text(reader, names, wide))
    return 0


def main(argv=None):
    run(cli, "blimits", argv)


if __name__ == "__main__":
    main()
