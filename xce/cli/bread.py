"""bread: read the messages posted to a job with bpost."""

from xce.cli.lsfargs import Opt, Parser, run, whole
from xce.client import messages
from xce.client.site import current_user, open_state

OPTIONS = [
    Opt("-i", "msg_id", type=whole(0), metavar="message_index",
        help="Only this message."),
    Opt("-a", "save_to", metavar="file_name",
        help="Save the attachment of the message (index -i, default 0) in "
        "this file."),
]
# The rest of LSF 10.1's bread options.
UNSUPPORTED = ("-J",)
PARSER = Parser("bread", OPTIONS, args_metavar="job_ID",
                help_text="Show the messages posted to a job.",
                refused=UNSUPPORTED, nargs=(1, 1))


def bread(o, args):
    site, reader = open_state()
    msg_id = o["msg_id"]
    if o["save_to"] and msg_id is None:
        msg_id = 0
    with reader:
        return messages.read(reader, args[0], msg_id, o["save_to"],
                             current_user(), site.spool / "attachments")


def main(argv=None):
    run(PARSER, bread, argv)


if __name__ == "__main__":
    main()
