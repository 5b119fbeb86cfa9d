"""Migrate an LSF configuration directory to xce.yaml in one step.

``migrate(source, target, check)`` finds lsf.conf, lsf.shared,
lsf.cluster.<name> and the lsb.* files (IBM layout or one flat directory),
reads them with xce.config.lsf, builds the xce.yaml tree, and, unless
*check*, writes xce.yaml with the LSF-shaped view (lsf.conf, lsb.params)
next to it.  Odd input becomes warnings in the report; unreadable input
raises MigrateError and nothing is written.
"""

import os
from dataclasses import dataclass, field

from xce.config import keys, lsfview
from xce.config.lsf import (cells, discover, files, settle, stripdomain,
                             timebased, yamlout)
from xce.config.lsf import convert_batch as batch
from xce.config.lsf import convert_hosts as hosts
from xce.config.lsf.build import Migration
from xce.config.lsf.diag import Diagnostics, Origin
from xce.lang import preempt

YAML_NAME = "xce.yaml"
DEFAULT_CLUSTER = "xce"


class MigrateError(Exception):
    """Migration impossible; the message has one line per problem."""


@dataclass
class Result:
    source: str
    cluster: str = DEFAULT_CLUSTER
    migration: Migration = None
    diags: Diagnostics = field(default_factory=Diagnostics)
    files_read: list = field(default_factory=list)
    files_missing: list = field(default_factory=list)
    yaml_text: str = ""
    written: list = field(default_factory=list)

    @property
    def tree(self):
        return self.migration.ordered_tree()


def migrate(source, target=None, check=False):
    """Run the migration; returns a Result (see report.render)."""
    _check_dirs(source, target, check)
    result = Result(str(source))
    lsf = _read_all(result, str(source))
    if result.diags.errors:
        raise MigrateError("\n".join(str(d) for d in result.diags.errors))
    if not result.files_read:
        raise MigrateError(f"{source}: no LSF configuration files (lsf.conf,"
                           " lsf.shared, lsf.cluster.<name>, lsb.*) found")
    result.migration = _convert(result, lsf)
    try:
        # What the controller would refuse is left out and reported.
        result.yaml_text = settle.settle(result.migration,
                                         lambda: render_yaml(result))
    except settle.Unsettled as e:
        raise MigrateError(f"the migrated configuration does not load: {e}")
    _warn_unknown_names(result.migration)
    if not check:
        result.written = _write(result, str(target))
    return result


def _warn_unknown_names(mig):
    """Names a queue or limit gives that nothing defines: warned about as
    LSF (and badmin ckconfig) does, carried as written."""
    from xce.config import unknownnames
    for path, message in unknownnames.notices(mig.tree):
        origin = mig.origins.get(path)
        if origin is not None:
            mig.warn(origin, message)


def _check_dirs(source, target, check):
    if not os.path.exists(source):
        raise MigrateError(f"{source}: No such file or directory")
    if not os.path.isdir(source):
        raise MigrateError(f"{source}: Not a directory")
    if check:
        return
    if not target:
        raise MigrateError("--to: an xce environment directory is required "
                           "unless --check is given")
    if os.path.exists(target) and not os.path.isdir(target):
        raise MigrateError(f"{target}: Not a directory")
    if os.path.realpath(target) == os.path.realpath(source):
        raise MigrateError(f"{target}: is the LSF directory itself; writing "
                           "lsf.conf there would overwrite the source")


# -- reading ---------------------------------------------------
def _read_all(result, root):
    """Read every LSF file found under *root*; returns kind -> LsfFile."""
    diags, lsf = result.diags, {}

    def read(kind, dirs, name=None):
        path = discover.find_file(dirs, name or kind)
        if path is None:
            result.files_missing.append(name or kind)
            return None
        parsed = files.read_file(kind, path, diags, root)
        if parsed is not None:
            result.files_read.append(parsed.display)
            lsf[kind] = parsed
        return parsed

    conf_file = read("lsf.conf", [root])
    conf = {k: i.value for k, i in conf_file.sections[0].items.items()} \
        if conf_file else {}
    conf_dirs = discover.config_dirs(root, conf)
    shared = read("lsf.shared", conf_dirs)
    name, origin, cluster_path = _pick_cluster(result, root, conf_dirs,
                                               shared)
    result.cluster, lsf["_cluster_origin"] = name, origin
    if cluster_path is None:
        result.files_missing.append("lsf.cluster.<name>")
    else:
        parsed = files.read_file("lsf.cluster", cluster_path, diags, root)
        if parsed is not None:
            result.files_read.append(parsed.display)
            lsf["lsf.cluster"] = parsed
    batch_dirs = discover.batch_dirs(root, conf, name)
    for kind in discover.BATCH_FILES:
        read(kind, batch_dirs)
    return lsf


