"""lsclusters: the cluster, its status, master host, admin and host counts."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.cluster.lsid import lsclusters_text
from xce.client.site import open_state
from xce.errors import XceError, about

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format: nothing truncated."),
    Opt("-l", "long", takes=False, help="Long format (as -w)."),
]
# LSF 10.1's lsclusters has no other option.
PARSER = Parser("lsclusters", OPTIONS, args_metavar="[cluster_name ...]",
                help_text="Display configuration information about the "
                "cluster.")


def lsclusters(o, names):
    site, reader = open_state()
    meta = reader.meta()
    for name in names:
        if name != meta.get("cluster"):
            raise XceError(about(name, "UNKNOWN_CLUSTER"))
    print(lsclusters_text(meta, reader.hosts(), site, o["wide"] or o["long"]))
    return 0


def main(argv=None):
    run(PARSER, lsclusters, argv)


if __name__ == "__main__":
    main()
