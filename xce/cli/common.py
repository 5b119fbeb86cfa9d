"""click's helpers for xce's own tools (xce, xce-controller, xce-agent):
usage errors in LSF's style and the one error boundary.  The LSF commands
parse with xce.cli.lsfargs and never import this module (a layering test
holds it)."""

import sqlite3
import sys

import click

from xce.errors import EXIT_FAILURE, XceError

CONTEXT = {"help_option_names": ["-h", "--help"]}


def lsf_command(**kwargs):
    """A click command that accepts single-dash options, as LSF's do."""
    settings = dict(CONTEXT, **kwargs.pop("context_settings", {}))
    return click.command(context_settings=settings, **kwargs)


def run(command, prog, argv=None):
    """Run a click command; errors print one line (plus usage) and exit 255."""
    args = sys.argv[1:] if argv is None else argv
    try:
        rv = command.main(args=args, prog_name=prog, standalone_mode=False)
    except click.exceptions.NoSuchOption as e:
        _usage_error(command, prog, f"{prog}: illegal option -- "
                     f"{e.option_name.lstrip('-')}")
    except click.exceptions.BadParameter as e:
        name = e.param.opts[0] if e.param is not None and e.param.opts else ""
        _usage_error(command, prog, f"{prog}: {name}: {e.message}".replace(
            ": : ", ": "))
    except click.exceptions.UsageError as e:
        _usage_error(command, prog, f"{prog}: {e.format_message()}")
    except click.exceptions.Abort:
        sys.exit(EXIT_FAILURE)
    except XceError as e:
        print(str(e), file=sys.stderr)
        sys.exit(e.exit_code)
    except sqlite3.Error as e:
        # Reading the store failed (an older schema, a damaged file): one
        # line, as for any other error, never a traceback.
        from xce.client.site import store_error
        print(store_error(e), file=sys.stderr)
        sys.exit(EXIT_FAILURE)
    except BrokenPipeError:
        sys.exit(EXIT_FAILURE)
    sys.exit(rv or 0)


def _usage_error(command, prog, message):
    print(message, file=sys.stderr)
    ctx = click.Context(command, info_name=prog)
    print(command.get_usage(ctx), file=sys.stderr)
    sys.exit(EXIT_FAILURE)

