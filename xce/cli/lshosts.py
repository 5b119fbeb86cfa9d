"""lshosts: static facts of the hosts (type, model, CPUs, memory)."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster.host_load import lshosts_long, lshosts_table, pick

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format."),
    Opt("-gpu", "gpu", takes=False, help="The hosts' GPUs."),
    Opt("-l", "long_format", takes=False, help="Long format."),
]
# The rest of LSF 10.1's lshosts options.
UNSUPPORTED = ("-a", "-cname", "-e", "-json", "-o", "-R", "-s",
               "-T")
PARSER = Parser("lshosts", OPTIONS, args_metavar="[host_name ...]",
                help_text="Show static host information.",
                refused=UNSUPPORTED, conflicts=[("-gpu", "-l")])


def lshosts(o, names):
    _, reader = open_state()
    with reader:
        hosts = pick(reader.hosts(), tuple(names))
    if o["gpu"]:
        from xce.client.cluster import gpus
        print(gpus.lshosts_table(hosts))
        return 0
    print(lshosts_long(hosts) if o["long_format"]
          else lshosts_table(hosts, o["wide"]))
    return 0


def main(argv=None):
    run(PARSER, lshosts, argv)


if __name__ == "__main__":
    main()
