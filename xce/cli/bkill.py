"""bkill: kill (or signal) jobs."""

import signal as _signal

from xce.cli.jobcmd import SELECTION
from xce.cli.lsfargs import Opt, Parser, run
from xce.client.control import control_request, kill_stat, parse_signal
from xce.client.site import Site
from xce.errors import text

OPTIONS = [
    Opt("-s", "sig", metavar="signal", help="Signal to send (name or number)."),
    Opt("-l", "list_signals", takes=False, help="List the signal names."),
    *SELECTION,
    Opt("-r", "force", takes=False, help="Remove the job at once."),
    Opt("-d", "as_done", takes=False,
        help="Kill a started job and record it as DONE once it exits."),
    Opt("-b", "bulk", takes=False,
        help="Bulk kill: with 0, skip without a word the jobs that cannot "
        "be killed; the jobs killed leave no lsb.acct record."),
    Opt("-stat", "stat", metavar="run|pend|susp", type=kill_stat,
        sample="run", help="Kill every job of yours (or the other "
        "options') in this status; skip silently those that cannot be."),
]
# LSF 10.1's other bkill options.  -C records a kill reason, but where
# LSF shows it (bjobs -l, bhist -l, bacct -l?) and in which words, its
# documentation does not say: refused, not guessed.
UNSUPPORTED = ("-app", "-C", "-sla")
PARSER = Parser("bkill", OPTIONS, args_metavar="[job_ID ... | 0]",
                help_text="Send a signal to jobs; by default kill them "
                "(SIGINT, SIGTERM, then SIGKILL).",
                refused=UNSUPPORTED,
                reasons={"-C": text("UNDOCUMENTED",
                                    what="where it shows the reason")},
                # LSF: [-r | -s signal | -d]; -stat kills, so no -s.
                conflicts=[("-r", "-s"), ("-r", "-d"), ("-s", "-d"),
                           ("-stat", "-s"), ("-b", "-stat"),
                           ("-b", "-d")],
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bkill(o, ids):
    if o["list_signals"]:
        names = sorted((s for s in _signal.Signals
                        if not s.name.startswith("SIGRT")), key=int)
        print(" ".join(s.name[3:] for s in names))
        return 0
    if o["sig"] is not None:
        num = parse_signal(o["sig"])
        action = "signal"
    else:
        num, action = None, "kill"
    return control_request(Site(), action, ids, o["user"], o["queue"],
                           o["name"], o["host"], sig=num, force=o["force"],
                           as_done=o["as_done"], job_group=o["job_group"],
                           stat=o["stat"],
                           # LSF ignores -b with -r or -s.
                           bulk=o["bulk"] and not (o["force"] or
                                                   o["sig"] is not None))


def main(argv=None):
    run(PARSER, bkill, argv)


if __name__ == "__main__":
    main()
