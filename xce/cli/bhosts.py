"""bhosts: show batch hosts, reading the state store directly."""

import click

from xce.cli.common import lsf_command, run
from xce.client.cluster import hosts as host_layouts
from xce.client.site import open_state
from xce.errors import XceError, text


@lsf_command(help="Display information about batch hosts.")
@click.option("-w", "wide", is_flag=True, help="Wide format: precise states, nothing truncated.")
@click.option("-l", "long", is_flag=True, help="Long format.")
@click.option("-R", "res_req", metavar="res_req", help="Only hosts that satisfy the select[] of res_req.")
@click.argument("names", nargs=-1)
def cli(wide, long, res_req, names):
    if wide and long:
        raise click.UsageError(text("WIDE_AND_LONG"))
    _, reader = open_state()
    hosts = _select(reader.hosts(), names, reader.meta().get("cluster"))
    if res_req is not None:
        from xce.client.cluster.host_select import matching
        unit = reader.params().get("LSF_UNIT_FOR_LIMITS") or "KB"
        hosts = matching(hosts, res_req, unit)
        if not hosts:
            # LSF's batch library message when no host qualifies.
            raise XceError(text("NO_ELIGIBLE_HOST"))
    counts = reader.host_counts()
    if long:
        print(host_layouts.long_blocks(hosts, counts), end="")
    else:
        print(host_layouts.short_table(hosts, counts, wide))
    return 0


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
    run(cli, "bhosts", argv)


if __name__ == "__main__":
    main()
