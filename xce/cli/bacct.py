"""bacct: accounting information about finished jobs, read from the store."""

import sys

import click

from xce.cli.common import lsf_command, run
from xce.errors import EXIT_FAILURE


@lsf_command(help="Display accounting information about finished jobs.")
@click.option("-b", "brief", is_flag=True, help="Brief format (the default).")
@click.option("-l", "long", is_flag=True, help="Long format: one block per job.")
@click.option("-d", "done", is_flag=True, help="Only jobs that finished with DONE.")
@click.option("-e", "exited", is_flag=True, help="Only jobs that finished with EXIT.")
@click.option("-C", "completed", metavar="time0,time1", help="Jobs that finished in this window.")
@click.option("-S", "submitted", metavar="time0,time1", help="Jobs submitted in this window.")
@click.option("-D", "dispatched", metavar="time0,time1", help="Jobs dispatched in this window.")
@click.option("-m", "host", metavar="host", help="Jobs that ran on this host.")
@click.option("-P", "project", metavar="project", help="Jobs of this project.")
@click.option("-q", "queue", metavar="queue", help="Jobs of this queue.")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or of all users.")
@click.argument("ids", nargs=-1)
def cli(brief, long, done, exited, completed, submitted, dispatched, host,
        project, queue, user, ids):
    from xce.client.history import acct
    from xce.client.history import windows as time_windows
    from xce.client.history import events as history
    from xce.client.site import current_user, open_store
    windows = time_windows.windows(completed, submitted, dispatched)
    stats = {"DONE", "EXIT"}
    if done != exited:
        stats = {"DONE"} if done else {"EXIT"}
    selection = history.Selection(user=user, queue=queue, ids=ids,
                                  stats=stats, windows=windows)
    where, args = selection.where()
    if host:
        where += " AND (' ' || exec_hosts || ' ') LIKE ?"
        args.append(f"% {host} %")
    if project:
        where += (" AND COALESCE(json_extract(spec, '$.project'), "
                  "'default') = ?")
        args.append(project)
    with open_store() as reader:
        totals = acct.totals(reader, where, args)
        found = totals["done"] + totals["exited"]
        if ids and not found:
            print("No matching job found", file=sys.stderr)
            return EXIT_FAILURE
        users = "all" if ids else (user or current_user())
        out = [acct.header(users, queue, project)]
        if long:
            out += [acct.job_block(row) for row in reader.jobs(where, args)]
        out.append("\n" + acct.summary(totals))
    sys.stdout.write("".join(out))
    return 0


def main(argv=None):
    run(cli, "bacct", argv)


if __name__ == "__main__":
    main()