def _pick_cluster(result, root, conf_dirs, shared):
    """(cluster name, its Origin, path of lsf.cluster.<name> or None)."""
    candidates = discover.cluster_files(conf_dirs)
    shared_names = hosts.cluster_names(shared)
    for name, origin in shared_names:
        for path, file_name in candidates:
            if file_name == name:
                return name, origin, path
    path, file_name = discover.pick_cluster_file(candidates, None)
    if len(candidates) > 1:
        shown = ", ".join(os.path.basename(p) for p, _ in candidates)
        result.diags.warn(os.path.basename(path), 0, f"several cluster "
                          f"files ({shown}); read the first")
    usable = [(n, o) for n, o in shared_names
              if not cells.looks_like_placeholder(n)]
    if file_name and not cells.looks_like_placeholder(file_name):
        return file_name, Origin(_display(path, root), 0), path
    if usable:
        return usable[0][0], usable[0][1], path
    where = shared_names[0][1] if shared_names else Origin(
        shared.display if shared else "lsf.shared", 0)
    result.diags.warn(where.path, where.line, "no cluster name (lsf.shared "
                      "and lsf.cluster.<name> are missing or hold only "
                      f"placeholders); using {DEFAULT_CLUSTER}")
    return DEFAULT_CLUSTER, None, path


def _display(path, root):
    rel = os.path.relpath(path, root)
    return path if rel.startswith("..") else rel


# -- converting ---------------------------------------------------
def _convert(result, lsf):
    mig = Migration(result.diags)
    mig.cluster_name = result.cluster
    hosts.convert_cluster(mig, result.cluster, lsf.get("_cluster_origin"),
                          lsf.get("lsf.cluster"))
    batch.convert_params(mig, lsf.get("lsb.params"))
    hosts.convert_lsf_conf(mig, lsf.get("lsf.conf"))
    hosts.convert_cluster_hosts(mig, lsf.get("lsf.cluster"))
    hosts.convert_batch_hosts(mig, lsf.get("lsb.hosts"), lsf.get("lsf.shared"),
                              lsf.get("lsf.conf"))
    hosts.check_host_groups(mig)
    # A queue's PRIORITY or job-slot limits in #if time() branches.
    timebased.fold(lsf.get("lsb.queues"))
    batch.convert_queues(mig, lsf.get("lsb.queues"))
    _ensure_a_queue(mig)
    _check_default_queue(mig)
    _check_preemption(mig)
    batch.convert_users(mig, lsf.get("lsb.users"))
    # A Limit's SLOTS, JOBS or MEM in #if time() branches: time-based too.
    timebased.fold(lsf.get("lsb.resources"))
    # Profiles first: a limit's APPS must name profiles carried.
    batch.convert_applications(mig, lsf.get("lsb.applications"))
    hosts.convert_shared(mig, lsf.get("lsf.shared"), result.cluster)
    hosts.convert_resource_map(mig, lsf.get("lsf.cluster"))
    # Resources first: a limit's RESOURCE must name a numeric one.
    batch.convert_limits(mig, lsf.get("lsb.resources"))
    batch.convert_modules(mig, lsf.get("lsb.modules"))
    stripdomain.apply(mig, lsf.get("lsf.conf"))
    for kind in discover.BATCH_FILES:
        timebased.report(mig, lsf.get(kind))
    return mig


def _ensure_a_queue(mig):
    """No queue configured: LSF runs jobs in a queue named ``default``."""
    if mig.tree.get("queues"):
        return
    mig.set(("queues", "default"), {})
    mig.note(keys.ENFORCED, None, "queue default",
             "no queue in the LSF files; LSF then uses a queue named "
             "default with default settings")


