"""lsload: load indices of the hosts (``-`` until agents report load)."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.host_load import lsload_table, pick

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format."),
    Opt("-gpu", "gpu", takes=False, help="The hosts' GPUs."),
    Opt("-l", "long_format", takes=False, help="Show all indices."),
]
# The rest of LSF 10.1's lsload options.
UNSUPPORTED = ("-a", "-cname", "-E", "-gpuload", "-I", "-json",
               "-N", "-n", "-o", "-R", "-s")
PARSER = Parser("lsload", OPTIONS, args_metavar="[host_name ...]",
                help_text="Show host load indices.", refused=UNSUPPORTED, conflicts=[("-gpu", "-l")])


def lsload(o, names):
    _, reader = open_state()
    with reader:
        hosts = pick(reader.hosts(), tuple(names))
    if o["gpu"]:
        from xce.client.cluster import gpus
        print(gpus.lsload_table(hosts))
        return 0
    print(lsload_table(hosts, o["long_format"], o["wide"]))
    return 0


def main(argv=None):
    run(PARSER, lsload, argv)


if __name__ == "__main__":
    main()
