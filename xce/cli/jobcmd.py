"""Commands that differ only in the action they request share one table.

bstop and bresume take bkill's selection options; btop and bbot take a job
and a position.  Each command module is a few lines around these.
"""

from xce.cli.lsfargs import Opt, Parser, UsageError
from xce.client.control import control_request
from xce.client.site import Site
from xce.model import numbers
from xce.errbase import text

SELECTION = [
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or of all users."),
    Opt("-q", "queue", metavar="queue", help="Jobs in this queue."),
    Opt("-J", "name", metavar="name", help="Jobs with this name."),
    Opt("-m", "host", metavar="host", help="Jobs running on this host."),
    Opt("-g", "job_group", metavar="job_group_name",
        help="Jobs in this job group (not its subgroups)."),
]


def control_parser(prog, help_text, unsupported):
    """bstop/bresume: bkill's selection; *unsupported*: the rest of LSF's
    options of that command."""
    return Parser(prog, SELECTION, args_metavar="[job_ID ... | 0]",
                  help_text=help_text, refused=unsupported,
                  # "" (an unset variable's) selects nothing: refused
                  empty_values=False)


def control_action(action):
    def act(o, ids):
        return control_request(Site(), action, ids, o["user"], o["queue"],
                               o["name"], o["host"],
                               job_group=o["job_group"])
    return act


def move_parser(prog, help_text):
    """btop/bbot: a job and a position; LSF's have no other option."""
    return Parser(prog, [],
                  args_metavar="job_ID | \"job_ID[index_list]\" [position]",
                  help_text=help_text)


def move_action(where):
    """Move a pending job among the user's jobs of its queue."""
    def act(o, args):
        from xce.client.modify import move
        if not args:
            raise UsageError(text("MOVE_JOBID_NEEDED", _prog(where)))
        if len(args) > 2:
            raise UsageError(text("EXTRA_ARGUMENTS", prog=_prog(where),
                                  word=args[2]))
        position = args[1] if len(args) > 1 else None
        pos = 1 if position is None else numbers.whole(position, low=1)
        if pos is None:
            raise UsageError(text("BAD_POSITION", _prog(where),
                                  position=position))
        return move(Site(), where, args[0], pos)
    return act


def _prog(where):
    return "btop" if where == "top" else "bbot"
