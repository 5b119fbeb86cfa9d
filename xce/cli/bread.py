"""bread: read the messages posted to a job with bpost."""

import click

from xce.cli.common import Whole, lsf_command, run
from xce.client import messages
from xce.client.site import current_user, open_state


@lsf_command(help="Show the messages posted to a job.")
@click.option("-i", "msg_id", type=Whole(0), metavar="message_index",
              help="Only this message.")
@click.option("-a", "save_to", metavar="file_name",
              help="Save the attachment of the message (index -i, "
              "default 0) in this file.")
@click.argument("jobid")
def cli(msg_id, save_to, jobid):
    site, reader = open_state()
    if save_to and msg_id is None:
        msg_id = 0
    with reader:
        return messages.read(reader, jobid, msg_id, save_to, current_user(),
                             site.spool / "attachments")


def main(argv=None):
    run(cli, "bread", argv)


if __name__ == "__main__":
    main()
