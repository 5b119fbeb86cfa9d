"""The one resource model: what each resource name means, where it lives.

Every resource a select[], order[], same[] or rusage[] may name has one
definition here: LSF's built-in ones (load indices, static host facts,
slots, GPUs) and the site's, from xce.yaml ``resources`` (lsf.shared's
Resource section, migrated).  A definition says its TYPE (Boolean,
Numeric, String), whether a larger value means more loaded (INCREASING),
whether a suspended job gives back its reservation (RELEASE), whether
rusage[] may reserve it (CONSUMABLE), how often a host reports it
(INTERVAL: a dynamic resource, from an elim) and its DESCRIPTION.

Where a site resource exists is its LOCATION (lsf.cluster's ResourceMap):
``[default]`` gives every host its own value, ``[all]`` (or ``[all
~hostA]``) one instance shared by the whole cluster, ``[hostA hostB]
[hostC]`` one shared instance per bracket group; a static value is
written ``value@[location]`` (``(40@[all])``: 40 licences).

Hosts give values in their ``resources`` list: ``bigmem`` (a Boolean),
``os=rhel8`` or ``licA=4`` (a String or Numeric), or LSF's
LSF_LOCAL_RESOURCES words ``[resource bigmem]`` and ``[resourcemap
4*licA]``.

Pure and stdlib-only: the controller, the scheduler (through the views it
is given), the resource requirement parser and the commands all build a
Catalog from the same configuration section and ask it.

    cat = Catalog.build(raw.get("resources"))    # cat.errors: bad lines
    cat.get("licA").numeric, cat.get("mem").bigger_is_better
    cat.host_values(host_conf.resources)          # {"bigmem": True, ...}
    cat.instances(host_names, host_groups)        # shared counters
"""

import math
import re
from dataclasses import dataclass

BOOLEAN, NUMERIC, STRING = "Boolean", "Numeric", "String"
TYPES = (BOOLEAN, NUMERIC, STRING)

# (name, type, increasing, dynamic, description) of LSF's built-ins, in
# the order lsinfo lists them.  "Inc": a larger value is more loaded.
_BUILT_IN = (
    ("r15s", NUMERIC, True, True, "15-second CPU run queue length"),
    ("r1m", NUMERIC, True, True, "1-minute CPU run queue length (alias: cpu)"),
    ("r15m", NUMERIC, True, True, "15-minute CPU run queue length"),
    ("ut", NUMERIC, True, True, "1-minute CPU utilization (0.0 to 1.0)"),
    ("pg", NUMERIC, True, True, "Paging rate (pages/second)"),
    ("io", NUMERIC, True, True, "Disk IO rate (Kbytes/second)"),
    ("ls", NUMERIC, True, True, "Number of login sessions (alias: login)"),
    ("it", NUMERIC, False, True, "Idle time (minutes) (alias: idle)"),
    ("tmp", NUMERIC, False, True, "Disk space in /tmp (Mbytes)"),
    ("swp", NUMERIC, False, True,
     "Available swap space (Mbytes) (alias: swap)"),
    ("mem", NUMERIC, False, True, "Available memory (Mbytes)"),
    ("ncpus", NUMERIC, False, False, "Number of CPUs"),
    ("maxmem", NUMERIC, False, False, "Maximum memory (Mbytes)"),
    ("maxswp", NUMERIC, False, False, "Maximum swap space (Mbytes)"),
    ("type", STRING, None, False, "Host type"),
    ("model", STRING, None, False, "Host model"),
    ("hname", STRING, None, False, "Host name"),
    ("server", BOOLEAN, None, False, "LSF server host"),
)
# The built-in load indices, which an elim may report by these formal
# names in place of the host's own measurement (LSF's override), and the
# aliases a resource requirement may use for some but an elim may not.
LOAD_INDICES = tuple(name for name, _, _, dynamic, _ in _BUILT_IN
                     if dynamic)
LOAD_INDEX_ALIASES = {"cpu": "r1m", "idle": "it", "login": "ls",
                      "swap": "swp"}
