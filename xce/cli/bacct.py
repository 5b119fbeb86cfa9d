"""bacct: accounting information about finished jobs, read from the store."""

import sys

from xce.cli.lsfargs import Opt, Parser, run
from xce.errors import EXIT_FAILURE

OPTIONS = [
    Opt("-b", "brief", takes=False, help="Brief format (the default)."),
    Opt("-l", "long", takes=False, help="Long format: one block per job."),
    Opt("-d", "done", takes=False, help="Only jobs that finished with DONE."),
    Opt("-e", "exited", takes=False, help="Only jobs that finished with EXIT."),
    Opt("-C", "completed", metavar="time0,time1", help="Jobs that finished in this window."),
    Opt("-S", "submitted", metavar="time0,time1", help="Jobs submitted in this window."),
    Opt("-D", "dispatched", metavar="time0,time1", help="Jobs dispatched in this window."),
    Opt("-m", "host", metavar="host", help="Jobs that ran on this host."),
    Opt("-P", "project", metavar="project", help="Jobs of this project."),
    Opt("-q", "queue", metavar="queue", help="Jobs of this queue."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or of all users."),
]
# The rest of LSF 10.1's bacct options.
UNSUPPORTED = ("-aff", "-app", "-cname", "-E", "-f", "-gpu", "-Lp", "-N",
               "-rcacct", "-rcalloc", "-sla", "-U", "-w", "-x")
PARSER = Parser("bacct", OPTIONS, args_metavar="[job_ID ...]",
                help_text="Display accounting information about finished "
                "jobs.", refused=UNSUPPORTED, conflicts=[("-b", "-l")],
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bacct(o, ids):
    from xce.client.history import acct
    from xce.client.history import windows as time_windows
    from xce.client.history import events as history
    from xce.client.jobs.filters import project_clause
    from xce.client.site import current_user, open_store
    user, queue, host, project = o["user"], o["queue"], o["host"], \
        o["project"]
    windows = time_windows.windows(o["completed"], o["submitted"],
                                   o["dispatched"])
    stats = {"DONE", "EXIT"}
    if o["done"] != o["exited"]:
        stats = {"DONE"} if o["done"] else {"EXIT"}
    selection = history.Selection(user=user, queue=queue, ids=tuple(ids),
                                  stats=stats, windows=windows)
    where, args = selection.where()
    # bkill -b leaves no lsb.acct record: LSF's bacct never sees those jobs.
    where += " AND COALESCE(exit_reason, '') != 'TERM_BUCKET_KILL'"
    if host:
        where += " AND (' ' || exec_hosts || ' ') LIKE ?"
        args.append(f"% {host} %")
    if project:
        clause, more = project_clause(project)
        where += " AND " + clause
        args += more
    with open_store(history=True) as reader:
        totals = acct.totals(reader, where, args)
        found = totals["done"] + totals["exited"]
        if ids and not found:
            print("No matching job found", file=sys.stderr)
            return EXIT_FAILURE
        users = "all" if ids else (user or current_user())
        out = [acct.header(users, queue, project, host)]
        if o["long"]:
            out += [acct.job_block(row) for row in reader.jobs(where, args)]
        out.append("\n" + acct.summary(totals))
    sys.stdout.write("".join(out))
    return 0


def main(argv=None):
    run(PARSER, bacct, argv)


if __name__ == "__main__":
    main()
