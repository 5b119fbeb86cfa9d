"""blimits: the resource limits of the configuration."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.limits import blimits_text

OPTIONS = [
    Opt("-n", "names", multiple=True, metavar="limit_name", help="Only this limit."),
    Opt("-P", "projects", multiple=True, metavar="project",
        help="Only the limits that apply to this project."),
    Opt("-w", "wide", takes=False,
        help="Wide format: names and scopes are not truncated."),
]
# The rest of LSF 10.1's blimits options.
UNSUPPORTED = ("-A", "-a", "-C", "-c", "-fwd", "-gl", "-Lp", "-m", "-o",
               "-q", "-u")
PARSER = Parser("blimits", OPTIONS,
                help_text="Show the configured resource allocation limits.",
                refused=UNSUPPORTED, nargs=(0, 0))


def blimits(o, args):
    _, reader = open_state()
    with reader:
        print(blimits_text(reader, o["names"], o["wide"], o["projects"]))
    return 0


def main(argv=None):
    run(PARSER, blimits, argv)


if __name__ == "__main__":
    main()
