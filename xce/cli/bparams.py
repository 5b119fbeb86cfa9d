"""bparams: the batch system's parameters, reading the state store directly."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.cluster import params as cluster_params
from xce.client.site import open_state

OPTIONS = [
    Opt("-l", "long", takes=False, help="Long format, with explanations."),
    Opt("-a", "all_params", takes=False, help="Every parameter, as NAME = value."),
]
# LSF 10.1's bparams has no other option.
PARSER = Parser("bparams", OPTIONS,
                help_text="Display the batch system's configuration "
                "parameters.", nargs=(0, 0))


def bparams(o, args):
    site, reader = open_state()
    values = cluster_params.effective(reader.params(), reader.queues())
    if o["all_params"]:
        print(cluster_params.all_text(values, site.conf))
    elif o["long"]:
        print(cluster_params.long_text(values))
    else:
        print(cluster_params.summary(values))
    return 0


def main(argv=None):
    run(PARSER, bparams, argv)


if __name__ == "__main__":
    main()
