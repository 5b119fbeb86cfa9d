"""bpost: attach a message, and optionally a text file, to a job."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run, whole
from xce.client import messages
from xce.client.site import Site
from xce.errors import text

OPTIONS = [
    Opt("-i", "msg_id", type=whole(0), default=0, metavar="message_index",
        help="Message index (default 0); a new post replaces the message "
        "of that index."),
    Opt("-d", "description", metavar='"description"', help="The message text."),
    Opt("-a", "attach", metavar="data_file",
        help="A text file attached to the message."),
]
# The rest of LSF 10.1's bpost options.
UNSUPPORTED = ("-J",)
PARSER = Parser("bpost", OPTIONS, args_metavar="job_ID",
                help_text="Post a message (and a file) to a job; bread "
                "reads it.", refused=UNSUPPORTED, nargs=(1, 1))


def bpost(o, args):
    if o["description"] is None and o["attach"] is None:
        raise UsageError(text("POST_NOTHING", "bpost"))
    return messages.post(Site(), args[0], o["msg_id"],
                         o["description"] or "", o["attach"])


def main(argv=None):
    run(PARSER, bpost, argv)


if __name__ == "__main__":
    main()
