"""blaunch: start tasks of the current job on its hosts, wait for them.

``blaunch [-n] [-u host_file | -z "host ..." | host] command [argument ...]``
"""

import os

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client import blaunch as bl
from xce.client.site import Site
from xce.errors import XceError, text

OPTIONS = [
    Opt("-n", "no_stdin", takes=False,
        help="Tasks read nothing (their stdin is always /dev/null)."),
    Opt("-z", "hostlist", metavar="'host ...'",
        help="Start one task on each of these hosts."),
    Opt("-u", "hostfile", metavar="host_file",
        help="Start one task per line of this file."),
]
# The rest of LSF 10.1's blaunch options.
UNSUPPORTED = ("-use-login-shell", "-no-shell")
PARSER = Parser("blaunch", OPTIONS, args_metavar="[host] command "
                "[argument ...]",
                help_text="Launch tasks of the current job on its hosts.",
                stop_at_first_arg=True, refused=UNSUPPORTED)


def blaunch(o, words):
    words = list(words)
    if o["hostlist"]:
        hosts = o["hostlist"].split()
    elif o["hostfile"]:
        hosts = bl.hosts_from_file(o["hostfile"])
    elif words:
        hosts = [words.pop(0)]
    else:
        hosts = []
    if not hosts or not words:
        raise UsageError(text("BLAUNCH_USAGE", "blaunch"))
    bl.job_of(os.environ)     # fail early outside a job
    try:
        return bl.launch(Site(), hosts, words)
    except KeyboardInterrupt:
        raise XceError(text("BLAUNCH_INTERRUPTED"))


def main(argv=None):
    run(PARSER, blaunch, argv)


if __name__ == "__main__":
    main()
