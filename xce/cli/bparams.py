"""bparams: the batch system's parameters, reading the state store directly."""

import click

from xce.cli.common import lsf_command, run
from xce.client.cluster import params as cluster_params
from xce.client.site import open_state


@lsf_command(help="Display the batch system's configuration parameters.")
@click.option("-l", "long", is_flag=True, help="Long format, with explanations.")
@click.option("-a", "all_params", is_flag=True, help="Every parameter, as NAME = value.")
def cli(long, all_params):
    site, reader = open_state()
    values = cluster_params.effective(reader.params(), reader.queues())
    if all_params:
        print(cluster_params.all_text(values, site.conf))
    elif long:
        print(cluster_params.long_text(values))
    else:
        print(cluster_params.summary(values))
    return 0


def main(argv=None):
    run(cli, "bparams", argv)


if __name__ == "__main__":
    main()
