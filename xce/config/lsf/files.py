"""Readers for each LSF configuration file.

Each reader returns an ``LsfFile``: its sections, parsed with the layout that
file uses, every value with its Origin.  Unknown sections are kept (unparsed)
with a warning; a file that cannot be read gives None and an error.
"""

import re
from dataclasses import dataclass, field

from xce.config.lsf import cells, lexer, sections
from xce.config.lsf.diag import Origin

KV, TABLE, AUTO = "kv", "table", "auto"

LOAD_INDICES = ("r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp",
                "swp", "mem")

# file kind -> section kind -> (layout, known columns)
LAYOUTS = {
    "lsf.shared": {
        "cluster": (TABLE, ("ClusterName", "Servers")),
        "hosttype": (TABLE, ("TYPENAME",)),
        "hostmodel": (TABLE, ("MODELNAME", "CPUFACTOR", "ARCHITECTURE")),
        "resource": (TABLE, ("RESOURCENAME", "TYPE", "INTERVAL",
                             "INCREASING", "DESCRIPTION", "RELEASE",
                             "CONSUMABLE")),
    },
    "lsf.cluster": {
        "clusteradmins": (KV, ()),
        "host": (TABLE, ("HOSTNAME", "model", "type", "server")
                 + LOAD_INDICES + ("RESOURCES", "REXPRI", "RUNWINDOW", "nd")),
        "parameters": (KV, ()),
        "resourcemap": (TABLE, ("RESOURCENAME", "LOCATION")),
        "remoteclusters": (TABLE, ()),
    },
    "lsb.params": {"parameters": (KV, ())},
    "lsb.queues": {"queue": (KV, ())},
    "lsb.hosts": {
        "host": (TABLE, ("HOST_NAME", "MXJ", "JL/U") + LOAD_INDICES
                 + ("DISPATCH_WINDOW", "AFFINITY", "EXIT_RATE", "CHKPNT",
                    "MIG")),
        "hostgroup": (TABLE, ("GROUP_NAME", "GROUP_MEMBER", "CONDENSE",
                              "GROUP_ADMIN", "GROUP_SLOT", "MAX_SLOTS")),
        "hostpartition": (KV, ()),
        "computeunit": (TABLE, ("NAME", "MEMBER", "TYPE", "CONDENSE",
                                "ADMIN")),
    },
    "lsb.users": {
        "usergroup": (TABLE, ("GROUP_NAME", "GROUP_MEMBER", "USER_SHARES",
                              "GROUP_ADMIN")),
        "user": (TABLE, ("USER_NAME", "MAX_JOBS", "JL/P", "MAX_PEND_JOBS",
                         "MAX_PEND_SLOTS")),
    },
    "lsb.resources": {
        "limit": (AUTO, ()),
        "resourcereservation": (KV, ()),
        "reservationusage": (TABLE, ("RESOURCE", "METHOD", "RESERVE")),
        "hostexport": (KV, ()),
        "sharedresourceexport": (KV, ()),
        "guaranteedresourcepool": (KV, ()),
    },
    "lsb.applications": {"application": (KV, ())},
    "lsb.modules": {
        "pluginmodule": (TABLE, ("SCH_PLUGIN", "RB_PLUGIN",
                                 "SCH_DISABLE_PHASES")),
    },
}

FILE_KINDS = ("lsf.conf",) + tuple(LAYOUTS)


@dataclass
class LsfFile:
    kind: str            # "lsb.queues", "lsf.conf", ...
    display: str         # the name the report shows
    sections: list = field(default_factory=list)
    # Sections inside an #if time(...) block (lsb.* files), parsed.
    conditional: list = field(default_factory=list)

    def all(self, section_kind):
        return [s for s in self.sections if s.kind == section_kind]

    def first(self, section_kind):
        found = self.all(section_kind)
        return found[0] if found else None


def read_file(kind, path, diags, base=None):
    """Read *path* as an LSF file of *kind* (one of FILE_KINDS)."""
    if kind == "lsf.conf":
        return read_lsf_conf(path, diags, base)
    lines = lexer.logical_lines(path, diags, base,
                                directives=kind.startswith("lsb."))
    if lines is None:
        return None
    display = lexer.display_name(path, base or _parent(path))
    framed = sections.frame(lines, diags)
    layouts = LAYOUTS[kind]
    for section in framed:
        layout = layouts.get(section.kind)
        if layout is None:
            diags.warn(section.origin.path, section.origin.line,
                       f"unknown section {section.name} in {kind}; ignored")
            continue
        _parse(section, layout, diags)
    # A section inside an #if block is not one the converters see.
    return LsfFile(kind, display,
                   [s for s in framed if s.condition is None],
                   [s for s in framed if s.condition is not None])


def _parse(section, layout, diags):
    style, columns = layout
    if style == AUTO:
        # A Limit is KEY = VALUE unless its first line is a header row.
        first = section.body[0].text if section.body else ""
        style = KV if "=" in first else TABLE
    if style == KV:
        sections.parse_key_values(section, diags)
    else:
        sections.parse_table(section, diags, columns)


def _parent(path):
    import os
    return os.path.dirname(os.path.abspath(path))


_CONF_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\s*)=(\s*)(.*)\Z")


def read_lsf_conf(path, diags, base=None):
    """Read lsf.conf: ``NAME=value`` lines, no sections (format §2.9)."""
    lines = lexer.logical_lines(path, diags, base, allow_include=False)
    if lines is None:
        return None
    display = lexer.display_name(path, base or _parent(path))
    conf = sections.Section("lsf.conf", Origin(display, 0), ended=True)
    for line in lines:
        item = _conf_item(line, diags)
        if item is None:
            continue
        if item.key in conf.items:
            first = conf.items[item.key].origin.line
            diags.warn(item.origin.path, item.origin.line,
                       f"{item.key} set again (first at line {first}); the "
                       "last value wins")
        conf.items[item.key] = item
    return LsfFile("lsf.conf", display, [conf])


def _conf_item(line, diags):
    where = line.origin
    match = _CONF_LINE.match(line.text)
    if not match:
        diags.warn(where.path, where.line,
                   f"not a NAME=value line, ignored: {line.text[:60]}")
        return None
    name, before, after, value = match.groups()
    if before or after:
        diags.warn(where.path, where.line, f"{name}: blank around '=' "
                   "(OpenLava skips such a line; read anyway)")
    value = value.strip()
    if value.startswith('"'):
        value = cells.unquote(value) if value.endswith('"') else value[1:]
    elif " " in value:
        diags.warn(where.path, where.line, f"{name}: unquoted value with "
                   "blanks (OpenLava rejects it; read anyway)")
    return sections.Item(name, value, where)
