"""bpost: attach a message, and optionally a text file, to a job."""

import click

from xce.cli.common import Whole, lsf_command, run
from xce.client import messages
from xce.client.site import Site
from xce.errors import text


@lsf_command(help="Post a message (and a file) to a job; bread reads it.")
@click.option("-i", "msg_id", type=Whole(0), default=0,
              metavar="message_index", help="Message index (default 0); "
              "a new post replaces the message of that index.")
@click.option("-d", "description", metavar='"description"',
              help="The message text.")
@click.option("-a", "attach", metavar="data_file",
              help="A text file attached to the message.")
@click.argument("jobid")
def cli(msg_id, description, attach, jobid):
    if description is None and attach is None:
        raise click.UsageError(text("POST_NOTHING"))
    return messages.post(Site(), jobid, msg_id, description or "", attach)


def main(argv=None):
    run(cli, "bpost", argv)


if __name__ == "__main__":
    main()
