"""Commands that differ only in the action they request share one builder.

bstop and bresume take bkill's selection options; btop and bbot take a job
and a position.  Each command module is two lines around these.
"""

import click

from xce.cli.common import lsf_command
from xce.client.control import control_request
from xce.client.site import Site
from xce.model import numbers
from xce.errors import text


def control_command(action, help_text):
    """bstop/bresume: the bkill path with a fixed action."""
    @lsf_command(help=help_text)
    @click.option("-u", "user", metavar="user|all",
                  help="Jobs of this user, or of all users.")
    @click.option("-q", "queue", metavar="queue", help="Jobs in this queue.")
    @click.option("-J", "name", metavar="name", help="Jobs with this name.")
    @click.option("-m", "host", metavar="host",
                  help="Jobs running on this host.")
    @click.argument("ids", nargs=-1)
    def cli(user, queue, name, host, ids):
        return control_request(Site(), action, ids, user, queue, name, host)
    return cli


def move_command(where, help_text):
    """btop/bbot: move a pending job among the user's jobs of its queue."""
    @lsf_command(help=help_text)
    @click.argument("jobid", required=False)
    @click.argument("position", required=False)
    def cli(jobid, position):
        from xce.client.modify import move
        if jobid is None:
            raise click.UsageError(text("MOVE_JOBID_NEEDED"))
        pos = 1 if position is None else numbers.whole(position, low=1)
        if pos is None:
            raise click.UsageError(
                text("BAD_POSITION", position=position))
        return move(Site(), where, jobid, pos)
    return cli
