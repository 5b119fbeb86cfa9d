"""badmin: queue and host control, reconfiguration, configuration display."""

import click

from xce.cli.common import lsf_command, run
from xce.client.cluster import params as cluster_params
from xce.client.admin import control as admin_control
from xce.client.site import open_state
from xce.errors import XceError, text

COMMENT = click.option("-C", "comment", metavar="comment",
                       help="Comment kept with the action.")


class _Commands(click.Group):
    """LSF's wording for an unknown subcommand."""

    def resolve_command(self, ctx, args):
        if args and args[0] not in self.commands and \
                not args[0].startswith("-"):
            raise XceError(text("INVALID_COMMAND", command=args[0]))
        return super().resolve_command(ctx, args)


@lsf_command(cls=_Commands, help="Administer the batch system.")
def cli():
    pass


def _queue_op(op, verb):
    @lsf_command(name=op, help=f"{verb} queues (default: the default queue; "
                 "'all': every queue).")
    @COMMENT
    @click.argument("names", nargs=-1)
    def command(comment, names):
        site, reader = open_state()
        return admin_control.queue_control(
            site, op, admin_control.queue_names(reader, list(names)), comment)
    return command


def _host_op(op, verb):
    @lsf_command(name=op, help=f"{verb} hosts to new jobs (default: this "
                 "host; 'all': every host).")
    @COMMENT
    @click.argument("names", nargs=-1)
    def command(comment, names):
        site, reader = open_state()
        targets = admin_control.host_names(reader, list(names),
                                        reader.meta().get("cluster"))
        full = admin_control.full_hosts(reader) if op == "hopen" else ()
        return admin_control.host_control(site, op, targets, comment, full)
    return command


for _op, _verb in (("qopen", "Open"), ("qclose", "Close"),
                   ("qact", "Activate"), ("qinact", "Inactivate")):
    cli.add_command(_queue_op(_op, _verb))
for _op, _verb in (("hopen", "Open"), ("hclose", "Close")):
    cli.add_command(_host_op(_op, _verb))


def _agent_op(op, verb):
    @lsf_command(name=op, help=f"{verb} the agent (LSF's slave batch daemon) "
                 "on hosts (default: this host; 'all': every host); its jobs "
                 "keep running.")
    @click.option("-f", "force", is_flag=True,
                  help="Do not ask for confirmation.")
    @click.argument("names", nargs=-1)
    def command(force, names):
        site, reader = open_state()
        targets = admin_control.agent_targets(reader, op, list(names), force,
                                           reader.meta().get("cluster"))
        return admin_control.agent_control(site, op, targets)
    return command


for _op, _verb in (("hrestart", "Restart"), ("hshutdown", "Shut down"),
                   ("hstartup", "Start up")):
    cli.add_command(_agent_op(_op, _verb))


@cli.command("reconfig", context_settings={"help_option_names": ["-h", "--help"]},
             help="Check the configuration and put it in force.")
@click.option("-v", "verbose", is_flag=True, help="Accepted for compatibility.")
@click.option("-f", "force", is_flag=True, help="Accepted for compatibility.")
def reconfig(verbose, force):
    site, _ = open_state()
    return admin_control.reconfig(site, check_only=False)


@cli.command("ckconfig", context_settings={"help_option_names": ["-h", "--help"]},
             help="Check the configuration only.")
@click.option("-v", "verbose", is_flag=True, help="Accepted for compatibility.")
def ckconfig(verbose):
    site, _ = open_state()
    return admin_control.reconfig(site, check_only=True)


@cli.command("mbdrestart",
             context_settings={"help_option_names": ["-h", "--help"]},
             help="Check the configuration and put it in force (xce's "
             "controller reconfigures in place; it does not restart).")
@click.option("-v", "verbose", is_flag=True, help="Accepted for compatibility.")
@click.option("-f", "force", is_flag=True, help="Accepted for compatibility.")
def mbdrestart(verbose, force):
    from xce.client.admin.status import mbdrestart as restart
    site, _ = open_state()
    return restart(site)


@cli.command("showstatus",
             context_settings={"help_option_names": ["-h", "--help"]},
             help="Summary of hosts, jobs and users, and the controller's "
             "start time and pid.")
def showstatus():
    from xce.client.admin.status import showstatus_text
    _, reader = open_state()
    with reader:
        print(showstatus_text(reader))
    return 0


@cli.command("showconf", context_settings={"help_option_names": ["-h", "--help"]},
             help="Show the configuration in force: showconf mbd.")
@click.argument("daemon", type=click.Choice(["mbd", "sbd"]))
@click.argument("hosts", nargs=-1)
def showconf(daemon, hosts):
    site, reader = open_state()
    values = cluster_params.effective(reader.params(), reader.queues())
    print(cluster_params.showconf_text(daemon, values, site.conf))
    return 0


def main(argv=None):
    run(cli, "badmin", argv)


if __name__ == "__main__":
    main()
