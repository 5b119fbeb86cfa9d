"""brequeue: kill jobs and put them back in their queue, same job ID."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.requests import selection, send
from xce.client.site import Site

OPTIONS = [
    Opt("-a", "every", takes=False, help="Running, DONE and EXIT jobs."),
    Opt("-d", "done", takes=False, help="DONE jobs."),
    Opt("-e", "exited", takes=False, help="EXIT jobs."),
    Opt("-r", "running", takes=False, help="Running jobs (the default)."),
    Opt("-p", "pending", takes=False, help="Pending jobs."),
    Opt("-H", "hold", takes=False, help="Requeue to PSUSP (held)."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or all."),
    Opt("-J", "name", metavar="job_name", help="Jobs with this name."),
]
# LSF 10.1's brequeue has no other option.
PARSER = Parser("brequeue", OPTIONS, args_metavar="[job_ID ... | 0]",
                help_text="Requeue jobs: running ones by default (-r).",
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def brequeue(o, ids):
    wanted = set()
    for flag, stats in (("every", ("RUN", "DONE", "EXIT")),
                        ("done", ("DONE",)), ("exited", ("EXIT",)),
                        ("running", ("RUN",)), ("pending", ("PEND",))):
        if o[flag]:
            wanted.update(stats)
    body = selection(tuple(ids), o["user"], None, o["name"])
    body.update(states=sorted(wanted or {"RUN"}), hold=o["hold"])
    return send(Site(), "requeue", body)


def main(argv=None):
    run(PARSER, brequeue, argv)


if __name__ == "__main__":
    main()