# Built-ins lsinfo does not list but select[] and order[] read.
_HIDDEN = (
    ("slots", NUMERIC, False, True, "Free job slots"),
    ("maxslots", NUMERIC, False, False, "Job slots"),
    ("nprocs", NUMERIC, False, False, "Number of physical processors"),
    ("ncores", NUMERIC, False, False, "Number of cores per processor"),
    ("nthreads", NUMERIC, False, False, "Number of threads per core"),
    ("ndisks", NUMERIC, False, False, "Number of local disks"),
    ("maxtmp", NUMERIC, False, False, "Maximum /tmp space (Mbytes)"),
    ("cpuf", NUMERIC, False, False, "CPU factor"),
    ("rexpri", NUMERIC, False, False, "Remote execution priority"),
    ("ngpus", NUMERIC, False, False, "Number of GPUs"),
    ("ngpus_physical", NUMERIC, False, False, "Number of physical GPUs"),
)
# Words a site may not define (LSF's reserved resource names; its own
# stock lsf.shared defines the define_ncpus_* Booleans, so they may be).
RESERVED = frozenset(
    "cpu cpuf io logins ls idle maxmem maxswp maxtmp type model status it "
    "mem ncpus nprocs ncores nthreads ndisks pg r15m r15s r1m swap swp tmp "
    "ut local dchost jobvm hname server slots maxslots".split())
# What rusage[] reserves without any site definition.
BUILTIN_CONSUMABLE = frozenset({"mem", "swp", "tmp", "slots"})

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,38}\Z")
_YES, _NO = ("Y", "YES", "TRUE", "1"), ("N", "NO", "FALSE", "0")


@dataclass(frozen=True)
class ResourceDef:
    name: str
    type: str = BOOLEAN
    increasing: bool = False    # Numeric: a larger value is more loaded
    release: bool = True        # a suspended job gives its rusage back
    consumable: bool = False    # rusage[] may reserve it
    interval: int = None        # seconds between reports; None: static
    description: str = ""
    builtin: bool = False
    dynamic: bool = False       # changes by itself (load index, elim)

    @property
    def numeric(self):
        return self.type == NUMERIC

    @property
    def order(self):
        """lsinfo's ORDER column: Inc, Dec or N/A."""
        if not self.numeric:
            return "N/A"
        return "Inc" if self.increasing else "Dec"

    @property
    def bigger_is_better(self):
        """order[] sorts this resource largest first."""
        return self.numeric and not self.increasing


@dataclass(frozen=True)
class Instance:
    """One place a site resource exists (a ResourceMap bracket group).

    hosts: the host names that see it.  shared: one value for all of them
    (a cluster-wide counter such as licence tokens); False for
    ``[default]``, where each host has its own.  value: the static value
    written as ``value@[...]``, or None (a host or an elim gives it)."""
    resource: str
    hosts: tuple
    shared: bool
    value: object = None
    location: str = ""          # as written, for bhosts -s / lsload -s


class ResourceError(ValueError):
    """A definition or location xce cannot take; str() is the reason."""


def _built_ins():
    defs = {}
    for rows, listed in ((_BUILT_IN, True), (_HIDDEN, False)):
        for name, kind, inc, dynamic, desc in rows:
            defs[name] = ResourceDef(
                name, kind, bool(inc), True, name in BUILTIN_CONSUMABLE,
                60 if dynamic else None, desc, True, dynamic)
    return defs


BUILT_IN = _built_ins()
LISTED = tuple(row[0] for row in _BUILT_IN)     # lsinfo's built-in rows


def _flag(props, key, default):
    value = props.get(key)
    if value is None or str(value).strip() in ("", "()"):
        return default
    if isinstance(value, bool):
        return value
    word = str(value).strip().upper()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ResourceError(f"{key} must be Y or N, not {value}")


def _interval(props):
    value = props.get("INTERVAL")
    if value is None or str(value).strip() in ("", "()"):
        return None
    try:
        seconds = int(str(value).strip())
    except ValueError:
        raise ResourceError(f"INTERVAL {value} is not a whole number of "
                            "seconds")
    if seconds <= 0:
        raise ResourceError(f"INTERVAL {value} must be positive")
    return seconds


def _text(value):
    text = "" if value is None else str(value).strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


def define(name, props):
    """The ResourceDef of one site resource (xce.yaml ``resources``
    entry); ResourceError names what is wrong."""
    name = str(name)
    if not _NAME.match(name):
        raise ResourceError(f"resource {name}: not a resource name (a "
                            "letter, then letters, digits or _; at most "
                            "39)")
    if name in RESERVED:
        raise ResourceError(f"resource {name}: a built-in resource name; "
                            "it cannot be redefined")
    props = props if isinstance(props, dict) else {}
    kind = _text(props.get("TYPE")) or BOOLEAN
    match = [t for t in TYPES if t.lower() == kind.lower()]
    if not match:
        raise ResourceError(f"resource {name}: TYPE {kind} is not Boolean, "
                            "Numeric or String")
    kind = match[0]
    try:
        increasing = _flag(props, "INCREASING", False)
        release = _flag(props, "RELEASE", True)
        consumable = _flag(props, "CONSUMABLE", kind == NUMERIC)
        interval = _interval(props)
    except ResourceError as exc:
        raise ResourceError(f"resource {name}: {exc}")
    if kind != NUMERIC and (increasing or consumable):
        key = "INCREASING" if increasing else "CONSUMABLE"
        raise ResourceError(f"resource {name}: {key} applies to Numeric "
                            f"resources only, and it is {kind}")
    return ResourceDef(name, kind, increasing, release, consumable,
                       interval, _text(props.get("DESCRIPTION")), False,
                       interval is not None)


