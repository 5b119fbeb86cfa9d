"""bwait: wait until a job dependency condition is satisfied."""

import getpass

import click

from xce.cli.common import lsf_command, run
from xce.client.site import open_state, open_store
from xce.client.depend.wait import parse_timeout, wait
from xce.errors import text


@lsf_command(help="Wait until the condition (bsub -w syntax) is true.")
@click.option("-w", "expr", metavar="wait_condition",
              help="The condition, e.g. 'done(123) && ended(nightly)'.")
@click.option("-t", "timeout", metavar="minutes", help="Give up after this many minutes.")
@click.option("-r", "rereg", metavar="minutes", help="Accepted for compatibility.")
def cli(expr, timeout, rereg):
    if expr is None:
        raise click.UsageError(text("WAIT_NO_CONDITION"))
    seconds = parse_timeout(timeout)
    site, reader = open_state()
    reader.close()
    return wait(lambda: open_store(site), getpass.getuser(), expr,
                seconds)


def main(argv=None):
    run(cli, "bwait", argv)


if __name__ == "__main__":
    main()
