"""bjobs: show jobs, reading the state store directly."""

import sys

from xce.cli.lsfargs import Opt, Parser, run
from xce.client.jobs import listorder, table as jobfmt
from xce.client.jobs.query import ALL_COLUMNS, Query
from xce.client.jobs.filters import Filters
from xce.client.ids import ALL_JOBS
from xce.client.site import open_state
from xce.errbase import EXIT_FAILURE, XceError, about, text

# types.SimpleNamespace, as the types module itself defines it: importing
# types (a search of sys.path and its own classes) would cost bjobs about
# 1.7 million instructions, 5% of all it executes.
SimpleNamespace = type(sys.implementation)


OPTIONS = [
    Opt("-A", "array", takes=False, help="Job arrays: one line per array, its elements counted by state."),
    Opt("-a", "all_states", takes=False, help="All jobs, including recently finished ones."),
    Opt("-d", "done", takes=False, help="Recently finished jobs only."),
    Opt("-r", "running", takes=False, help="Running jobs only."),
    Opt("-p", "pending", takes=False, help="Pending jobs, with their pending reasons."),
    Opt("-p0", "plevel", takes=False, const=0, help="Pending jobs, classic reasons (as -p)."),
    Opt("-p1", "plevel", takes=False, const=1, help="Pending jobs, single key reason."),
    Opt("-p2", "plevel", takes=False, const=2, help="Pending jobs, candidate hosts' reasons with host counts."),
    Opt("-p3", "plevel", takes=False, const=3, help="Pending jobs, candidate and non-candidate hosts' reasons."),
    Opt("-pe", "pend_eligible", takes=False, help="Pending jobs eligible for scheduling."),
    Opt("-pi", "pend_ineligible", takes=False, help="Pending jobs ineligible for scheduling (held, dependency, inactive queue)."),
    Opt("-psum", "psum", takes=False, help="Summary of the pending reasons."),
    Opt("-UF", "unformatted", takes=False, help="Long format, one logical line per item (no wrapping)."),
    Opt("-s", "suspended", takes=False, help="Suspended jobs only."),
    Opt("-w", "wide", takes=False, help="Wide format: nothing truncated."),
    Opt("-W", "wide_usage", takes=False, help="Wide format with project, CPU, memory, PIDs, start and finish times."),
    Opt("-WL", "time_left", takes=False, help="Add the run time left (from the run limit)."),
    Opt("-WF", "finish_time", takes=False, help="Add the expected (or actual) finish time."),
    Opt("-WP", "percent", takes=False, help="Add the percentage of the run limit used."),
    Opt("-X", "uncondensed", takes=False, help="Execution hosts uncondensed, one per slot."),
    Opt("-l", "long", takes=False, help="Long format."),
    Opt("-gpu", "gpu", takes=False, help="With -l: the GPUs each job holds."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or of all users."),
    Opt("-q", "queue", metavar="queue", help="Jobs in this queue."),
    Opt("-m", "host", metavar="host|host_group", help="Jobs dispatched to this host or host group."),
    Opt("-P", "project", metavar="project", help="Jobs of this project."),
    Opt("-G", "user_group", metavar="user_group", help="Jobs submitted with bsub -G user_group."),
    Opt("-g", "job_group", metavar="job_group", help="Jobs in this job group and its subgroups."),
    Opt("-app", "app", metavar="application_profile", help="Jobs of this application profile."),
    Opt("-J", "name", metavar="name", help="Jobs with this name (* matches anything)."),
    Opt("-o", "fields", metavar="fields", help="Custom output fields."),
    Opt("-json", "as_json", takes=False, help="JSON output (with -o)."),
    Opt("-noheader", "noheader", takes=False, help="No header line."),
    Opt("-N", "normalise", metavar="host_name|host_model|cpu_factor",
        help="Long format of finished jobs (and of -p, -r, -s's), CPU "
        "times normalised to this host, model or CPU factor."),
]
# The rest of LSF 10.1's bjobs options.
UNSUPPORTED = ("-aff", "-aps", "-cname", "-data", "-env", "-fwd",
               "-hms", "-hostfile", "-Jd", "-Lp", "-pei", "-plan",
               "-prio", "-rusage", "-script", "-sla", "-ss", "-sum", "-U", "-x")
# -json without a header line is IBM's documented conflict; -o is a layout
# of its own, which LSF's bjobs does not mix with -l, -UF, -w or -W.
# -N prints the long format (as OpenLava's bjobs does).
# -A is a table of its own, shaped by -w and -noheader only; IBM's -psum
# page allows it with the filters of pending jobs only.  Each is refused
# with the rest, rather than one layout printed and the other dropped.
CONFLICTS = [("-json", "-noheader"), ("-o", "-l"), ("-o", "-UF"),
             ("-o", "-w"), ("-o", "-W")] + [("-N", flag) for flag in (
                 "-o", "-json", "-w", "-W", "-WL", "-WF", "-WP", "-A",
                 "-psum", "-noheader")] + [("-A", flag) for flag in (
                     "-l", "-UF", "-o", "-json", "-W", "-WL", "-WF", "-WP",
                     "-X", "-psum")] + [("-psum", flag) for flag in (
                         "-l", "-UF", "-o", "-json", "-w", "-W", "-WL",
                         "-WF", "-WP", "-X", "-a", "-d", "-r", "-s",
                         "-noheader", "-gpu")]
# bjobs reads its words as getopt does: single letters may be clustered
# (-aw, -aJ name), as users of LSF's bjobs type them.
PARSER = Parser("bjobs", OPTIONS, args_metavar="[jobid | \"jobid[index_list]\"] ...",
                help_text="Display information about jobs.",
                refused=UNSUPPORTED, bundle=True, conflicts=CONFLICTS,
                # "" (an unset variable's) selects nothing: refused
                empty_values=False)


def bjobs(o, ids):
    o.pending = (o.pending or o.plevel is not None or o.pend_eligible or
                 o.pend_ineligible or o.psum)
    o.long = o.long or o.unformatted or o.normalise is not None
    if o.gpu and not o.long:
        raise XceError(text("BJOBS_GPU_NEEDS_LONG"))
    if ALL_JOBS in ids:
        # Job id 0: every job the other options select, as with no id
        # (the caller's own unless -u; unfinished ones unless -a, -d).
        ids = ()
    if o.array:
        for word in ids:
            if "[" in word:
                raise XceError(text("BJOBS_A_INDEX", word=word))
    o.extra = {f for f, on in (("WL", o.time_left), ("WF", o.finish_time),
                               ("WP", o.percent)) if on}
    site, reader = open_state()
    if o.plevel is None:
        o.plevel = _default_plevel(site)
    o.consistent = str(site.setting("LSB_BJOBS_CONSISTENT_EXIT_CODE",
                                    "")).strip().upper() == "Y"
    params = reader.params()
    if o.user and o.user != "all":
        o.user = _user_or_group(reader, o.user)
    if o.queue and o.queue not in {q["name"] for q in reader.queues()}:
        raise XceError(about(o.queue, "BAD_QUEUE"))
    filters = Filters(o.host, o.project, o.user_group, o.job_group, o.app)
    filters.check(reader)
    query = _query(o, ids)
    factor = None
    if o.normalise is not None:
        from xce.client.jobs import normalize
        hosts = reader.hosts()
        models = normalize.models_of(reader.meta())
        factor = normalize.factor_of(o.normalise, hosts, models)
    where, args = _where(query, filters, params)
    if not o.fields and not (o.long or o.wide or o.pending or o.array or
                             o.wide_usage or o.extra):
        o.fields = site.setting("LSB_BJOBS_FORMAT")
    # The plain tables need a few columns; the others read whole rows.
    table = not (o.fields or o.long or o.array or o.wide_usage or o.extra)
    columns = jobfmt.LIST_COLUMNS if table else ALL_COLUMNS
    policy = _priority_policy(params)
    columns += tuple(c for c in listorder.columns(policy) if c not in columns)
    rows = query.filter_names(reader.jobs(where, args, columns,
                                          readonly=table))
    rows = listorder.ordered(
        rows, {q["name"]: q["priority"] for q in reader.queues()}, policy)
    if o.pend_eligible != o.pend_ineligible:
        from xce.client.jobs.pending import select
        rows = select(rows, bool(o.pend_eligible))
    if factor is not None:
        rows = normalize.normalised(rows, factor, hosts, models)
    missing = _missing_ids(query, rows)
    if not o.as_json:
        for label in missing:
            print(f"Job <{label}> is not found", file=sys.stderr)
    if o.as_json and not o.fields:
        raise XceError(text("JSON_WITHOUT_FORMAT"))
    if o.fields:
        from xce.client.jobs.format import format_fields
        out = format_fields(rows, o.fields, o.as_json, o.noheader, reader,
                            params, missing=missing)
        if out:
            print(out)
        if not rows and not missing and not o.as_json:
            print(_nothing_found(o, query, filters), file=sys.stderr)
        return _exit(o, query, rows, missing)
    if not rows:
        if not missing:
            print(_nothing_found(o, query, filters), file=sys.stderr)
        return _exit(o, query, rows, missing)
    return _show(o, rows, reader, params, site, query, missing)


def _priority_policy(params):
    """The userprio.Policy ordering pending jobs by -sp, or None."""
    if params.get("MAX_USER_PRIORITY") in (None, ""):
        return None
    from xce.model import userprio
    return userprio.policy(params)


def _show(o, rows, reader, params, site, query, missing):
    """Print *rows* in the layout the options chose."""
    if o.long:
        from xce.client.jobs.long import long_format
        text = long_format(rows, reader, params, gpu=o.gpu)
        if o.unformatted:
            from xce.client.text.wrap import unwrap
            text = unwrap(text)
        print(text)
    elif o.array:
        return _print_arrays(o, rows, reader, query)
    elif o.psum:
        from xce.client.jobs.pending import summary
        print(summary(rows, reader.meta().get("cluster", "")))
    elif o.pending:
        _print_pending(rows, o.wide, o.noheader, o.plevel, reader)
    else:
        _print_list(o, rows, reader, site)
    return _exit(o, query, rows, missing)


def _print_list(o, rows, reader, site):
    """The default, -w and -W tables, with the -WL/-WF/-WP columns."""
    if site.setting("LSB_SHORT_HOSTLIST") == "1" and not o.uncondensed:
        from xce.client.jobs.wide import condensed
        rows = [condensed(r) for r in rows]
    if o.wide_usage or o.extra:
        from xce.client.jobs import wide as jobwide
        header = jobwide.W_HEADER if o.wide_usage else jobfmt.HEADER
        lines = [] if o.noheader else [header +
                                       jobwide.extra_header(o.extra)]
        for job in jobwide.jobs(rows, reader):
            first, *rest = (jobwide.w_line(job) if o.wide_usage else
                            jobfmt.default_line(job.row, o.wide)).split("\n")
            lines.append(first + jobwide.extra_values(job, o.extra))
            lines += rest + _why_suspended(o, job.row)
        print("\n".join(lines))
        return
    if not o.noheader:
        print(jobfmt.HEADER)
    print("\n".join("\n".join([jobfmt.default_line(r, o.wide)] +
                              _why_suspended(o, r)) for r in rows))


def _why_suspended(o, row):
    """bjobs -s: under each job its suspending reasons (a job held while
    pending: its pending reason), as LSF prints them."""
    if not o.suspended:
        return []
    if row["stat"] == "PSUSP":
        return jobfmt.pend_reasons(row)
    from xce.client.jobs.long import suspend_reasons
    return suspend_reasons(dict(row))


def _print_arrays(o, rows, reader, query):
    from xce.client.jobs import arrays as jobarray
    for label, jobid, _ in query.ids:
        if any(r["jobid"] == jobid and not jobarray.is_element(r)
               for r in rows):
            print(f"Job <{label}> is not a job array", file=sys.stderr)
    summaries = jobarray.arrays(rows, reader)
    if summaries:
        print(jobarray.table(summaries, o.wide, o.noheader))
    elif not query.ids:
        print(_nothing_found(o, query, None), file=sys.stderr)
    return 0 if summaries else EXIT_FAILURE if query.ids else 0


def _where(query, filters, params):
    """The SQL selection: states, user, queue, ids, and the filters."""
    where, args = query.where(params)
    if not filters:
        return where, args
    extra, extra_args = filters.sql()
    return (f"{where} AND {extra}" if where else extra), args + extra_args


def _user_or_group(reader, name):
    """-u: a user, or a user group of lsb.users: its members, expanded.
    A name that is neither (nor owns a job) is an unknown user."""
    from xce.client.site import sections
    from xce.client.cluster.users import check_user, expand
    groups = sections(reader)["user_groups"]
    if name not in groups:
        check_user(reader, name, has_jobs=True)
        return name
    return tuple(expand(groups, name))


def _query(o, ids):
    states = None
    if o.running:
        states = ("RUN",)
    elif o.pending:
        states = ("PEND", "PSUSP")
    elif o.suspended:
        states = ("PSUSP", "USUSP", "SSUSP")
    if o.normalise is not None:
        # LSF: -N shows finished jobs; with -p, -r or -s those too.
        return Query(states=states and states + ("DONE", "EXIT"),
                     user=o.user, queue=o.queue, name=o.name, ids=ids,
                     finished=True, unfinished=bool(states) or
                     o.all_states)
    return Query(states=states, user=o.user, queue=o.queue, name=o.name,
                 ids=ids, finished=o.all_states or o.done,
                 unfinished=not o.done)


def _default_plevel(site):
    """bjobs -p without a level: LSB_BJOBS_PENDREASON_LEVEL's (0 is -p's
    classic reasons)."""
    value = str(site.setting("LSB_BJOBS_PENDREASON_LEVEL", "")).strip()
    return int(value) if value in ("1", "2", "3") else None


def _print_pending(rows, wide, noheader, level=None, reader=None):
    if not noheader:
        print(jobfmt.PEND_HEADER)
    n_hosts = len(reader.hosts()) if level in (2, 3) else 0
    for row in rows:
        print(jobfmt.pend_line(row, wide))
        if level is None:
            print("\n".join(jobfmt.pend_reasons(row)))
        else:
            from xce.client.jobs.pend_levels import reason_lines
            print("\n".join(reason_lines(row, level, n_hosts)))
        print()


def _nothing_found(o, query, filters):
    """LSF's bjobs message (its jobInfoErr) when nothing matches: a -J
    name is named, else the states looked at."""
    if query.name:
        msg = (f"Job array <{query.name}> is not found" if o.array else
               f"Job <{query.name}> is not found")
    elif o.done:
        msg = "No DONE/EXIT job found"
    elif o.pending:
        msg = "No pending job found"
    elif o.running:
        msg = "No running job found"
    elif o.suspended:
        msg = "No suspended job found"
    elif o.all_states:
        msg = "No job found"
    else:
        msg = "No unfinished job found"
    if o.queue:
        msg += f" in queue <{o.queue}>"
    return msg + (filters.suffix() if filters else "")


def _missing_ids(query, rows):
    if not query.ids:
        return []
    found = {(r["jobid"], r["idx"]) for r in rows} | \
        {(r["jobid"], None) for r in rows}
    return [label for label, jobid, idx in query.ids
            if (jobid, idx) not in found]


def _exit(o, query, rows, missing):
    # LSF exits 255 only when every requested job id is unknown; with
    # LSB_BJOBS_CONSISTENT_EXIT_CODE=Y it exits 0 only when it found an
    # unfinished job, and 255 too when any requested id is unknown: jobs
    # shown that are all finished (a finished job's id, -d) give 255.
    if o.consistent:
        from xce.model.states import FINISHED
        if missing or all(r["stat"] in FINISHED for r in rows):
            return EXIT_FAILURE
    if query.ids and len(missing) == len(query.ids):
        return EXIT_FAILURE
    return 0


def main(argv=None):
    run(PARSER, lambda values, ids: bjobs(SimpleNamespace(**values),
                                          tuple(ids)), argv)


if __name__ == "__main__":
    main()
