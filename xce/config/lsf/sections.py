"""Begin/End framing and the two section layouts of LSF files.

``Begin Name`` ... ``End Name`` frames a section (keywords in any case).
A section is read either as KEY = VALUE lines (``Queue``, ``Parameters``,
...) or as a column table whose first line is the header (``Host``,
``UserGroup``, ...).  Every value keeps the Origin of its line.
"""

import re
from dataclasses import dataclass, field

from xce.config.lsf import cells
from xce.config.lsf.diag import Origin

_KEY_VALUE = re.compile(r"([^=\s]+)\s*=\s*(.*)\Z")


@dataclass
class Item:
    """One KEY = VALUE setting (value text as written, comment removed)."""

    key: str
    value: str
    origin: Origin


@dataclass
class Row:
    """One table row: column name -> cell value (None when unset)."""

    cells: dict
    origin: Origin
    # The row's name as the file wrote it, when the migrator renamed it
    # (a host lsb.hosts names without the domain LSF_STRIP_DOMAIN strips).
    written: str = None

    def get(self, column, default=None):
        value = self.cells.get(column)
        return default if value is None else value


@dataclass
class Section:
    name: str              # as written after Begin
    origin: Origin         # the Begin line
    body: list = field(default_factory=list)   # LogicalLine
    ended: bool = False
    items: dict = field(default_factory=dict)  # KEY (upper) -> Item
    header: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    # LSF's time-based configuration: the #if branch the whole section is
    # in, and (Item or Row, branch) of its lines inside #if blocks; these
    # are kept out of items and rows (xce.config.lsf.timebased).
    condition: str = None
    conditional: list = field(default_factory=list)

    @property
    def kind(self):
        return self.name.lower()

    def value(self, key, default=None):
        item = self.items.get(key.upper())
        return item.value if item else default


def frame(lines, diags):
    """Group logical lines into sections; warn about text outside them."""
    sections, current = [], None
    for line in lines:
        words = line.text.split()
        keyword = words[0].lower()
        if keyword == "begin":
            current = _begin(current, words, line, sections, diags)
        elif keyword == "end" and current is not None:
            _end(current, words, line, diags)
            current = None
        elif current is not None:
            current.body.append(line)
        else:
            diags.warn(line.origin.path, line.line,
                       f"text outside any Begin/End section ignored: "
                       f"{line.text[:60]}")
    if current is not None:
        diags.warn(current.origin.path, current.origin.line,
                   f"section {current.name} has no End (file truncated?)")
    return sections


def _begin(current, words, line, sections, diags):
    if current is not None:
        diags.warn(line.origin.path, line.line,
                   f"Begin inside section {current.name} begun at line "
                   f"{current.origin.line}: missing End {current.name}")
    if len(words) < 2:
        diags.warn(line.origin.path, line.line,
                   "Begin without a section name; section ignored")
        return None
    section = Section(words[1], line.origin, condition=line.condition)
    sections.append(section)
    return section


def _end(current, words, line, diags):
    current.ended = True
    if len(words) < 2 or words[1].lower() != current.kind:
        written = words[1] if len(words) > 1 else "(nothing)"
        diags.warn(line.origin.path, line.line,
                   f"End {written} closes section {current.name}")


def parse_key_values(section, diags):
    """Fill section.items from KEY = VALUE lines; later keys win."""
    for line in section.body:
        where = line.origin
        match = _KEY_VALUE.match(line.text)
        if not match:
            diags.warn(where.path, where.line,
                       f"not a KEY = VALUE line, ignored: {line.text[:60]}")
            continue
        key, value = match.group(1), match.group(2).strip()
        value, odd = cells.strip_parens(value)
        if odd:
            diags.warn(where.path, where.line, f"{key}: parentheses around "
                       "several groups; read as OpenLava does")
        if _branch(section, line):
            section.conditional.append((Item(key.upper(), value, where),
                                        line.condition))
            continue
        if value in cells.UNSET:
            if value == "":
                diags.warn(where.path, where.line,
                           f"{key} has no value; ignored")
            continue
        upper = key.upper()
        if upper in section.items:
            first = section.items[upper].origin.line
            diags.warn(where.path, where.line, f"{key} set again (first at "
                       f"line {first}); the last value wins")
        section.items[upper] = Item(upper, value, where)
    return section


def parse_table(section, diags, known_columns=()):
    """Fill section.header and section.rows from a column table.

    Header keywords are matched to *known_columns* without regard to case
    and take their canonical spelling; unknown ones are kept with a warning.
    """
    if not section.body:
        return section
    head, *rows = section.body
    section.header = _header(head, section, diags, known_columns)
    for line in rows:
        row = _row(line, section.header, diags)
        if row is not None and _branch(section, line):
            section.conditional.append((row, line.condition))
        elif row is not None:
            section.rows.append(row)
    return section


def _branch(section, line):
    """Is *line* in an #if branch of its own (not the whole section's)?"""
    return line.condition is not None and \
        line.condition != section.condition


def _header(line, section, diags, known_columns):
    canonical = {name.upper(): name for name in known_columns}
    header = []
    for word in line.text.split():
        name = canonical.get(word.upper())
        if name is None:
            name = word
            if known_columns:
                diags.warn(line.origin.path, line.line,
                           f"unknown column {word} in {section.name}; kept")
        if name in header:
            diags.warn(line.origin.path, line.line,
                       f"column {word} given twice; the last one wins")
        header.append(name)
    return header


def _row(line, header, diags):
    where = line.origin
    values, problem = cells.split_cells(line.text)
    if problem:
        diags.warn(where.path, where.line, f"{problem} in row; read to the "
                   "end of the line")
    if len(values) != len(header):
        fate = ("extra values ignored" if len(values) > len(header)
                else "missing columns left unset")
        diags.warn(where.path, where.line,
                   f"row has {len(values)} values for {len(header)} columns:"
                   f" {fate} (OpenLava would drop this row)")
    row = dict.fromkeys(header)
    for name, cell in zip(header, values):
        row[name] = cells.cell_value(cell)
    return Row(row, where)
