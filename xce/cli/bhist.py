"""bhist: the history of jobs, read from the state store's events."""

import gc
import sys

import click

from xce.cli.common import lsf_command, run
from xce.errors import EXIT_FAILURE, XceError, text
from xce.model import numbers


@lsf_command(help="Display the history of jobs.")
@click.option("-a", "all_jobs", is_flag=True, help="Finished and unfinished jobs.")
@click.option("-d", "done", is_flag=True, help="Finished jobs only.")
@click.option("-p", "pending", is_flag=True, help="Pending jobs only.")
@click.option("-r", "running", is_flag=True, help="Running jobs only.")
@click.option("-s", "suspended", is_flag=True, help="Suspended jobs only.")
@click.option("-b", "brief", is_flag=True, help="Brief format (the default table).")
@click.option("-l", "long", is_flag=True, help="Long format: every event.")
@click.option("-w", "wide", is_flag=True, help="Wide format: nothing truncated.")
@click.option("-n", "logfiles", metavar="N", help="Accepted for LSF compatibility: the store keeps the whole history.")
@click.option("-C", "completed", metavar="time0,time1", help="Jobs that finished in this window.")
@click.option("-S", "submitted", metavar="time0,time1", help="Jobs submitted in this window.")
@click.option("-D", "dispatched", metavar="time0,time1", help="Jobs dispatched in this window.")
@click.option("-J", "name", metavar="name", help="Jobs with this name (* matches anything).")
@click.option("-q", "queue", metavar="queue", help="Jobs of this queue.")
@click.option("-u", "user", metavar="user|all", help="Jobs of this user, or of all users.")
@click.argument("ids", nargs=-1)
def cli(all_jobs, done, pending, running, suspended, brief, long, wide,
        logfiles, completed, submitted, dispatched, name, queue, user, ids):
    from xce.client.history import windows as time_windows
    from xce.client.history import events as history
    from xce.client.site import open_store
    # A history of every job is hundreds of thousands of small objects, none
    # in a cycle, built once before exit: the cyclic collector would scan
    # them over and over for nothing (about 2 s of bhist -l -a at 100,000).
    gc.disable()
    if logfiles is not None and not numbers.digits(logfiles.replace(",", "")):
        raise XceError(text("BHIST_LOGFILES"))
    windows = time_windows.windows(completed, submitted, dispatched)
    stats = _stats(all_jobs, done or completed is not None, pending, running,
                   suspended)
    selection = history.Selection(user=user, queue=queue, name=name,
                                  ids=ids, stats=stats, windows=windows)
    with open_store() as reader:
        rows = selection.rows(reader, None if long else
                              history.SUMMARY_COLUMNS)
        if not rows:
            print("No matching job found")
            return EXIT_FAILURE
        if long:
            from xce.client.history.long import long_history
            report = long_history(history.histories(reader, rows))
        else:
            report = history.summary_of_rows(reader, rows, wide)
    sys.stdout.write(report)
    print()
    return 0


def _stats(all_jobs, done, pending, running, suspended):
    if all_jobs:
        return "all"
    stats = set()
    if done:
        stats |= {"DONE", "EXIT"}
    if pending:
        stats |= {"PEND", "PSUSP"}
    if running:
        stats.add("RUN")
    if suspended:
        stats |= {"USUSP", "SSUSP"}
    return stats or None


def main(argv=None):
    run(cli, "bhist", argv)


if __name__ == "__main__":
    main()
