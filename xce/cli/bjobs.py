"""bjobs: show jobs, reading the state store directly."""

import sys

from xce.cli.lsfargs import Opt, Parser, run
from xce.client import jobfmt
from xce.client.jobquery import Query
from xce.envdir import Site
from xce.errors import EXIT_FAILURE, XceError
from xce.store.reader import Reader
from xce.store.schema import JOB_COLUMNS


OPTIONS = [
    Opt("-a", "all_states", takes=False, help="All jobs, including recently finished ones."),
    Opt("-d", "done", takes=False, help="Recently finished jobs only."),
    Opt("-r", "running", takes=False, help="Running jobs only."),
    Opt("-p", "pending", takes=False, help="Pending jobs, with their pending reasons."),
    Opt("-p0", "plevel", takes=False, const=0, help="Pending jobs, classic reasons (as -p)."),
    Opt("-p1", "plevel", takes=False, const=1, help="Pending jobs, single key reason."),
    Opt("-p2", "plevel", takes=False, const=2, help="Pending jobs, categorized reasons with host counts."),
    Opt("-p3", "plevel", takes=False, const=3, help="Pending jobs, categorized reasons with host names."),
    Opt("-UF", "unformatted", takes=False, help="Long format, one logical line per item (no wrapping)."),
    Opt("-s", "suspended", takes=False, help="Suspended jobs only."),
    Opt("-w", "wide", takes=False, help="Wide format: nothing truncated."),
    Opt("-l", "long", takes=False, help="Long format."),
    Opt("-u", "user", metavar="user|all", help="Jobs of this user, or of all users."),
    Opt("-q", "queue", metavar="queue", help="Jobs in this queue."),
    Opt("-J", "name", metavar="name", help="Jobs with this name (* matches anything)."),
    Opt("-o", "fields", metavar="fields", help="Custom output fields."),
    Opt("-json", "as_json", takes=False, help="JSON output (with -o)."),
    Opt("-noheader", "noheader", takes=False, help="No header line."),
]
PARSER = Parser("bjobs", OPTIONS, args_metavar="[jobid | \"jobid[index]\"] ...",
                help_text="Display information about jobs.")


def bjobs(all_states, done, running, pending, plevel, unformatted, suspended,
          wide, long, user, queue, name, fields, as_json, noheader, ids):
    pending = pending or plevel is not None
    long = long or unformatted
    site = Site()
    reader = Reader(site.store_path)
    params = reader.params()
    if queue and queue not in {q["name"] for q in reader.queues()}:
        raise XceError(f"{queue}: No such queue")
    query = _query(all_states, done, running, pending, suspended, user,
                   queue, name, ids)
    where, args = query.where(params)
    if not fields and not (long or wide or pending):
        fields = site.setting("LSB_BJOBS_FORMAT")
    # The table layouts need a few columns; -l and -o read whole rows.
    table = not (fields or long)
    columns = jobfmt.LIST_COLUMNS if table else JOB_COLUMNS
    rows = query.filter_names(reader.jobs(where, args, columns,
                                          readonly=table))
    missing = _missing_ids(query, rows)
    if not as_json:
        for label in missing:
            print(f"Job <{label}> is not found", file=sys.stderr)
    if as_json and not fields:
        raise XceError("bjobs: -json must be used with -o")
    if fields:
        from xce.client.jobfields import format_fields
        out = format_fields(rows, fields, as_json, noheader, reader, params,
                            missing=missing)
        if out:
            print(out)
        if not rows and not missing and not as_json:
            print(_nothing_found(query, all_states, done, running, pending,
                                 suspended, queue), file=sys.stderr)
        return _exit(query, rows, missing)
    if not rows:
        if not missing:
            print(_nothing_found(query, all_states, done, running, pending,
                                 suspended, queue), file=sys.stderr)
        return _exit(query, rows, missing)
    if long:
        from xce.client.joblong import long_format
        text = long_format(rows, reader, params)
        if unformatted:
            from xce.client.joblong_wrap import unwrap
            text = unwrap(text)
        print(text)
    elif pending:
        _print_pending(rows, wide, noheader, plevel, reader)
    else:
        if not noheader:
            print(jobfmt.HEADER)
        print("\n".join(jobfmt.default_line(r, wide) for r in rows))
    return _exit(query, rows, missing)


def _query(all_states, done, running, pending, suspended, user, queue, name,
           ids):
    states = None
    if running:
        states = ("RUN",)
    elif pending:
        states = ("PEND", "PSUSP")
    elif suspended:
        states = ("PSUSP", "USUSP", "SSUSP")
    return Query(states=states, user=user, queue=queue, name=name, ids=ids,
                 finished=all_states or done, unfinished=not done)


def _print_pending(rows, wide, noheader, level=None, reader=None):
    if not noheader:
        print(jobfmt.PEND_HEADER)
    n_hosts = len(reader.hosts()) if level in (2, 3) else 0
    for row in rows:
        print(jobfmt.pend_line(row, wide))
        if level is None:
            print("\n".join(jobfmt.pend_reasons(row)))
        else:
            from xce.client.pendlevels import reason_lines
            print("\n".join(reason_lines(row, level, n_hosts)))
        print()


def _nothing_found(query, all_states, done, running, pending, suspended,
                   queue):
    if done:
        msg = "No DONE/EXIT job found"
    elif pending:
        msg = "No pending job found"
    elif running:
        msg = "No running job found"
    elif suspended:
        msg = "No suspended job found"
    elif all_states or query.name:
        msg = "No job found"
    else:
        msg = "No unfinished job found"
    if queue:
        msg += f" in queue <{queue}>"
    return msg


def _missing_ids(query, rows):
    if not query.ids:
        return []
    found = {(r["jobid"], r["idx"]) for r in rows} | \
        {(r["jobid"], None) for r in rows}
    return [label for label, jobid, idx in query.ids
            if (jobid, idx) not in found]


def _exit(query, rows, missing):
    # LSF exits 255 only when every requested job id is unknown.
    if query.ids and len(missing) == len(query.ids):
        return EXIT_FAILURE
    return 0


def main(argv=None):
    run(PARSER, lambda values, ids: bjobs(**values, ids=tuple(ids)), argv)


if __name__ == "__main__":
    main()
