"""xce-migrate: turn an LSF configuration directory into xce.yaml.

    xce-migrate --from LSF_ENVDIR --to XCE_ENVDIR [--check]

Prints the migration report on stdout and exits 0; on unreadable input or a
bad command line prints one line per problem on stderr and exits 255, having
written nothing.
"""

import os
import sys

import click

from xce.config.lsf import report
from xce.config.migrate import MigrateError, migrate

PROG = "xce-migrate"
EXIT_FAILURE = 255


@click.command(name=PROG, context_settings={
    "help_option_names": ["-h", "--help"]})
@click.option("--from", "source", required=True, metavar="LSF_ENVDIR",
              help="Directory holding lsf.conf (IBM layout) or all the LSF "
              "files (flat layout).")
@click.option("--to", "target", metavar="XCE_ENVDIR",
              help="Directory to write xce.yaml, lsf.conf and "
              "lsbatch/<cluster>/configdir/lsb.params into.")
@click.option("--check", is_flag=True,
              help="Read and report only; write nothing.")
def command(source, target, check):
    """Migrate an LSF configuration to xce.yaml and report what was
    carried, what is accepted but not enforced, and what was left out."""
    result = migrate(source, target, check)
    click.echo(report.render(result), nl=False)


def main(argv=None):
    """Console-script entry point; returns only through sys.exit."""
    args = sys.argv[1:] if argv is None else argv
    try:
        command.main(args=args, prog_name=PROG, standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.UsageError as exc:
        _fail(f"{PROG}: {exc.format_message()}\n"
              f"Usage: {PROG} --from LSF_ENVDIR --to XCE_ENVDIR [--check]")
    except click.Abort:
        _fail(f"{PROG}: interrupted")
    except MigrateError as exc:
        _fail("\n".join(f"{PROG}: {line}" for line in str(exc).splitlines()))
    except OSError as exc:
        where = exc.filename or PROG
        _fail(f"{where}: {exc.strerror or exc}")
    except Exception as exc:  # a bug: still one line, never a traceback
        if os.environ.get("XCE_DEBUG"):
            raise
        _fail(f"{PROG}: internal error: {type(exc).__name__}: {exc}")
    sys.exit(0)


def _fail(message):
    click.echo(message, err=True)
    sys.exit(EXIT_FAILURE)


if __name__ == "__main__":
    main()
