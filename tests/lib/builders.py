"""Builders for unit tests: the pure scheduler's snapshot (hosts, queues,
pending jobs) and one pass over it, the job rows the store and the
controller keep, and a site: loaded from xce.yaml text, or migrated from
LSF configuration files; for the controller driven in process, the text
of its site (site_yaml), an agent's hello and a submission as bsub writes
it.

Defaults are the plainest case (queue "normal", a host that is ok and
idle, user "u" in a snapshot and "alice" in a row); a test names only what
it is about."""

import json

from xce.agent.protocol import VERSION
from xce.config.load import load
from xce.config.migrate import migrate
from xce.lang import resreq
from xce.scheduler.core import HostView, PendingJob, QueueView, schedule
from xce.store import schema

NORMAL = "normal"


def host(name, slots, used=0, status="ok", **resources):
    """A host of `slots` slots, `used` of them taken.  What select[] and
    order[] read: its name, type X86_64, one CPU per slot, the slots left,
    and `resources` (maxmem also gives the memory the host can reserve)."""
    res = {"hname": name, "type": "X86_64", "ncpus": slots,
           "maxslots": slots, "slots": slots - used, **resources}
    return HostView(name, status, slots, used, resources=res,
                    mem_total=res.get("maxmem"))


def pending(n, lo=1, hi=None, rr=None, queue=NORMAL, user="u", idx=0,
            seq=None, **fields):
    """Pending job n (element idx) asking -n lo[,hi]; rr is -R text (or an
    already parsed requirement); seq, its place in submission order, is n
    unless given; fields are any other PendingJob field."""
    rr = resreq.parse(rr) if isinstance(rr, str) else rr
    return PendingJob((n, idx), queue, user, lo, n if seq is None else seq,
                      max_slots=hi, resreq=rr, **fields)


def one_pass(hosts, jobs, queues=None, **options):
    """One scheduling pass; one queue "normal" unless queues are given."""
    return schedule(queues or [QueueView(NORMAL, 30)], hosts, jobs,
                    **options)


def job_row(jobid, stat="PEND", **fields):
    """A job as the store keeps it (every column, None when not given)."""
    row = dict.fromkeys(schema.JOB_COLUMNS)
    row.update(jobid=jobid, idx=0, stat=stat, user="alice", queue=NORMAL,
               seq=jobid, spec={"command": "true"})
    row.update(fields)
    return row


def site(directory, yaml_text):
    """The configuration loaded from `yaml_text` written as xce.yaml in
    `directory` (made if missing)."""
    directory.mkdir(exist_ok=True)
    (directory / "xce.yaml").write_text(yaml_text)
    return load(directory)


def site_yaml(name, hosts, queues=None, params=None, resources=None,
              limits=()):
    """xce.yaml text of a site run in process: cluster `name`, root its
    administrator, the spool beside the configuration's directory, and
    queue normal (PRIORITY 30) the default.  hosts, queues and resources
    are {name: {key: value}}; queues are added to normal (or replace
    it); params are {key: value} beside DEFAULT_QUEUE; limits are the
    lsb.resources Limit sections, each {key: value}."""
    sections = {
        "cluster": {"name": name, "admins": ["root"], "spool": "../spool"},
        "parameters": {"DEFAULT_QUEUE": NORMAL, **(params or {})},
        "hosts": hosts,
        "queues": {NORMAL: {"PRIORITY": 30}, **(queues or {})},
        "resources": resources or {}}
    lines = []
    for section, members in sections.items():
        if members:
            lines.append(f"{section}:")
            lines += _yaml_members(members, "  ")
    if limits:
        lines.append("limits:")
        for limit in limits:
            first, *rest = _yaml_members(limit, "    ")
            lines += ["  - " + first.lstrip()] + rest
    return "\n".join(lines) + "\n"


def _yaml_members(members, indent):
    """Block YAML of a mapping one or two levels deep; each value in
    flow style (JSON is YAML)."""
    lines = []
    for key, value in members.items():
        if isinstance(value, dict) and indent == "  ":
            lines.append(f"{indent}{key}:" + ("" if value else " {}"))
            lines += _yaml_members(value, indent + "  ")
        else:
            lines.append(f"{indent}{key}: {json.dumps(value)}")
    return lines


def hello(host, ncpus=4, maxmem=4096, jobs=()):
    """The agent's first message from `host`: its facts and the jobs it
    still runs."""
    return {"op": "hello", "v": VERSION, "host": host, "jobs": list(jobs),
            "facts": {"ncpus": ncpus, "maxmem": maxmem, "type": "X86_64"}}


def submission(command="true", **fields):
    """A job's spec as bsub writes it into a submit request (the parts the
    controller reads), one slot in the default queue, from host h1;
    fields replace or add any of them."""
    return {"command": command, "name": None, "queue": None,
            "nslots": [1, 1], "stdout": None, "stderr": None,
            "cwd": "/tmp", "subcwd": "/tmp", "resreq": [], "depend": None,
            "env": {}, "from_host": "h1", "project": "default", **fields}


def migrated_site(directory, files):
    """Migrate the LSF files given (name -> text), written under
    directory/lsf, to directory/etc; the migration's result."""
    source = directory / "lsf"
    source.mkdir()
    for name, text in files.items():
        (source / name).write_text(text)
    return migrate(str(source), str(directory / "etc"))
