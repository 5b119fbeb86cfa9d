"""lsclusters: the cluster, its status, master host, admin and host counts."""

import click

from xce.cli.common import lsf_command, run
from xce.client.cluster.lsid import lsclusters_text
from xce.client.site import open_state
from xce.errors import XceError, about


@lsf_command(help="Display configuration information about the cluster.")
@click.option("-w", "wide", is_flag=True, help="Wide format: nothing truncated.")
@click.option("-l", "long", is_flag=True, help="Long format (as -w).")
@click.argument("names", nargs=-1)
def cli(wide, long, names):
    site, reader = open_state()
    meta = reader.meta()
    for name in names:
        if name != meta.get("cluster"):
            raise XceError(about(name, "UNKNOWN_CLUSTER"))
    print(lsclusters_text(meta, reader.hosts(), site, wide or long))
    return 0


def main(argv=None):
    run(cli, "lsclusters", argv)


if __name__ == "__main__":
    main()
