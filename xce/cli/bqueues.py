"""bqueues: show queues, reading the state store directly."""

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.cluster import queues as queue_layouts
from xce.client.site import open_state
from xce.errors import XceError, text

OPTIONS = [
    Opt("-w", "wide", takes=False, help="Wide format: nothing truncated."),
    Opt("-l", "long", takes=False, help="Long format."),
    Opt("-r", "recursive", takes=False,
        help="Long format, with every level of a fairshare queue's share "
             "tree."),
    Opt("-m", "host", metavar="host_name", help="Queues that can use this host."),
    Opt("-u", "user", metavar="user_name", help="Queues this user can use."),
]
# The rest of LSF 10.1's bqueues options.  -o (and -json, its JSON form)
# names fields whose headers and widths LSF's documentation does not give
# (only their names): refused, not guessed.
UNSUPPORTED = ("-alloc", "-cname", "-json", "-noheader", "-o")
PARSER = Parser("bqueues", OPTIONS, args_metavar="[queue_name ...]",
                help_text="Display information about queues.",
                refused=UNSUPPORTED, empty_arg="queue name",
                reasons={"-o": text("UNDOCUMENTED",
                                    what="the fields' headers and widths")},
                conflicts=[("-w", "-l"), ("-w", "-r")])


def bqueues(o, names):
    names = tuple(names)
    _, reader = open_state()
    every = reader.queues()
    queues = _select(reader, every, names, o["host"], o["user"])
    o["long"] = o["long"] or o["recursive"]
    counts = queue_layouts.slot_counts(reader.job_counts())
    if o["long"]:
        queue_layouts.add_reserved(counts, reader.reservations())
        queue_layouts.add_reserve_time(queues, reader.params())
    if o["long"]:
        from xce.client.cluster.shares import share_lines
        params = reader.params()
        print(queue_layouts.long_blocks(
            queues, counts,
            lambda q: share_lines(reader, q["name"], q["conf"], params,
                                  recursive=o["recursive"]),
            queue_layouts.default_count(every),
            params.get("LSF_UNIT_FOR_LIMITS") or "KB"), end="")
    else:
        print(queue_layouts.short_table(queues, counts, o["wide"]))
    return 0


def _known_hosts(reader, name):
    """-m: a host, a host group (its members) or the cluster; anything
    else is LSF's "Bad host name, host group name or cluster name"."""
    from xce.client.cluster.users import expand
    from xce.client.site import sections
    from xce.client.jobs.filters import hosts_of
    return hosts_of(name, reader, sections(reader)["host_groups"], expand)


def _select(reader, queues, names, host, user):
    by_name = {q["name"]: q for q in queues}
    if names and names != ("default",):
        for name in names:
            if name not in by_name:
                raise XceError(text("BAD_QUEUE", name))
        queues = [by_name[n] for n in dict.fromkeys(names)]
    elif names:
        queues = [q for q in queues if q["conf"].get("default")]
    if host:
        usable = _known_hosts(reader, host)
        queues = [q for q in queues if not q["conf"].get("hosts")
                  or usable & set(q["conf"]["hosts"])]
    if user and user != "all":
        from xce.client.cluster.users import check_user
        check_user(reader, user)
        queues = [q for q in queues if _takes(q["conf"], user)]
    if not queues:
        raise XceError(text("BAD_QUEUE"))
    return queues


def _takes(conf, user):
    """Does the queue take jobs of *user* (its USERS, ~exclusions
    included, as the controller's check at submission)?"""
    if user in (conf.get("users_excluded") or ()):
        return False
    users = conf.get("users")
    return not users or user in users or "all" in users


def main(argv=None):
    run(PARSER, bqueues, argv)


if __name__ == "__main__":
    main()
