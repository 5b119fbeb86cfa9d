"""brequeue: kill jobs and put them back in their queue, same job ID."""

import click

from xce.cli.common import lsf_command, run
from xce.client.requests import selection, send
from xce.client.site import Site


@lsf_command(help="Requeue jobs: running ones by default (-r).")
@click.option("-a", "every", is_flag=True, help="Running, DONE and EXIT jobs.")
@click.option("-d", "done", is_flag=True, help="DONE jobs.")
@click.option("-e", "exited", is_flag=True, help="EXIT jobs.")
@click.option("-r", "running", is_flag=True, help="Running jobs (the default).")
@click.option("-p", "pending", is_flag=True, help="Pending jobs.")
@click.option("-H", "hold", is_flag=True, help="Requeue to PSUSP (held).")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or all.")
@click.option("-J", "name", metavar="job_name", help="Jobs with this name.")
@click.argument("ids", nargs=-1)
def cli(every, done, exited, running, pending, hold, user, name, ids):
    wanted = set()
    for flag, stats in ((every, ("RUN", "DONE", "EXIT")), (done, ("DONE",)),
                        (exited, ("EXIT",)), (running, ("RUN",)),
                        (pending, ("PEND",))):
        if flag:
            wanted.update(stats)
    body = selection(ids, user, None, name)
    body.update(states=sorted(wanted or {"RUN"}), hold=hold)
    return send(Site(), "requeue", body)


def main(argv=None):
    run(cli, "brequeue", argv)


if __name__ == "__main__":
    main()
