"""The migration report: what was carried, accepted, left out, and why."""

from xce.config import keys

_HEADINGS = ((keys.ENFORCED, "Carried and enforced"),
             (keys.ACCEPTED, "Accepted, not enforced"),
             (keys.NOT_NEEDED, "Carried, not needed in xce"),
             (keys.NOT_CARRIED, "Not carried"))
_WHERE_WIDTH = 20


def _where(origin):
    return str(origin) if origin is not None else "(xce default)"


def _line(where, text, width=_WHERE_WIDTH):
    return f"  {where:<{width}} {text}"


def sort_key(file_order):
    """Sort report items by file reading order, then line."""
    def key(pair):
        origin = pair[0]
        if origin is None:
            return (-1, 0)
        return (file_order.get(origin.path, len(file_order)), origin.line)
    return key


def render(result):
    """Report text for a migrate.Result."""
    out = [f"xce-migrate: LSF configuration in {result.source}"]
    out.append(f"Cluster: {result.cluster}")
    out.append("Files read: " + (", ".join(result.files_read) or "none"))
    if result.files_missing:
        out.append("Files not found: " + ", ".join(result.files_missing))
    order = {name: index for index, name in enumerate(result.files_read)}
    entries = result.migration.entries
    width = max([len(_where(e.origin)) for e in entries]
                + [len(d.where()) for d in result.diags.warnings]
                + [_WHERE_WIDTH])
    for status, heading in _HEADINGS:
        chosen = [(e.origin, e) for e in entries if e.status == status]
        out.append("")
        out.append(f"{heading} ({len(chosen)}):")
        for origin, entry in sorted(chosen, key=sort_key(order)):
            why = f": {entry.why}" if entry.why else ""
            out.append(_line(_where(origin), entry.label + why, width))
    warnings = [(d, d) for d in result.diags.warnings]
    out.append("")
    out.append(f"Warnings ({len(warnings)}):")
    for diag, _ in sorted(warnings, key=lambda p: (
            order.get(p[0].path, len(order)), p[0].line)):
        out.append(_line(diag.where(), diag.message, width))
    out.append("")
    out.append(figure(counts(result.migration.entries)))
    out.append(_summary(result))
    return "\n".join(out) + "\n"


def counts(entries):
    """Report lines per status (each line is one key occurrence)."""
    found = {status: 0 for status in keys.STATUSES}
    for entry in entries:
        found[entry.status] += 1
    return found


def figure(found):
    """The share of the key occurrences that act in xce (all but the not
    needed ones) that xce enforces, in one line."""
    acting = sum(found.values()) - found[keys.NOT_NEEDED]
    share = 100.0 * found[keys.ENFORCED] / acting if acting else 100.0
    return (f"Enforced: {found[keys.ENFORCED]} of {acting} key occurrences "
            f"that act in xce ({share:.1f}%); {found[keys.NOT_NEEDED]} more "
            f"are not needed in xce.")


def _summary(result):
    found = counts(result.migration.entries)
    text = (f"{found[keys.ENFORCED]} enforced, {found[keys.ACCEPTED]} "
            f"accepted but not enforced, {found[keys.NOT_NEEDED]} not "
            f"needed, {found[keys.NOT_CARRIED]} not "
            f"carried, {len(result.diags.warnings)} warnings.")
    if result.written:
        text += " Wrote " + ", ".join(result.written) + "."
    else:
        text += " Nothing written (--check)."
    return text
