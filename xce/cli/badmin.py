"""badmin: queue and host control, reconfiguration, configuration display."""

from xce.cli.lsfargs import Commands, Opt, Parser, UsageError, run
from xce.client.cluster import params as cluster_params
from xce.client.admin import control as admin_control
from xce.client.site import open_state
from xce.errors import text

COMMENT = Opt("-C", "comment", metavar="comment",
              help="Comment kept with the action.")
# LSF's -v prints every configuration message, which xce always does; -f
# stops LSF asking whether to go on despite warnings, which xce never asks.
VERBOSE = Opt("-v", "verbose", takes=False,
              help="Detailed messages: xce always prints every error and "
              "warning in full.")
FORCE = Opt("-f", "force", takes=False,
            help="No questions: xce never asks; it goes on after warnings "
            "and stops at errors.")

# LSF 10.1's other badmin subcommands: debugging and tracing of LSF's own
# daemons, event and performance histories, power and resource-connector
# control, host groups of the live cluster.
NOT_IN_XCE = ("diagnose", "gpddebug", "gpdtime", "hghostadd", "hghostdel",
              "hhist", "hist", "hpower", "mbddebug", "mbdhist", "mbdtime",
              "perfmon", "qhist", "rc", "sbddebug", "sbdtime", "schddebug",
              "schdtime", "security")
COMMANDS = Commands("badmin", "Administer the batch system.",
                    refused={name: "SUBCOMMAND_NOT_SUPPORTED"
                             for name in NOT_IN_XCE})


def _sub(name, opts, help_text, args_metavar="", refused=(), nargs=(0, None),
         empty_arg=None):
    return Parser("badmin", opts, args_metavar=args_metavar,
                  help_text=help_text, refused=refused, nargs=nargs,
                  usage_name=f"badmin {name}", empty_arg=empty_arg)


def _queue_op(op, verb):
    def action(o, names):
        site, reader = open_state()
        return admin_control.queue_control(
            site, op, admin_control.queue_names(reader, list(names)),
            o["comment"])
    COMMANDS.add(op, _sub(op, [COMMENT], f"{verb} queues (default: the "
                          "default queue; 'all': every queue).",
                          "[queue_name ... | all]",
                          empty_arg="queue name"), action)


def _host_op(op, verb):
    def action(o, names):
        site, reader = open_state()
        targets = admin_control.host_names(reader, list(names),
                                           reader.meta().get("cluster"))
        full = admin_control.full_hosts(reader) if op == "hopen" else ()
        return admin_control.host_control(site, op, targets, o["comment"],
                                          full)
    # LSF 10.1's -i lock_id (several closing reasons at once) is not xce's.
    COMMANDS.add(op, _sub(op, [COMMENT], f"{verb} hosts to new jobs "
                          "(default: this host; 'all': every host).",
                          "[host_name ... | host_group ... | all]",
                          refused=("-i",), empty_arg="host name"), action)


def _agent_op(op, verb):
    def action(o, names):
        site, reader = open_state()
        targets = admin_control.agent_targets(reader, op, list(names),
                                              o["force"],
                                              reader.meta().get("cluster"))
        return admin_control.agent_control(site, op, targets)
    force = Opt("-f", "force", takes=False,
                help="Do not ask for confirmation.")
    COMMANDS.add(op, _sub(op, [force], f"{verb} the agent (LSF's slave "
                          "batch daemon) on hosts (default: this host; "
                          "'all': every host); its jobs keep running.",
                          "[host_name ... | all]", empty_arg="host name"),
                action)


for _op, _verb in (("qopen", "Open"), ("qclose", "Close"),
                   ("qact", "Activate"), ("qinact", "Inactivate")):
    _queue_op(_op, _verb)
for _op, _verb in (("hopen", "Open"), ("hclose", "Close")):
    _host_op(_op, _verb)
for _op, _verb in (("hrestart", "Restart"), ("hshutdown", "Shut down"),
                   ("hstartup", "Start up")):
    _agent_op(_op, _verb)


def _reconfig(o, args):
    site, _ = open_state()
    return admin_control.reconfig(site, check_only=False)


def _ckconfig(o, args):
    site, _ = open_state()
    return admin_control.reconfig(site, check_only=True)


def _mbdrestart(o, args):
    from xce.client.admin.status import mbdrestart as restart
    site, _ = open_state()
    return restart(site)


def _showstatus(o, args):
    from xce.client.admin.status import showstatus_text
    _, reader = open_state()
    with reader:
        print(showstatus_text(reader))
    return 0


def _showconf(o, args):
    if args[0] not in ("mbd", "sbd"):
        raise UsageError(text("SHOWCONF_DAEMON", prog="badmin",
                              daemon=args[0], choices="mbd, sbd"))
    site, reader = open_state()
    values = cluster_params.effective(reader.params(), reader.queues())
    print(cluster_params.showconf_text(args[0], values, site.conf))
    return 0


COMMANDS.add("reconfig", _sub(
    "reconfig", [VERBOSE, FORCE], "Check the configuration and put it in "
    "force.", refused=("-C",), nargs=(0, 0)), _reconfig)
COMMANDS.add("ckconfig", _sub(
    "ckconfig", [VERBOSE], "Check the configuration only.", nargs=(0, 0)),
    _ckconfig)
COMMANDS.add("mbdrestart", _sub(
    "mbdrestart", [VERBOSE, FORCE], "Check the configuration and put it in "
    "force (xce's controller reconfigures in place; it does not restart).",
    refused=("-C", "-p", "-s"), nargs=(0, 0)), _mbdrestart)
COMMANDS.add("showstatus", _sub(
    "showstatus", [], "Summary of hosts, jobs and users, and the "
    "controller's start time and pid.", nargs=(0, 0)), _showstatus)
COMMANDS.add("showconf", _sub(
    "showconf", [], "Show the configuration in force: showconf mbd.",
    "mbd | sbd [host_name ...]", nargs=(1, None)), _showconf)


def main(argv=None):
    run(COMMANDS, None, argv)


if __name__ == "__main__":
    main()
