"""Split a resource requirement string into its sections.

    "swp>15 && linux order[ut] rusage[mem=1]"
        -> [("select", "swp>15 && linux"), ("order", "ut"),
            ("rusage", "mem=1")]

A leading bare expression is an implicit select.  Quotes ('...' or "...")
protect brackets and keywords inside values.
"""

import re

from .common import ResReqError

SECTIONS = ("select", "order", "rusage", "span", "same", "cu", "affinity")
_SECTION_START = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[")
_KNOWN_START = re.compile(r"(?:%s)\[" % "|".join(SECTIONS))
_WORD_CHAR = re.compile(r"[A-Za-z0-9_.]")


def split_sections(text):
    """Return [(keyword, body)] in the order written."""
    _reject_compound(text)
    sections, pos = [], _skip_space(text, 0)
    if pos < len(text) and not _section_at(text, pos):
        end = _next_section(text, pos)
        sections.append(("select", text[pos:end].strip()))
        pos = end
    while True:
        pos = _skip_space(text, pos)
        if pos >= len(text):
            return sections
        match = _SECTION_START.match(text, pos)
        if match is None or match.group(1) not in SECTIONS:
            raise ResReqError()
        close = _closing_bracket(text, match.end())
        body = text[match.end():close].strip()
        if not body:
            raise ResReqError()
        sections.append((match.group(1), body))
        pos = close + 1


def _reject_compound(text):
    for pos, char in _unquoted(text):
        if char in "{}":
            raise ResReqError(
                "Compound (n*{...}) and alternative ({...} || {...}) "
                "resource requirements are not supported by xce",
                "unsupported")


def _unquoted(text):
    """Yield (position, char) of characters outside quotes."""
    quote = None
    for pos, char in enumerate(text):
        if quote:
            if char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
            continue
        yield pos, char
    if quote:
        raise ResReqError()  # unbalanced quote


def _skip_space(text, pos):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _section_at(text, pos):
    if pos > 0 and _WORD_CHAR.match(text[pos - 1]):
        return False  # "xselect[" is not a section keyword
    return _KNOWN_START.match(text, pos) is not None


def _next_section(text, start):
    """Where the implicit select ends: the next section keyword, or the end."""
    for pos, char in _unquoted(text[start:]):
        if _section_at(text, start + pos):
            return start + pos
        if char in "[]":
            raise ResReqError()
    return len(text)


def _closing_bracket(text, start):
    for pos, char in _unquoted(text[start:]):
        if char == "]":
            return start + pos
        if char == "[":
            raise ResReqError()
    raise ResReqError()
