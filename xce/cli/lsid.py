"""lsid: the LSF version xce reproduces, the cluster name and the master host."""

from xce.cli.lsfargs import Parser, run
from xce.client.cluster.lsid import lsid_text
from xce.client.site import Site, open_store
from xce.errors import XceError

# LSF 10.1's lsid has no option but -h and -V.
PARSER = Parser("lsid", [], help_text="Display the LSF version, the cluster "
                "name and the master host name.", nargs=(0, 0))


def lsid(o, args):
    site = Site()
    try:
        meta = open_store(site).meta()
    except XceError:
        meta = {}       # no store yet: the names come from lsf.conf
    print(lsid_text(meta, site))
    return 0


def main(argv=None):
    run(PARSER, lsid, argv)


if __name__ == "__main__":
    main()
