"""lshosts: static facts of the hosts (type, model, CPUs, memory)."""

import json

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.site import open_state
from xce.client.cluster import shared
from xce.client.cluster.host_load import (lshosts_long, lshosts_table, pick,
                                          static_rows)
from xce.model.resources import Catalog

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format."),
    Opt("-gpu", "gpu", takes=False, help="The hosts' GPUs."),
    Opt("-l", "long_format", takes=False, help="Long format."),
    Opt("-s", "shared", takes=False, help="Static resources (shared or host-based), their values and where (the arguments are resource names)."),
]
# The rest of LSF 10.1's lshosts options.
UNSUPPORTED = ("-a", "-cname", "-e", "-json", "-o", "-R", "-T")
PARSER = Parser("lshosts", OPTIONS, args_metavar="[host_name ...]",
                help_text="Show static host information.",
                refused=UNSUPPORTED,
                conflicts=[("-gpu", "-l"), ("-s", "-l"), ("-s", "-w"),
                           ("-s", "-gpu")])


def lshosts(o, names):
    _, reader = open_state()
    with reader:
        all_hosts, meta = reader.hosts(), reader.meta()
    conf = json.loads(meta.get("config_sections") or "{}")
    catalog = Catalog.build(conf.get("resources") or {})
    if o["shared"]:
        # Static ones only: lsload -s shows what elims report.
        dynamic = catalog.dynamic_names()
        rows = [r for r in shared.usage(meta) if r["name"] not in dynamic] \
            + static_rows(all_hosts, catalog)
        print(shared.value_table(rows, names))
        return 0
    hosts = pick(all_hosts, tuple(names))
    if o["gpu"]:
        from xce.client.cluster import gpus
        print(gpus.lshosts_table(hosts))
        return 0
    models = conf.get("host_models")
    print(lshosts_long(hosts, catalog, models) if o["long_format"]
          else lshosts_table(hosts, o["wide"], catalog, models))
    return 0


def main(argv=None):
    run(PARSER, lshosts, argv)


if __name__ == "__main__":
    main()