def _check_default_queue(mig):
    """DEFAULT_QUEUE keeps only queues that exist, as mbatchd does."""
    params = mig.tree.get("parameters", {})
    wanted = params.get("DEFAULT_QUEUE")
    if wanted is None:
        return
    origin = mig.origins.get(("parameters", "DEFAULT_QUEUE"))
    names = wanted if isinstance(wanted, list) else [wanted]
    kept = [n for n in names if str(n) in mig.tree["queues"]]
    for name in names:
        if name not in kept:
            mig.warn(origin, f"DEFAULT_QUEUE names {name}, which is not a "
                     "queue; left out")
    if not kept:
        del params["DEFAULT_QUEUE"]
        mig.entries = [e for e in mig.entries
                       if not e.label.startswith("parameters DEFAULT_QUEUE")]
        written = " ".join(map(str, names))
        mig.drop(origin, f"parameters DEFAULT_QUEUE = {written}",
                 "names no configured queue")
    else:
        params["DEFAULT_QUEUE"] = kept if len(kept) > 1 else kept[0]


def _check_preemption(mig):
    """PREEMPTION keeps only queues that exist (mbatchd ignores the others
    with a warning); with none left the key is not carried."""
    queues = mig.tree.get("queues", {})
    for name, props in queues.items():
        text = (props or {}).get("PREEMPTION")
        if not text:
            continue
        spec = preempt.parse(text)     # readable: checked when carried
        missing = [n for n in spec.names() if n not in queues]
        if not missing:
            continue
        origin = mig.origins.get(("queues", name, "PREEMPTION"))
        for other in missing:
            mig.warn(origin, f"queue {name} PREEMPTION names {other}, which "
                     "is not a queue; left out")
        kept = preempt.only_queues(spec, queues)
        if kept is None:
            del props["PREEMPTION"]
            mig.entries = [e for e in mig.entries if not e.label.startswith(
                f"queue {name} PREEMPTION")]
            mig.drop(origin, f"queue {name} PREEMPTION = {text}",
                     "names no configured queue")
        else:
            props["PREEMPTION"] = kept


# -- writing ---------------------------------------------------
def render_yaml(result):
    mig = result.migration
    statuses = mig.statuses

    def comment_for(path):
        origin = mig.origins.get(path)
        if origin is None or isinstance(path[-1], int) and len(path) > 2:
            return ""
        note = {keys.ACCEPTED: ", not enforced yet",
                keys.NOT_NEEDED: ", not needed in xce"}.get(
                    statuses.get(path), "")
        return f"{origin}{note}"

    header = [f"xce configuration migrated from LSF by xce-migrate "
              f"(cluster {result.cluster}).",
              "Comments name the LSF file and line each value came from.",
              "Read: " + ", ".join(result.files_read) + ".",
              "UPPER-case keys are LSF's own names; lower-case keys are "
              "xce's.  See xce.yaml(5)."]
    text = yamlout.dump(mig.ordered_tree(), comment_for, header)
    return text + _comment_block(
        mig, keys.NOT_NEEDED, "Not needed in xce (recorded, no value "
        "written):", lambda e: e.path is None) + _comment_block(
        mig, keys.NOT_CARRIED, "Not carried over from the LSF files:")


def _comment_block(mig, status, heading, chosen=lambda entry: True):
    """The report lines of *status* as a comment: what the site set that
    xce.yaml holds no value for, and why."""
    entries = [e for e in mig.entries if e.status == status and chosen(e)]
    if not entries:
        return ""
    lines = ["", f"# {heading}"]
    for entry in entries:
        lines.append(f"#   {entry.origin or '-'}: {entry.label}: "
                     f"{entry.why}")
    return "\n".join(lines) + "\n"


def _write(result, target):
    os.makedirs(target, exist_ok=True)
    yaml_path = os.path.join(target, YAML_NAME)
    if os.path.exists(yaml_path):
        # Keep an administrator's earlier file rather than lose it.
        os.replace(yaml_path, yaml_path + ".bak")
    lsfview.write_atomic(yaml_path, result.yaml_text)
    spool_dir = os.path.normpath(os.path.join(os.path.abspath(target),
                                              hosts.SPOOL))
    written = [YAML_NAME]
    written += lsfview.write_lsf_view(target, result.tree, spool_dir)
    return written
