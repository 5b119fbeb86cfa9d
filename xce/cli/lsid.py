"""lsid: the LSF version xce reproduces, the cluster name and the master host."""

from xce.cli.common import lsf_command, run
from xce.client.cluster.lsid import lsid_text
from xce.client.site import Site, open_store
from xce.errors import XceError


@lsf_command(help="Display the LSF version, the cluster name and the "
             "master host name.")
def cli():
    site = Site()
    try:
        meta = open_store(site).meta()
    except XceError:
        meta = {}       # no store yet: the names come from lsf.conf
    print(lsid_text(meta, site))
    return 0


def main(argv=None):
    run(cli, "lsid", argv)


if __name__ == "__main__":
    main()
