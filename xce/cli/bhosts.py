"""bhosts: show batch hosts, reading the state store directly."""

from xce.cli.lsfargs import NotSupported, Opt, Parser, run
from xce.client.cluster import hosts as host_layouts
from xce.client.site import open_state
from xce.errors import XceError, text

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format: precise states, nothing truncated."),
    Opt("-l", "long", takes=False, help="Long format."),
    Opt("-R", "res_req", metavar="res_req", help="Only hosts that satisfy the select[] of res_req."),
    Opt("-gpu", "gpu", takes=False, help="The hosts' GPUs and the jobs on each."),
    Opt("-s", "shared", takes=False, help="Shared resources: what is left, what jobs reserve, where (the arguments are resource names)."),
]
# The rest of LSF 10.1's bhosts options.  -o (and -json, its JSON form)
# names fields whose headers and widths LSF's documentation does not give
# (only their names): refused, not guessed.
UNSUPPORTED = ("-a", "-aff", "-alloc", "-cname", "-e", "-json",
               "-noheader", "-o", "-rc", "-rconly", "-x", "-X")
PARSER = Parser("bhosts", OPTIONS, args_metavar="[host_name | host_group "
                "| cluster_name] ...",
                help_text="Display information about batch hosts.",
                refused=UNSUPPORTED, empty_arg="host name",
                reasons={"-o": text("UNDOCUMENTED",
                                    what="the fields' headers and widths")},
                conflicts=[("-w", "-l"), ("-s", "-l"),
                           ("-s", "-w"), ("-s", "-R"), ("-s", "-gpu")])


def bhosts(o, names):
    if o["gpu"] and o["long"]:
        # LSF's -l -gpu adds a per-device block to the long format, whose
        # 10.1 layout xce could not confirm: refused, not guessed.
        raise NotSupported(text("OPTION_NOT_SUPPORTED", prog="bhosts",
                                option="-gpu with -l"))
    _, reader = open_state()
    if o["shared"]:
        from xce.client.cluster import shared
        print(shared.bhosts_s(shared.usage(reader.meta()), names))
        return 0
    hosts = _select(reader.hosts(), names, reader.meta().get("cluster"))
    if o["res_req"] is not None:
        from xce.client.cluster.host_select import matching
        unit = reader.params().get("LSF_UNIT_FOR_LIMITS") or "KB"
        from xce.model.resources import Catalog
        catalog = Catalog.build(_resources_section(reader))
        hosts = matching(hosts, o["res_req"], unit, catalog)
        if not hosts:
            # LSF's batch library message when no host qualifies.
            raise XceError(text("NO_ELIGIBLE_HOST"))
    if o["gpu"]:
        from xce.client.cluster import gpus
        from xce.client.claims import reserved_devices
        print(gpus.bhosts_table(hosts, gpus.usage(reader.gpu_jobs()),
                                o["wide"], reserved_devices(reader)))
        return 0
    counts = reader.host_counts()
    if o["long"]:
        from xce.client.cluster import shared
        from xce.model.resources import Catalog
        catalog, meta = Catalog.build(_resources_section(reader)), \
            reader.meta()
        print(host_layouts.long_blocks(
            hosts, counts, lambda h: shared.host_block(h, catalog, meta),
            _exit_rates(reader), _held(reader)), end="")
    else:
        print(host_layouts.short_table(hosts, counts, o["wide"]))
    return 0


def _held(reader):
    """host -> what running jobs' rusage[] holds there now."""
    import time
    from xce.client.cluster.held import host_reserved
    return host_reserved(reader, time.time())


def _exit_rates(reader):
    """host -> its job exit rate now (xce.model.exitrate)."""
    import time
    from xce.model import exitrate
    now = time.time()
    span = exitrate.window(reader.params())
    reader.with_history()       # exits older than CLEAN_PERIOD still count
    times = {}
    for row in reader.jobs("stat = 'EXIT' AND end_time >= ?", (now - span,),
                           ("exec_hosts", "end_time", "exit_reason"), True):
        host = exitrate.host_of(row["exec_hosts"])
        if host and exitrate.counts("EXIT", row["exit_reason"]):
            times.setdefault(host, []).append(row["end_time"])
    return {h: exitrate.rate(t, now, span) for h, t in times.items()}


def _resources_section(reader):
    import json
    raw = reader.meta().get("config_sections")
    return (json.loads(raw) if raw else {}).get("resources") or {}


def _select(hosts, names, cluster):
    by_name = {h["name"]: h for h in hosts}
    if names and cluster not in names and "all" not in names:
        for name in names:
            if name not in by_name:
                raise XceError(text("BAD_HOST", name))
        hosts = [by_name[n] for n in dict.fromkeys(names)]
    # LSF lists hosts sorted by name.
    return sorted(hosts, key=lambda h: h["name"])


def main(argv=None):
    run(PARSER, bhosts, argv)


if __name__ == "__main__":
    main()