# --- ResourceMap LOCATION ---------------------------------------------------
_GROUP = re.compile(r"\s*(?:([^\s\[\]@()]+)@)?\[([^\[\]]*)\]\s*")


def parse_location(text):
    """``(40@[all])``, ``[default]``, ``(2@[hA hB] 4@[hC])`` ->
    [(value text or None, [words])]; ResourceError if malformed."""
    body = str(text).strip()
    if body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    groups, pos = [], 0
    while pos < len(body):
        if not body[pos:].strip():
            break
        match = _GROUP.match(body, pos)
        if match is None:
            raise ResourceError(f"LOCATION {text}: expected [hosts] or "
                                f"value@[hosts] at '{body[pos:].strip()}'")
        words = match.group(2).split()
        if not words:
            raise ResourceError(f"LOCATION {text}: an empty [] names no "
                                "host")
        groups.append((match.group(1), words))
        pos = match.end()
    if not groups:
        raise ResourceError(f"LOCATION {text}: no location given")
    return groups


def _value(definition, text, where):
    if text is None:
        return None
    if definition.type == NUMERIC:
        try:
            number = float(text)
        except ValueError:
            raise ResourceError(f"resource {definition.name}: {where} value "
                                f"{text} is not a number")
        return int(number) if number.is_integer() else number
    if definition.type == BOOLEAN:
        raise ResourceError(f"resource {definition.name}: a Boolean takes "
                            f"no value ({text}@)")
    return text


def _expand(words, hosts, groups):
    """Host names of a bracket group: names, host groups, ``all``,
    ``~name`` exclusions."""
    chosen, dropped = [], set()
    for word in words:
        target = dropped if word.startswith("~") else None
        word = word.lstrip("~")
        names = hosts if word in ("all", "others") else \
            groups.get(word, [word])
        if target is not None:
            target.update(names)
            continue
        for name in names:
            if name in groups:      # a group of groups
                names_inner = _expand([name], hosts, groups)
                chosen += [n for n in names_inner if n not in chosen]
            elif name not in chosen:
                chosen.append(name)
    return tuple(n for n in chosen if n not in dropped)


def instances(definition, location, hosts, groups=None):
    """The Instances of *definition* at *location* over *hosts* (names,
    in order) with *groups* (host group -> members)."""
    groups = groups or {}
    out = []
    for value_text, words in parse_location(location):
        value = _value(definition, value_text, "LOCATION")
        where = "[" + " ".join(words) + "]"
        if words == ["default"]:
            out.append(Instance(definition.name, tuple(hosts), False, value,
                                where))
            continue
        unknown = [w.lstrip("~") for w in words
                   if w.lstrip("~") not in ("all", "others")
                   and w.lstrip("~") not in groups
                   and w.lstrip("~") not in hosts]
        if unknown:
            raise ResourceError(f"resource {definition.name}: LOCATION "
                                f"names {' '.join(unknown)}, not a host or "
                                "host group of the cluster")
        members = _expand(words, list(hosts), groups)
        out.append(Instance(definition.name, members, True, value,
                            (value_text + "@" if value_text else "")
                            + where))
    return out


# --- values hosts give ------------------------------------------------------
_LOCAL = re.compile(r"\[\s*(resource|resourcemap)\s+([^\]]+)\]\Z")


def host_items(items):
    """[(name, value text or None)] of a host's ``resources`` list."""
    out = []
    for item in items or ():
        if isinstance(item, dict):
            out += [(str(k), v) for k, v in item.items()]
            continue
        text = str(item).strip()
        local = _LOCAL.match(text)
        if local and local.group(1) == "resource":
            out += [(w, None) for w in local.group(2).split()]
            continue
        if local:
            for word in local.group(2).split():
                value, star, name = word.partition("*")
                out.append((name, value) if star else (word, None))
            continue
        name, sep, value = text.partition("=")
        out.append((name.strip(), value.strip() if sep else None))
    return out


def _guess(value):
    """A value of an undefined resource: a number if it reads as one."""
    if value is None:
        return True
    if isinstance(value, (int, float)):
        return value
    try:
        return float(value) if "." in str(value) else int(value)
    except ValueError:
        return str(value)


