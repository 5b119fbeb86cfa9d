"""``bjobs -o "field[:[-][width]][:unit] ... [delimiter='c']"`` and ``-json``.

The same syntax comes from ``LSB_BJOBS_FORMAT``.  Text: one row per job,
a header of upper-case full field names, ``-`` for an empty value; a bare
name has unlimited width, ``:`` the recommended width, ``:N`` cuts to N
(JOB_NAME from the front with ``*``), ``:-N`` right-justifies.  JSON: every
value a string, ``/`` escaped as ``\\/``, two-space indentation, as LSF
prints it (tools such as Toil parse it).
"""

import json
import json.encoder
import os
import re
import time

from xce.client.jobs import table
from xce.client.jobs.fields import FIELDS, MEMORY_FIELDS, NAMES, Job
from xce.client.text import units
from xce.errors import XceError, text as err_text
from xce.model import userprio

_DELIMITER = re.compile(r"""delimiter\s*=\s*(?:'([^']*)'|"([^"]*)"|(\S*))""",
                        re.I)
# ASCII digits, at most 4: a width is a column, not a memory request.
_WIDTH = re.compile(r"^(-?)(\d{0,4})$", re.ASCII)
_UNITS = {"K", "KB", "M", "MB", "G", "GB", "T", "TB", "P", "PB", "E", "EB",
          "Z", "ZB", "S"}


class Column:
    """One requested field: canonical name, width (None = unlimited),
    right-justified or not, and a unit for memory fields."""

    def __init__(self, name, width=None, right=False, unit=None):
        self.name = name
        self.width = width
        self.right = right
        self.unit = unit

    @property
    def header(self):
        return self.name.upper()


def _bad(token):
    # volclava's wording, name in angle brackets like LSF's other messages.
    return XceError(f"<{token}> in the format string is not a valid field "
                    "name.")


def _column(token, all_width=None):
    """Parse ``name[:[-][width]][:unit]`` into a Column (or raise)."""
    parts = token.split(":")
    name = NAMES.get(parts[0].lower())
    if name is None or len(parts) > 3:
        raise _bad(parts[0] if name is None else token)
    width, right, unit = None, False, None
    if len(parts) >= 2:
        m = _WIDTH.match(parts[1])
        if m:
            right = m.group(1) == "-"
            width = int(m.group(2)) if m.group(2) else FIELDS[name][0]
        elif len(parts) == 2 and parts[1].upper() in _UNITS:
            unit = parts[1].upper()      # "mem:GB": unit, unlimited width
        else:
            raise _bad(token)
    if len(parts) == 3:
        if parts[2].upper() not in _UNITS:
            raise _bad(token)
        unit = parts[2].upper()
    if width == 0:
        raise _bad(token)
    return Column(name, width, right, unit)


def parse_format(text):
    """The columns and the delimiter of a format string."""
    delimiter = " "
    m = _DELIMITER.search(text)
    if m:
        value = next(g for g in m.groups() if g is not None)
        if len(value) != 1:
            raise XceError(err_text("BAD_DELIMITER", value=value))
        delimiter = value
        text = text[:m.start()] + " " + text[m.end():]
    columns = []
    for token in text.split():
        head, _, rest = token.partition(":")
        if head.lower() == "all":
            # "all[:width]": every field, the width applying to each.
            columns += [_column(name + (":" + rest if rest else ""))
                        for name in FIELDS]
        else:
            columns.append(_column(token))
    if not columns:
        raise XceError(err_text("NO_FORMAT_FIELDS"))
    return columns, delimiter


def _value(column, job, default_unit):
    value = FIELDS[column.name][2](job)
    if column.name in MEMORY_FIELDS:
        unit = column.unit or default_unit
        value = units.mem_in_unit(value, unit) if unit else units.mem_bytes(value)
    return "" if value is None else str(value)


def _fit(text, column, header=False):
    if column.width is None:
        return text
    if len(text) > column.width:
        if column.name == "job_name" and not header:
            text = table.cut_name(text, column.width)
        else:
            text = text[:column.width]
    return text.rjust(column.width) if column.right \
        else text.ljust(column.width)


def _text(rows, columns, delimiter, noheader, default_unit):
    lines = []
    if not noheader:
        lines.append(delimiter.join(_fit(c.header, c, header=True)
                                    for c in columns))
    for job in rows:
        cells = [_value(c, job, default_unit) or "-" for c in columns]
        lines.append(delimiter.join(_fit(v, c)
                                    for v, c in zip(cells, columns)))
    # Padding after the last column is noise.
    return "\n".join(line.rstrip(" ") for line in lines)


# json's C string encoder without ASCII escaping: json.dumps per value costs
# more than the rest of the output at 10,000 jobs.
_encode = json.encoder.encode_basestring


def _jstr(value):
    # LSF's JSON escapes "/" as "\/" and keeps non-ASCII text as it is.
    return _encode(value).replace("/", "\\/")


def render_json(records):
    """LSF's pretty-printed JSON for a list of (key, value) record lists."""
    out = ["{", '  "COMMAND":"bjobs",', f'  "JOBS":{len(records)},',
           '  "RECORDS":[']
    for i, record in enumerate(records):
        out.append("    {")
        items = [f"      {_jstr(k)}:{_jstr(v)}" for k, v in record]
        out.append(",\n".join(items))
        out.append("    }" + ("," if i < len(records) - 1 else ""))
    out += ["  ]", "}"]
    return "\n".join(out)


def _json(rows, columns, missing, default_unit):
    seen, unique = set(), []
    for c in columns:              # a JSON object cannot repeat a key
        if c.name not in seen:
            seen.add(c.name)
            unique.append(c)
    records = [[(c.header, _value(c, job, default_unit)) for c in unique]
               for job in rows]
    records += [[("JOBID", label), ("ERROR", f"Job <{label}> is not found")]
                for label in missing]
    return render_json(records)


def _default_unit(params):
    unit = os.environ.get("LSB_UNIT_FOR_JOBS_DISPLAY") or \
        (params or {}).get("LSB_UNIT_FOR_JOBS_DISPLAY")
    return unit.upper() if unit and unit.upper() in _UNITS else None


def format_fields(rows, fields, as_json, noheader, reader=None, params=None,
                  missing=(), now=None):
    """The ``-o``/``-json`` output for *rows* ("" when there is nothing).

    *missing* are job ids that were asked for and not found: JSON reports
    each as a record with an ERROR key, as LSF does.
    """
    columns, delimiter = parse_format(fields)
    now = time.time() if now is None else now
    queues = {q["name"]: q["conf"] for q in reader.queues()} if reader else {}
    prio = userprio.policy(params)
    jobs = [Job(r, now, queues, prio) for r in rows]
    unit = _default_unit(params)
    if as_json:
        return _json(jobs, columns, missing, unit)
    if not jobs:
        return ""
    return _text(jobs, columns, delimiter, noheader, unit)
