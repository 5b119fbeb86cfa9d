"""bhist: the history of jobs, read from the state store's events."""

import gc
import sys

from xce.cli.lsfargs import Opt, Parser, Refused, UsageError, run
from xce.errors import EXIT_FAILURE, XceError, text

OPTIONS = [
    Opt("-a", "all_jobs", takes=False, help="Finished and unfinished jobs."),
    Opt("-d", "done", takes=False, help="Finished jobs only."),
    Opt("-p", "pending", takes=False, help="Pending jobs only."),
    Opt("-r", "running", takes=False, help="Running jobs only."),
    Opt("-s", "suspended", takes=False, help="Suspended jobs only."),
    Opt("-l", "long", takes=False, help="Long format: every event."),
    Opt("-b", "brief", takes=False,
        help="Brief format: every event, the submission without its "
        "files, requests and limits."),
    Opt("-t", "chronicle", takes=False,
        help="Every job's events in the order they happened (the last "
        "week, or -T's window)."),
    Opt("-T", "events_window", metavar="time0,time1",
        help="With -t: the events of this window."),
    Opt("-w", "wide", takes=False, help="Wide format: nothing truncated."),
    # LSF searches lsb.events and the N-1 newest archives (0: all of
    # them); xce shows the jobs submitted in those files, their histories
    # read from the store (xce.client.history.logfiles).
    Opt("-n", "logfiles", metavar="N|min,max",
        help="The jobs submitted in the N newest event log files (0: all), "
        "or in lsb.events.min to lsb.events.max."),
    Opt("-f", "logfile", metavar="logfile_name",
        help="The jobs submitted in this event log file."),
    Opt("-C", "completed", metavar="time0,time1", help="Jobs that finished in this window."),
    Opt("-S", "submitted", metavar="time0,time1", help="Jobs submitted in this window."),
    Opt("-D", "dispatched", metavar="time0,time1", help="Jobs dispatched in this window."),
    Opt("-J", "name", metavar="name", help="Jobs with this name (* matches anything)."),
    Opt("-q", "queue", metavar="queue", help="Jobs of this queue."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or of all users."),
]
# The rest of LSF 10.1's bhist options.
UNSUPPORTED = ("-aff", "-app", "-cname", "-data", "-e", "-G", "-g",
               "-gpu", "-hostfile", "-Jd", "-Lp", "-m", "-N", "-P", "-UF")
PARSER = Parser("bhist", OPTIONS, args_metavar="[job_ID ...]",
                help_text="Display the history of jobs.",
                refused=UNSUPPORTED, conflicts=[("-f", "-n")],
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bhist(o, ids):
    if o["chronicle"]:
        return _chronicle(o, ids)
    if o["events_window"] is not None:
        raise UsageError(text("BHIST_T_NEEDS_T"))
    from xce.client.history import windows as time_windows
    from xce.client.history import events as history
    from xce.client.history import logfiles as log
    from xce.client.site import Site, open_store
    # A history of every job is hundreds of thousands of small objects, none
    # in a cycle, built once before exit: the cyclic collector would scan
    # them over and over for nothing (about 2 s of bhist -l -a at 100,000).
    gc.disable()
    completed = o["completed"]
    if o["logfile"] == "-":
        raise XceError(text("BHIST_LOG_STDIN"))
    files = None if o["logfiles"] is None else log.numbers_of(o["logfiles"])
    windows = time_windows.windows(completed, o["submitted"],
                                   o["dispatched"])
    stats = _stats(o["all_jobs"], o["done"] or completed is not None,
                   o["pending"], o["running"], o["suspended"])
    selection = history.Selection(user=o["user"], queue=o["queue"],
                                  name=o["name"], ids=tuple(ids),
                                  stats=stats, windows=windows)
    site = Site()
    with open_store(site, history=True) as reader:
        rows = log.select(selection.rows(reader, None if o["long"] or
                                         o["brief"] else
                                         history.SUMMARY_COLUMNS),
                          files, site, reader, o["logfile"])
        if not rows:
            print("No matching job found")
            return EXIT_FAILURE
        if o["long"] or o["brief"]:         # -l wins over -b, as in LSF
            from xce.client.history.long import long_history
            queues = {q["name"]: q["conf"] for q in reader.queues()}
            report = long_history(history.histories(reader, rows),
                                  queues=queues, brief=not o["long"])
        else:
            report = history.summary_of_rows(reader, rows, o["wide"])
    sys.stdout.write(report)
    print()
    return 0


# What bhist -t takes besides itself: -T, and -f (LSF reads that one event
# log file; xce reads its store, and refuses it).  Any other option of the
# table is LSF's usage error.
_WITH_CHRONICLE = ("chronicle", "events_window", "logfile")


def _chronicle(o, ids):
    from xce.client.history import chronicle
    from xce.client.history.windows import parse_window
    from xce.client.site import Site, open_store
    given = [opt.flags[0] for opt in OPTIONS
             if opt.dest not in _WITH_CHRONICLE
             and o[opt.dest] not in (None, False)]
    if given or ids:
        raise UsageError(text("OPTIONS_CONFLICT", prog="bhist", first="-t",
                              second=given[0] if given else "a job ID"))
    if o["logfile"] is not None:
        raise Refused(text("OPTION_NOT_SUPPORTED", prog="bhist",
                           option="-f with -t"))
    window = chronicle.default_window() if o["events_window"] is None \
        else parse_window(o["events_window"])
    with open_store(Site(), history=True) as reader:
        lines = chronicle.chronicle(reader, window)
    if not lines:
        print(text("BHIST_NO_EVENT"))
        return EXIT_FAILURE
    sys.stdout.write("\n".join(lines) + "\n\n")
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
    run(PARSER, bhist, argv)


if __name__ == "__main__":
    main()
