"""bkill: kill (or signal) jobs."""

import signal as _signal

import click

from xce.cli.common import lsf_command, run
from xce.client.control import control_request, parse_signal
from xce.client.site import Site


@lsf_command(help="Send a signal to jobs; by default kill them "
             "(SIGINT, SIGTERM, then SIGKILL).")
@click.option("-s", "sig", metavar="signal", help="Signal to send (name or number).")
@click.option("-l", "list_signals", is_flag=True, help="List the signal names.")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or of all users.")
@click.option("-q", "queue", metavar="queue", help="Jobs in this queue.")
@click.option("-J", "name", metavar="name", help="Jobs with this name.")
@click.option("-m", "host", metavar="host", help="Jobs running on this host.")
@click.option("-r", "force", is_flag=True, help="Remove the job at once.")
@click.option("-d", "as_done", is_flag=True, help="Kill; accepted for compatibility.")
@click.option("-b", "bulk", is_flag=True, help="Bulk kill; accepted for compatibility.")
@click.argument("ids", nargs=-1)
def cli(sig, list_signals, user, queue, name, host, force, as_done, bulk, ids):
    if list_signals:
        names = sorted((s for s in _signal.Signals
                        if not s.name.startswith("SIGRT")), key=int)
        print(" ".join(s.name[3:] for s in names))
        return 0
    if sig is not None:
        num = parse_signal(sig)
        action = "signal"
    else:
        num, action = None, "kill"
    return control_request(Site(), action, ids, user, queue, name, host,
                           sig=num, force=force)


def main(argv=None):
    run(cli, "bkill", argv)


if __name__ == "__main__":
    main()
