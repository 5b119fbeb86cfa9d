"""bapp: application profiles and their job counts."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.apps import bapp_table

OPTIONS = [
    Opt("-l", "long_format", takes=False, help="Long format."),
    Opt("-w", "wide", takes=False, help="Wide format: names are not truncated."),
]
# The rest of LSF 10.1's bapp options.
UNSUPPORTED = ("-alloc",)
PARSER = Parser("bapp", OPTIONS, args_metavar="[application_profile ...]",
                help_text="Show application profiles.", refused=UNSUPPORTED)


def bapp(o, names):
    _, reader = open_state()
    with reader:
        print(bapp_table(reader, tuple(names), o["long_format"], o["wide"]))
    return 0


def main(argv=None):
    run(PARSER, bapp, argv)


if __name__ == "__main__":
    main()
