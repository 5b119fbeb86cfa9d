"""lsadmin: the LIM side of LSF administration.

xce has no LIM: the controller gathers host facts itself.  ``showconf
lim`` prints the lsf.conf in force (tools read LSF_UNIT_FOR_LIMITS there);
``ckconfig`` checks the configuration as ``badmin ckconfig`` does.  The
daemon-control subcommands are refused with a clear message.
"""

import click

from xce.cli.common import lsf_command, run
from xce.client.site import Site
from xce.errors import XceError, text

NO_LIM = ("limrestart", "limstartup", "limshutdown", "limlock",
          "limunlock", "resrestart", "resstartup", "resshutdown", "reconfig")


class _Commands(click.Group):
    """LSF's wording for an unknown subcommand; LIM control refused."""

    def resolve_command(self, ctx, args):
        if args and args[0] in NO_LIM:
            raise XceError(text("NO_LIM", command=args[0]))
        if args and args[0] not in self.commands and \
                not args[0].startswith("-"):
            raise XceError(text("INVALID_COMMAND", command=args[0]))
        return super().resolve_command(ctx, args)


@lsf_command(cls=_Commands, help="Administer the LIM side of the cluster.")
def cli():
    pass


@cli.command("showconf", context_settings={"help_option_names": ["-h", "--help"]},
             help="Show the configuration in force: showconf lim|res.")
@click.argument("daemon", type=click.Choice(["lim", "res"]))
@click.argument("hosts", nargs=-1)
def showconf(daemon, hosts):
    from xce.client.cluster.params import showconf_text
    site = Site()
    conf = dict(site.conf)
    conf.setdefault("LSF_UNIT_FOR_LIMITS", "KB")    # LSF's default unit
    print(showconf_text(daemon, {}, conf))
    return 0


@cli.command("ckconfig", context_settings={"help_option_names": ["-h", "--help"]},
             help="Check the configuration only.")
@click.option("-v", "verbose", is_flag=True, help="Accepted for compatibility.")
def ckconfig(verbose):
    from xce.client.admin.control import reconfig
    return reconfig(Site(), check_only=True)


def main(argv=None):
    run(cli, "lsadmin", argv)


if __name__ == "__main__":
    main()
