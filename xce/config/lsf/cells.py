"""Small value syntaxes shared by all LSF files.

Column-table cells, ``()`` and ``-`` as "unset", space-separated lists,
yes/no flags and numbers.  Pure functions on strings.
"""

import re

# Cells that mean "no value" in tables and in KEY = VALUE lines.
UNSET = ("()", "-", "")

_INT = re.compile(r"[+-]?\d+\Z")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?\Z")
_YES = ("y", "yes")
_NO = ("n", "no")


def split_cells(text):
    """Split a table row into cells.

    A cell is a run of non-blank characters, where a ``( ... )`` group (ending
    at the first ``)``: LSF does not nest parentheses), a ``[ ... ]`` group
    (nested brackets allowed) or a ``"..."`` string may contain blanks.
    Returns (cells, problem) where problem names an unclosed group or None.
    """
    cells, index, problem = [], 0, None
    length = len(text)
    while index < length:
        if text[index].isspace():
            index += 1
            continue
        start = index
        while index < length and not text[index].isspace():
            index, unclosed = _skip_group(text, index)
            problem = problem or unclosed
        cells.append(text[start:index])
    return cells, problem


def _skip_group(text, index):
    """Index after the group or character at *index*; and an error or None."""
    char = text[index]
    if char == "(":
        end = text.find(")", index + 1)
        if end < 0:
            return len(text), "'(' without ')'"
        return end + 1, None
    if char == '"':
        end = text.find('"', index + 1)
        if end < 0:
            return len(text), 'unterminated "string"'
        return end + 1, None
    if char == "[":
        depth = 0
        for pos in range(index, len(text)):
            depth += {"[": 1, "]": -1}.get(text[pos], 0)
            if depth == 0:
                return pos + 1, None
        return len(text), "'[' without ']'"
    return index + 1, None


def cell_value(cell):
    """The value a cell holds: None for ``()``/``-``, else text without its
    outer parentheses or quotes, blanks collapsed."""
    cell = cell.strip()
    if cell in UNSET:
        return None
    if len(cell) >= 2 and (cell[0], cell[-1]) in (("(", ")"), ('"', '"')):
        cell = cell[1:-1].strip()
        if not cell:
            return None
    return " ".join(cell.split())


def strip_parens(value):
    """``(a b)`` -> ``a b`` for KEY = VALUE lines.

    OpenLava removes the first ``(`` and the last ``)`` on the line; returns
    (value, odd) where odd is True when that would cut through several groups
    such as ``(a b) (c)``.
    """
    if not value.startswith("("):
        return value, False
    last = value.rfind(")")
    if last < 0:
        return value[1:].strip(), True
    inner = value[1:last]
    odd = "(" in inner or ")" in inner or bool(value[last + 1:].strip())
    return (inner + value[last + 1:]).strip(), odd


def unquote(value):
    """Drop one pair of double quotes around the whole value."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"' \
            and '"' not in value[1:-1]:
        return value[1:-1]
    return value


def split_list(value):
    """Members of a blank-separated list (parentheses already removed)."""
    return value.split() if value else []


def is_int(text):
    return bool(_INT.match(text))


def is_float(text):
    return bool(_FLOAT.match(text))


def number(text):
    """int or float for a numeric string, else None."""
    if is_int(text):
        return int(text)
    if is_float(text):
        return float(text)
    return None


def yes_no(text):
    """True/False for LSF's Y/N flags, None when *text* is neither."""
    lowered = text.strip().lower()
    if lowered in _YES:
        return True
    if lowered in _NO:
        return False
    return None


def looks_like_placeholder(text):
    """True for install-time placeholders: ``@x@``, ``__X__``, ERB."""
    return bool(re.search(r"@\w+@|__[A-Z][A-Z0-9_]*__|<%", text or ""))


def looks_like_host_placeholder(name):
    """True for a host name written to be replaced at install time: the
    placeholders above, or an upper-case word with an underscore such as
    ``MASTER_HOSTNAME`` (no host name has an underscore, RFC 1123)."""
    return looks_like_placeholder(name) or bool(
        re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+", name or ""))
