"""lsf.conf, lsf.shared, lsf.cluster.<name> and lsb.hosts -> xce.yaml.

Fills ``cluster``, the lsf.conf part of ``parameters``, ``hosts``,
``host_groups``, ``resources``, ``host_types`` and ``host_models``.
"""

from xce.config import keys
from xce.config.lsf import cells, hostnames, hostrows, stripdomain
from xce.config.lsf.build import convert
from xce.config.lsf.convert_batch import carry_checked, value_problem
from xce.config.lsf.diag import Origin
from xce.lang import loadthresh, units

# The spool of a migrated site, relative to its xce.yaml.
SPOOL = "spool"
# The xce name of each lsf.cluster Host column carried.
_CLUSTER_HOST_NAMES = {"model": "model", "type": "type", "server": "server",
                       "RESOURCES": "resources"}


def convert_lsf_conf(mig, conf_file):
    """lsf.conf keys that matter go to parameters; the rest are reported."""
    conf = conf_file.sections[0] if conf_file else None
    items = conf.items if conf else {}
    for name, item in items.items():
        mig.carry("lsf.conf", ("parameters",), name, item.value, item.origin,
                  "lsf.conf")
    unit = mig.tree.get("parameters", {}).get("LSF_UNIT_FOR_LIMITS")
    if unit is None:
        # Write LSF's default out so that xce and tools agree on it.
        mig.set(("parameters", "LSF_UNIT_FOR_LIMITS"), units.DEFAULT_UNIT,
                None, keys.ENFORCED)
        mig.note(keys.ENFORCED, None, "parameters LSF_UNIT_FOR_LIMITS = KB",
                 "LSF's default; lsf.conf does not set it")
        return
    try:
        mig.tree["parameters"]["LSF_UNIT_FOR_LIMITS"] = units.normal_unit(
            str(unit))
    except ValueError as exc:
        mig.warn(items["LSF_UNIT_FOR_LIMITS"].origin, str(exc))


def cluster_names(shared):
    """[(name, Origin)] of the Cluster section of lsf.shared."""
    section = shared.first("cluster") if shared else None
    names = []
    for row in section.rows if section else ():
        name = row.get("ClusterName")
        if name:
            names.append((name, row.origin))
    return names


def convert_cluster(mig, name, name_origin, cluster_file):
    """cluster: name, admins, spool."""
    mig.set(("cluster", "name"), name, name_origin, keys.ENFORCED)
    admins = cluster_file.first("clusteradmins") if cluster_file else None
    item = None
    if admins is not None:
        item = admins.items.get("ADMINISTRATORS") or admins.items.get(
            "MANAGER")
    status = keys.lookup("cluster", "ADMINISTRATORS").status
    if item is not None:
        members = cells.split_list(item.value)
        mig.set(("cluster", "admins"), members, item.origin, status)
        mig.note(status, item.origin, f"cluster admins = {' '.join(members)}")
        if cells.looks_like_placeholder(item.value):
            mig.warn(item.origin, f"Administrators = {item.value} looks "
                     "like an install-time placeholder; carried as written")
    else:
        mig.set(("cluster", "admins"), ["root"], None)
        mig.note(status, None, "cluster admins = root",
                 "no ClusterAdmins found; xce's default")
    # Inside the new envdir: two sites migrated side by side never share it.
    mig.set(("cluster", "spool"), SPOOL, None)
    for section in cluster_file.all("parameters") if cluster_file else ():
        for name, item in section.items.items():
            mig.carry("lsf.cluster", ("parameters",), name, item.value,
                      item.origin, "lsf.cluster Parameters")
    _drop_sections(mig, cluster_file, ("remoteclusters",),
                   "MultiCluster setting; xce has no MultiCluster")


def convert_shared(mig, shared, local_name):
    """host_types, host_models and resources from lsf.shared."""
    if shared is None:
        return
    for row in _rows(shared, "cluster"):
        name = row.get("ClusterName")
        if name == local_name:
            continue
        why = ("install-time placeholder, not a cluster name"
               if cells.looks_like_placeholder(name) else
               "another cluster (MultiCluster has no xce equivalent)")
        mig.drop(row.origin, f"cluster {name}", why)
    for row in _rows(shared, "hosttype"):
        if row.get("TYPENAME"):
            mig.node("host_types", default=list).append(row.get("TYPENAME"))
            # The types a host's type may be (xce.config.rescheck);
            # lsinfo -t lists them.
            mig.note(keys.ENFORCED, row.origin,
                     f"host type {row.get('TYPENAME')}")
    for row in _rows(shared, "hostmodel"):
        _host_model(mig, row)
    for row in _rows(shared, "resource"):
        _resource(mig, row)