class Catalog:
    """Every resource definition of a cluster: the built-ins and the
    site's, and the site's locations.  ``errors`` lists what could not
    be taken (one line each; the controller refuses such a file)."""

    def __init__(self, defs, locations=None, errors=None):
        self.defs = defs
        self.locations = locations or {}    # name -> LOCATION text
        self.errors = errors or []

    @classmethod
    def build(cls, section):
        """From xce.yaml's ``resources`` mapping (None: built-ins only)."""
        defs, locations, errors = dict(BUILT_IN), {}, []
        for name, props in (section or {}).items():
            try:
                defs[str(name)] = define(name, props)
            except ResourceError as exc:
                errors.append(str(exc))
                continue
            where = props.get("LOCATION") if isinstance(props, dict) \
                else None
            if where is not None and str(where).strip():
                try:
                    parse_location(where)
                except ResourceError as exc:
                    errors.append(f"resource {name}: {exc}")
                    continue
                locations[str(name)] = str(where).strip()
        return cls(defs, locations, errors)

    def get(self, name):
        return self.defs.get(name)

    def site(self):
        """The site's definitions, in configuration order."""
        return [d for d in self.defs.values() if not d.builtin]

    def names(self):
        return frozenset(self.defs)

    def of_type(self, kind):
        return frozenset(n for n, d in self.defs.items() if d.type == kind)

    def dynamic_names(self):
        """The site resources elims report (those with an INTERVAL)."""
        found = getattr(self, "_dynamic", None)
        if found is None:
            found = self._dynamic = frozenset(
                d.name for d in self.site() if d.dynamic)
        return found

    def consumable(self):
        return frozenset(n for n, d in self.defs.items() if d.consumable)

    def bigger_is_better(self):
        """The names order[] sorts largest first (LSF's Dec order)."""
        return frozenset(n for n, d in self.defs.items()
                         if d.bigger_is_better)

    def host_values(self, items):
        """A host's ``resources`` list as the values select[] reads:
        Booleans True, Numerics numbers, Strings text.  A name with no
        definition keeps the value as written (a number if it is one)."""
        out = {}
        for name, value in host_items(items):
            found = self.defs.get(name)
            if found is None or found.builtin:
                out[name] = _guess(value)
            elif found.type == BOOLEAN:
                out[name] = True
            elif value is None:
                continue        # a dynamic one: an elim reports it
            else:
                out[name] = _value(found, str(value), "host") \
                    if not isinstance(value, (int, float)) else value
        return out

    def host_errors(self, host, items):
        """Problems of one host's ``resources`` list: values of the
        wrong type, a Boolean given a value."""
        errors = []
        for name, value in host_items(items):
            found = self.defs.get(name)
            if found is None or found.builtin:
                continue
            if found.type == BOOLEAN and value is not None:
                errors.append(f"host {host}: resource {name} is Boolean and "
                              f"takes no value ({value})")
            elif found.type != BOOLEAN and value is not None:
                try:
                    _value(found, str(value), "host")
                except ResourceError as exc:
                    errors.append(f"host {host}: {exc}")
        return errors

    def instances(self, hosts, groups=None):
        """Every Instance of the site's located resources over *hosts*;
        (instances, errors)."""
        out, errors = [], []
        for name, where in self.locations.items():
            try:
                out += instances(self.defs[name], where, hosts, groups)
            except ResourceError as exc:
                errors.append(str(exc))
        return out, errors

    def shared(self, hosts, groups=None):
        """The shared instances only (cluster-wide counters and host-set
        resources)."""
        return [i for i in self.instances(hosts, groups)[0] if i.shared]


MAX_REPORTED_STRING = 256   # the longest String value an elim's report keeps


def load_index_value(name, raw):
    """(value, None) of an elim's value *raw* for the built-in load index
    *name*, or (None, why it is not one): a finite number, not negative,
    ut a fraction from 0 to 1 as the host's own measurement is."""
    value = reported_value(NUMERIC, raw)
    if value is None:
        return None, "not a number"
    if value < 0:
        return None, "negative"
    if name == "ut" and value > 1:
        return None, "above 1 (ut is a fraction of the CPU time, 0 to 1)"
    return value, None


def reported_value(kind, raw):
    """One value of an elim's load update string (``n name1 value1 ...``)
    as a resource of TYPE *kind* holds it: a finite number, True/False
    for 1/0, a word (cut to 256 characters); None if it is not one."""
    kind = str(kind or "").lower()
    if kind == "numeric":
        try:
            value = float(raw)
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    if kind == "boolean":
        return {"1": True, "0": False}.get(raw)
    if kind == "string":
        return raw[:MAX_REPORTED_STRING]
    return None
