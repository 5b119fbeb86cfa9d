"""bswitch: move jobs to another queue."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.requests import selection, send
from xce.client.site import Site
from xce.errors import XceError

NO_DEST = "The destination queue name must be specified."

OPTIONS = [
    Opt("-q", "queue", metavar="queue_name", help="Jobs in this queue."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or all."),
    Opt("-m", "host", metavar="host", help="Jobs running on this host."),
    Opt("-J", "name", metavar="job_name", help="Jobs with this name."),
]
# The rest of LSF 10.1's bswitch options.
UNSUPPORTED = ("-a",)
PARSER = Parser("bswitch", OPTIONS,
                args_metavar="destination_queue [job_ID ... | 0]",
                help_text="Switch jobs to the destination queue.",
                refused=UNSUPPORTED,
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bswitch(o, args):
    if not args:
        raise XceError(NO_DEST)
    dest, ids = args[0], tuple(args[1:])
    body = selection(ids, o["user"], o["queue"], o["name"], o["host"])
    body["dest"] = dest
    return send(Site(), "switch", body)


def main(argv=None):
    run(PARSER, bswitch, argv)


if __name__ == "__main__":
    main()