def _host_model(mig, row):
    name, factor = row.get("MODELNAME"), row.get("CPUFACTOR")
    if not name:
        return
    value = cells.number(factor or "")
    if value is None:
        mig.warn(row.origin, f"host model {name}: CPUFACTOR {factor} is not "
                 "a number; model not carried")
        return
    # Its CPU factor normalises CPU and run limits (controller.rlimits).
    mig.set(("host_models", name), value, row.origin, keys.ENFORCED)
    mig.note(keys.ENFORCED, row.origin, f"host model {name} = {factor}")
    strings = cells.split_list(cells.unquote(row.get("ARCHITECTURE") or ""))
    if strings:
        # A host of model ! takes the model its CPU's strings match
        # (xce.config.hostarch, against the agent's xce.agent.hostinfo).
        mig.set(("host_architectures", name), strings, row.origin,
                keys.ENFORCED)
        mig.note(keys.ENFORCED, row.origin, f"host model {name} "
                 f"ARCHITECTURE = {' '.join(strings)}")


def _resource(mig, row):
    name = row.get("RESOURCENAME")
    if not name:
        return
    mig.node("resources", name)
    for column, value in row.cells.items():
        if column != "RESOURCENAME" and value is not None:
            mig.carry("resource", ("resources", name), column, value,
                      row.origin, f"resource {name}")
    rtype = str(row.get("TYPE", "")).lower()
    if rtype not in ("boolean", "numeric", "string"):
        mig.warn(row.origin, f"resource {name}: TYPE {row.get('TYPE')} is "
                 "not Boolean, Numeric or String")


def convert_resource_map(mig, cluster_file):
    for row in _rows(cluster_file, "resourcemap"):
        name = row.get("RESOURCENAME")
        if name and row.get("LOCATION"):
            mig.carry("resource", ("resources", name), "LOCATION",
                      row.get("LOCATION"), row.origin, f"resource {name}")


def convert_cluster_hosts(mig, cluster_file):
    """hosts from the lsf.cluster Host table, in file order."""
    for row in _rows(cluster_file, "host"):
        name = row.get("HOSTNAME")
        if not name:
            mig.warn(row.origin, "host row without HOSTNAME; ignored")
            continue
        path = ("hosts", name)
        if cells.looks_like_host_placeholder(name):
            mig.warn(row.origin, f"host name {name} looks like an "
                     "install-time placeholder; carried as written")
        mig.node(*path)
        mig.set(path + ("address",), name, row.origin)
        # local on the controller's own host, ssh to the others.
        mig.set(path + ("launch",), "auto", row.origin)
        for column, value in row.cells.items():
            if column != "HOSTNAME" and value is not None:
                _cluster_host_value(mig, path, column, value, row.origin)


def _cluster_host_value(mig, path, column, value, origin):
    label = f"host {path[1]}"
    if column in ("model", "type") and value == "!":
        # Left unset: the host's agent reports its type, and its model is
        # matched against the ARCHITECTURE strings (xce.config.hostarch).
        mig.note(keys.ENFORCED, origin, f"{label} {column} = !",
                 "detected by the host's agent")
        return
    key = keys.lookup("cluster_host", column)
    if not key.carried:
        mig.drop(origin, f"{label} {column} = {value}", key.why)
        return
    xce_name = _CLUSTER_HOST_NAMES.get(key.name, key.name)
    converted = cells.split_list(value) if key.shape == "list" else value
    if column in loadthresh.INDICES:
        _lim_threshold(mig, path, column, value, origin, key.status)
        return
    if column == "server":
        converted = value not in ("0", "N", "n", "no")
    if cells.looks_like_placeholder(value):
        mig.warn(origin, f"{label} {column} = {value} looks like an "
                 "install-time placeholder; carried as written")
    mig.set(path + (xce_name,), converted, origin, key.status)
    mig.note(key.status, origin, f"{label} {column} = {value}")


def _lim_threshold(mig, path, column, value, origin, status):
    """A LIM busy threshold (lsf.cluster Host load column) goes to the
    host's lim_thresholds; one that is not a number is left out."""
    label = f"host {path[1]} {column} = {value}"
    number = cells.number(str(value))
    if number is None or number < 0:
        mig.drop(origin, label, "a LIM threshold is a number, 0 or more")
        return
    mig.set(path + ("lim_thresholds", column), number, origin, status)
    mig.note(status, origin, label)


