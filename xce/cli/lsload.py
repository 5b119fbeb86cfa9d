"""lsload: load indices of the hosts (``-`` until agents report load)."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.host_load import lsload_table, pick

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format."),
    Opt("-gpu", "gpu", takes=False, help="The hosts' GPUs."),
    Opt("-l", "long_format", takes=False, help="Show all indices."),
    Opt("-s", "shared", takes=False, help="Shared resources and their values (the arguments are resource names)."),
]
# The rest of LSF 10.1's lsload options.
UNSUPPORTED = ("-a", "-cname", "-E", "-gpuload", "-I", "-json",
               "-N", "-n", "-o", "-R")
PARSER = Parser("lsload", OPTIONS, args_metavar="[host_name ...]",
                help_text="Show host load indices.", refused=UNSUPPORTED,
                conflicts=[("-gpu", "-l"), ("-s", "-l"), ("-s", "-w"),
                           ("-s", "-gpu")])


def lsload(o, names):
    _, reader = open_state()
    if o["shared"]:
        from xce.client.cluster import shared
        with reader:
            rows = shared.usage(reader.meta())
        print(shared.value_table(rows, names))
        return 0
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
