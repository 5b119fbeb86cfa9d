"""bwait: wait until a job dependency condition is satisfied."""

import getpass

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.site import open_state, open_store
from xce.client.depend.wait import parse_timeout, wait
from xce.errors import text

OPTIONS = [
    Opt("-w", "expr", metavar="wait_condition",
        help="The condition, e.g. 'done(123) && ended(nightly)'."),
    Opt("-t", "timeout", metavar="minutes", help="Give up after this many minutes."),
    # LSF's bwait registers the condition with mbatchd and registers it
    # again every -r minutes (in case mbatchd restarted); xce's bwait reads
    # the state store itself on every poll, so every poll is a fresh
    # registration and the interval changes nothing that can be seen.
    Opt("-r", "rereg", metavar="minutes",
        help="Re-register interval (LSF); xce re-reads the condition on "
        "every poll, so it is always met."),
]
# LSF 10.1's bwait has no other option.
PARSER = Parser("bwait", OPTIONS,
                help_text="Wait until the condition (bsub -w syntax) is "
                "true.", nargs=(0, 0))


def bwait(o, args):
    if o["expr"] is None:
        raise UsageError(text("WAIT_NO_CONDITION", "bwait"))
    seconds = parse_timeout(o["timeout"])
    parse_timeout(o["rereg"])       # minutes, as -t: a bad value is refused
    site, reader = open_state()
    reader.close()
    return wait(lambda: open_store(site), getpass.getuser(), o["expr"],
                seconds)


def main(argv=None):
    run(PARSER, bwait, argv)


if __name__ == "__main__":
    main()
