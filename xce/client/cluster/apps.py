"""bapp: application profiles and the jobs filed under each."""

import json

from xce.client.site import sections
from xce.client.text.cells import cell, lcell, line, rcell
from xce.errors import XceError, about, text

BAPP_HEADER = line(cell("APPLICATION_NAME", 18), rcell("NJOBS", 6),
                   rcell("PEND", 6), rcell("RUN", 6), rcell("SUSP", 6))


def bapp_table(reader, asked, long_format=False, wide=False):
    apps = sections(reader)["applications"]
    if not apps:
        raise XceError(text("NO_APPS"))
    for name in asked:
        if name not in apps:
            raise XceError(about(name, "NO_SUCH_APP"))
    names = list(asked) or list(apps)
    counts = _app_counts(reader)
    if long_format:
        unit = reader.params().get("LSF_UNIT_FOR_LIMITS") or "KB"
        return "\n".join(_bapp_long(n, apps[n] or {}, counts.get(n, {}),
                                    unit) for n in names).rstrip("\n")
    rows = [BAPP_HEADER]
    name_cell = lcell if wide else cell      # -w: names never cut
    for name in names:
        c = counts.get(name, {})
        rows.append(line(name_cell(name, 18), *_app_numbers(c)))
    return "\n".join(rows)


def _app_numbers(c):
    pend = c.get("PEND", 0) + c.get("PSUSP", 0)
    run = c.get("RUN", 0)
    susp = c.get("USUSP", 0) + c.get("SSUSP", 0)
    return (f"{pend + run + susp:>6} ", f"{pend:>6} ", f"{run:>6} ",
            f"{susp:>6} ")


def _app_counts(reader):
    """app -> {stat: slots}; a job names its profile with ``-app``."""
    counts = {}
    for stat, slots, spec in reader.unfinished_slots():
        app = json.loads(spec or "{}").get("app")
        if app:
            per = counts.setdefault(app, {})
            per[stat] = per.get(stat, 0) + (slots or 0)
    return counts


def _mark(key):
    """A key xce carries but does not apply is said so, never hidden."""
    from xce.lang.appmerge import APPLIED_KEYS
    return "" if str(key).upper() in APPLIED_KEYS else "  (not acted on by xce)"


def _bapp_long(name, conf, counts, unit="KB"):
    from xce.client.text import limits
    from xce.config.appconf import LIMIT_KEYS
    out = [f"APPLICATION NAME: {name}",
           f" -- {conf.get('DESCRIPTION') or 'No description provided.'}",
           "", "STATISTICS:", "   NJOBS     PEND      RUN     SUSP",
           "".join(f"{v.strip():>9}" for v in _app_numbers(counts)), ""]
    table = _limit_table(conf, unit)
    params = {k: v for k, v in conf.items() if k != "DESCRIPTION" and
              k not in LIMIT_KEYS and k not in limits.TASK_KEYS}
    if table or params:
        out += ["PARAMETERS:"] + table + [""]
        out += [f"{k} = {v}{_mark(k)}" for k, v in params.items()]
        if params:
            out.append("")
    return "\n".join(out) + "\n"


def _limit_table(conf, unit):
    """The profile's limits in the layout bqueues -l and bjobs -l use:
    the CPULIMIT and RUNLIMIT blocks (minutes, of the normalising host or
    model for the CPU limit), then one row of limit names over a row of
    their values with units, MEMLIMIT among them as LSF's bapp -l has it."""
    from xce.client.text import limits
    from xce.config.appconf import limits_of
    from xce.lang import rlimits
    values = limits_of(conf, unit)
    out = limits.cpu_lines(values.get("cpulimit"),
                           values.get(rlimits.CPU_HOST))
    if values.get("runlimit") is not None:
        out += limits.time_lines("RUNLIMIT", values["runlimit"])
    out += limits.task_lines(limits.configured_tasks(conf))
    return out + limits.row_lines(values, values.get("memlimit"))
