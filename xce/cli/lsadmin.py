"""lsadmin: the LIM side of LSF administration.

xce has no LIM: the controller gathers host facts itself.  ``showconf
lim`` prints the lsf.conf in force (tools read LSF_UNIT_FOR_LIMITS there);
``ckconfig`` checks the configuration as ``badmin ckconfig`` does.  The
daemon-control subcommands are refused with a clear message.
"""

from xce.cli.lsfargs import Commands, Opt, Parser, UsageError, run
from xce.client.site import Site
from xce.errors import text

NO_LIM = ("limrestart", "limstartup", "limshutdown", "limlock",
          "limunlock", "resrestart", "resstartup", "resshutdown", "reconfig")
# LSF 10.1's other lsadmin subcommands: debugging and tracing of LIM and
# RES, RES logging, licence expiry.
NOT_IN_XCE = ("expire", "limdebug", "limtime", "resdebug", "reslogoff",
              "reslogon", "restime")
COMMANDS = Commands("lsadmin", "Administer the LIM side of the cluster.",
                    refused=dict({name: "NO_LIM" for name in NO_LIM},
                                 **{name: "SUBCOMMAND_NOT_SUPPORTED"
                                    for name in NOT_IN_XCE}))


def _showconf(o, args):
    from xce.client.cluster.params import showconf_text
    if args[0] not in ("lim", "res"):
        raise UsageError(text("SHOWCONF_DAEMON", prog="lsadmin",
                              daemon=args[0], choices="lim, res"))
    site = Site()
    conf = dict(site.conf)
    conf.setdefault("LSF_UNIT_FOR_LIMITS", "KB")    # LSF's default unit
    print(showconf_text(args[0], {}, conf))
    return 0


def _ckconfig(o, args):
    from xce.client.admin.control import reconfig
    return reconfig(Site(), check_only=True)


COMMANDS.add("showconf", Parser(
    "lsadmin", [], args_metavar="lim | res [host_name ...]",
    help_text="Show the configuration in force: showconf lim|res.",
    nargs=(1, None), usage_name="lsadmin showconf"), _showconf)
COMMANDS.add("ckconfig", Parser(
    # LSF's -v prints every message of the check; xce always does.
    "lsadmin", [Opt("-v", "verbose", takes=False,
                    help="Detailed messages: xce always prints every error "
                    "and warning in full.")],
    help_text="Check the configuration only.", nargs=(0, 0),
    usage_name="lsadmin ckconfig"), _ckconfig)


def main(argv=None):
    run(COMMANDS, None, argv)


if __name__ == "__main__":
    main()