def convert_batch_hosts(mig, lsb_hosts, shared=None, conf_file=None):
    """lsb.hosts HostGroup rows are groups; Host rows give values to the
    hosts they name, directly or by group, model or type (hostrows); a
    row may name a host without the domain LSF_STRIP_DOMAIN strips."""
    for row in _rows(lsb_hosts, "hostgroup"):
        _host_group(mig, row)
    hosts = {h: props for h, props in mig.tree.get("hosts", {}).items()
             if "address" in props}
    groups = mig.tree.get("host_groups", {})
    models = hostrows.known_names(shared, "hostmodel", "MODELNAME", hosts,
                                  "model")
    types = hostrows.known_names(shared, "hosttype", "TYPENAME", hosts,
                                 "type")
    keyed = []
    full = stripdomain.full_names(conf_file, hosts)
    for row in _rows(lsb_hosts, "host"):
        name = row.get("HOST_NAME")
        if not name:
            mig.warn(row.origin, "host row without HOST_NAME; ignored")
            continue
        if name in full and name not in groups:
            row.written = name      # the report names it as written
            name = row.cells["HOST_NAME"] = full[name]
        kind = hostrows.classify(name, hosts, groups, models, types)
        if kind == hostrows.DEFAULT or kind is None and not hosts:
            # No lsf.cluster hosts: the lsb.hosts rows naming no group,
            # model or type are the hosts.
            _carry_row(mig, row, name)
        elif kind is None:
            hostrows.unknown_row(mig, row, "lsf.cluster")
        else:
            keyed.append((kind, row))
    hostrows.apply_rows(mig, keyed, lambda *a: _check_one(mig, *a), hosts,
                        groups)
    _drop_sections(mig, lsb_hosts, ("hostpartition", "computeunit"),
                   "host partitions and compute units have no xce "
                   "equivalent")


def _carry_row(mig, row, name):
    mig.node("hosts", name)
    for column, value in row.cells.items():
        if column != "HOST_NAME" and value is not None:
            carry_checked(mig, "host", ("hosts", name), column, value,
                          row.origin, f"host {name}")


def _check_one(mig, column, value, origin, label):
    """(converted value, status, xce name) of one lsb.hosts cell, or None
    when it is not carried (reported here)."""
    key = keys.lookup("host", column)
    problem = key.why if not key.carried else value_problem("host", column,
                                                            value)
    if problem is not None:
        mig.drop(origin, f"{label} {column} = {value}", problem)
        return None
    return convert(key.shape, value), key.status, key.name


_MEMBERS = keys.lookup("host_group", "GROUP_MEMBER")


def _host_group(mig, row):
    name = row.get("GROUP_NAME")
    if not name:
        mig.warn(row.origin, "host group row without GROUP_NAME; ignored")
        return
    members = cells.split_list(row.get("GROUP_MEMBER", ""))
    mig.set(("host_groups", name), members, row.origin, _MEMBERS.status)
    if "!" in members:
        mig.warn(row.origin, f"host group {name}: members come from an "
                 "external egroup program, which xce does not run")
    for column, value in row.cells.items():
        if column not in ("GROUP_NAME", "GROUP_MEMBER") and value:
            key = keys.lookup("host_group", column)
            mig.drop(row.origin, f"host group {name} {column} = {value}",
                     key.why)


def check_host_groups(mig):
    """Expand every host group so that the report shows its hosts and bad
    ranges or cycles are warned about."""
    groups = mig.tree.get("host_groups", {})
    all_hosts = mig.tree.get("hosts", {})
    # Real hosts are the lsf.cluster ones; lsb.hosts rows may name groups.
    hosts = [h for h, props in all_hosts.items() if "address" in props] or \
        [h for h in all_hosts if h != "default"]
    for name, members in groups.items():
        origin = mig.origins.get(("host_groups", name), Origin("?", 0))
        label = f"host group {name} = {' '.join(members)}"
        try:
            expanded = hostnames.expand(members, groups, hosts, (name,))
        except hostnames.PatternError as exc:
            mig.warn(origin, f"host group {name}: {exc}")
        else:
            if expanded != members:
                label += f" (hosts: {' '.join(expanded) or 'none'})"
        mig.note(_MEMBERS.status, origin, label)


def _rows(lsf_file, kind):
    if lsf_file is None:
        return []
    return [row for section in lsf_file.all(kind) for row in section.rows]


def _drop_sections(mig, lsf_file, kinds, why):
    for kind in kinds:
        for section in lsf_file.all(kind) if lsf_file else ():
            mig.drop(section.origin, f"section {section.name}", why)
