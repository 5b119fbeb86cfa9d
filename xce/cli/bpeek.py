"""bpeek: show the output of an unfinished job so far."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.peek import peek
from xce.client.requests import call
from xce.client.site import current_user, open_state, open_store
from xce.errors import text

OPTIONS = [
    Opt("-f", "follow", takes=False, help="Follow the output until the job ends."),
    Opt("-q", "queue", metavar="queue_name", help="Your latest job in this queue."),
    Opt("-m", "host", metavar="host_name", help="Your latest job on this host."),
    Opt("-J", "name", metavar="job_name", help="Your latest job with this name."),
]
# LSF 10.1's bpeek has no other option.
PARSER = Parser("bpeek", OPTIONS, args_metavar="[job_ID]",
                help_text="Show the stdout (and a separate stderr) a running "
                "job has written so far.", nargs=(0, 1),
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bpeek(o, args):
    jobid = args[0] if args else None
    queue, host, name = o["queue"], o["host"], o["name"]
    chosen = [x for x in (queue, host, name, jobid) if x is not None]
    if len(chosen) > 1:
        raise UsageError(text("PEEK_SELECTORS", "bpeek"))
    site, reader = open_state()
    reader.close()
    return peek(lambda: open_store(site), current_user(), jobid,
                queue, host, name, o["follow"], site.spool / "output",
                ask=lambda body: call(site, "peek", body))


def main(argv=None):
    run(PARSER, bpeek, argv)


if __name__ == "__main__":
    main()
