"""bwait: wait until a job dependency condition is satisfied."""

import getpass

import click

from xce.cli.common import lsf_command, run
from xce.client.info import open_state
from xce.client.info_more_wait import parse_timeout, wait
from xce.store.reader import Reader


@lsf_command(help="Wait until the condition (bsub -w syntax) is true.")
@click.option("-w", "expr", metavar="wait_condition",
              help="The condition, e.g. 'done(123) && ended(nightly)'.")
@click.option("-t", "timeout", metavar="minutes", help="Give up after this many minutes.")
@click.option("-r", "rereg", metavar="minutes", help="Accepted for compatibility.")
def cli(expr, timeout, rereg):
    if expr is None:
        raise click.UsageError("The wait condition (-w) must be specified.")
    seconds = parse_timeout(timeout)
    site, reader = open_state()
    reader.close()
    return wait(lambda: Reader(site.store_path), getpass.getuser(), expr,
                seconds)


def main(argv=None):
    run(cli, "bwait", argv)


if __name__ == "__main__":
    main()
