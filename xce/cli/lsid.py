"""lsid: the LSF version xce reproduces, the cluster name and the master host."""

from xce.cli.common import lsf_command, run
from xce.client.info import lsid_text
from xce.envdir import Site
from xce.errors import XceError
from xce.store.reader import Reader


@lsf_command(help="Display the LSF version, the cluster name and the "
             "master host name.")
def cli():
    site = Site()
    try:
        meta = Reader(site.store_path).meta()
    except XceError:
        meta = {}       # no store yet: the names come from lsf.conf
    print(lsid_text(meta, site))
    return 0


def main(argv=None):
    run(cli, "lsid", argv)


if __name__ == "__main__":
    main()
