"""Turn an LSF configuration file into logical lines.

Rules (see the LSF format reference, section 2): ``#`` starts a comment
anywhere outside double quotes; a backslash right before the end of a line
joins the next line with one blank; ``#INCLUDE "path"`` splices another file
in; CR-LF endings are accepted.  Chef ERB lines (``<% ... %>``) are not LSF
syntax and are skipped with a warning.  Each logical line keeps the file and
the number of its first physical line.

In the lsb.* files, ``#if time(...)``, ``#elif time(...)``, ``#else`` and
``#endif`` lines are LSF's time-based configuration, not comments: each
line between them keeps the branch it is in (``condition``), so that the
migrator can tell it from a value set for all times.
"""

import os
import re
from dataclasses import dataclass

from xce.config.lsf.diag import Origin

# Includes nest at most this deep: deeper means a cycle we failed to see.
_MAX_INCLUDE_DEPTH = 16


# #if/#elif with their expression, #else, #endif: no blank after the '#'
# (``# if 18:30-19:30 is ...`` stays a comment, as in LSF's own example).
_DIRECTIVE = re.compile(r"\s*#(if|elif|else|endif)(?=[\s(]|\Z)\s*(.*)\Z",
                        re.IGNORECASE)


@dataclass(frozen=True)
class Branch:
    """One branch of an #if block: ``if`` or ``elif`` with its expression
    (``time(8:00-18:00)``), or ``else``; *opened* is the #if's line and
    *outer* the branch the block itself is in (nested blocks)."""
    kind: str
    expression: str
    opened: Origin
    outer: "Branch" = None

    def __str__(self):
        own = f"#{self.kind}" + (f" {self.expression}" if self.expression
                                 else "")
        if self.kind != "if":
            own += f" (of the #if at {self.opened})"
        return f"{self.outer} and {own}" if self.outer else own


@dataclass(frozen=True)
class LogicalLine:
    text: str
    origin: Origin
    # The innermost #if/#elif/#else branch the line is in (a Branch,
    # None outside them).
    condition: Branch = None

    @property
    def line(self):
        return self.origin.line


def display_name(path, base):
    """The name a report shows for *path*: relative to *base* when inside."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    return str(path) if rel.startswith("..") else rel


def read_text(path, display, diags, where=None):
    """The text of *path*, or None after recording an error.

    *where* is the Origin of the line that asked for the file (an include).
    """
    at_path, at_line = (where.path, where.line) if where else (display, 0)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        message = f"#INCLUDE {display}: {reason}" if where else reason
        diags.error(at_path, at_line, message)
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Old files are often Latin-1; every byte decodes, so keep going.
        line = data[:exc.start].count(b"\n") + 1
        diags.warn(display, line, "not UTF-8 text; read as Latin-1")
        return data.decode("latin-1")


def strip_comment(text):
    """Text before the first ``#`` that is not inside double quotes."""
    in_quote = False
    for index, char in enumerate(text):
        if char == '"':
            in_quote = not in_quote
        elif char == "#" and not in_quote:
            return text[:index]
    return text


def is_template_line(text):
    """True for a Chef ERB line; a commented-out one is just a comment."""
    code = strip_comment(text)
    return "<%" in code or "%>" in code


def _include_target(text):
    """The path of an ``#INCLUDE`` line, '' if malformed, None if not one."""
    stripped = text.strip()
    head, rest = stripped[:8], stripped[8:]
    if head.upper() != "#INCLUDE" or (rest and rest[0] not in ' \t"'):
        return None
    rest = rest.strip()
    if rest.startswith('"'):
        end = rest.find('"', 1)
        return rest[1:end] if end > 0 else ""
    return rest.split()[0] if rest else ""


class _Reader:
    """Reads one file (and the files it includes) into logical lines."""

    def __init__(self, base, diags, allow_include, directives=False):
        self.base = base
        self.diags = diags
        self.allow_include = allow_include
        self.directives = directives
        self.lines = []
        self.stack = []
        self.branches = []      # the open blocks' current Branch

    def read(self, path, where=None):
        real = os.path.realpath(path)
        display = display_name(path, self.base)
        if real in self.stack or len(self.stack) >= _MAX_INCLUDE_DEPTH:
            self.diags.error(where.path, where.line,
                             f"#INCLUDE of {display} forms a cycle")
            return False
        text = read_text(path, display, self.diags, where)
        if text is None:
            return False
        self.stack.append(real)
        try:
            self._lines(path, display, text.split("\n"))
        finally:
            self.stack.pop()
        return True

    def _lines(self, path, display, physical):
        pending, start = None, 0
        for number, raw in enumerate(physical, start=1):
            raw = raw.rstrip("\r")
            if pending is None and self._special(path, display, number, raw):
                continue
            if pending is not None and is_template_line(raw):
                self.diags.warn(display, number, "Chef ERB template line "
                                "skipped (continued line ends here)")
                raw = ""
            text, continued = self._continuation(display, number, raw)
            if pending is None:
                pending, start = text, number
            else:
                pending += " " + text
            if not continued:
                self._emit(pending, display, start)
                pending = None
        if pending is not None:
            self.diags.warn(display, start,
                            "file ends inside a continued line")
            self._emit(pending, display, start)

    def _special(self, path, display, number, raw):
        """Handle template and include lines; True when *raw* is used up."""
        if is_template_line(raw):
            # Quoted up to its first tag: the key is what an admin looks
            # for, and the template's values are the deploying site's own.
            head = raw.strip().split("<%", 1)[0].strip()
            self.diags.warn(display, number,
                            "Chef ERB template line skipped: "
                            + (head[:60] or "(a template tag)"))
            return True
        if self.directives and self._directive(display, number, raw):
            return True
        target = _include_target(raw)
        if target is None:
            return False
        where = Origin(display, number)
        if not self.allow_include:
            self.diags.warn(display, number,
                            "#INCLUDE is not allowed in this file; ignored")
        elif not target:
            self.diags.warn(display, number,
                            '#INCLUDE without a "path"; ignored')
        else:
            full = os.path.join(os.path.dirname(path), target)
            self.read(full, where)
        return True

    def _directive(self, display, number, raw):
        """Follow #if/#elif/#else/#endif; True when *raw* is one."""
        match = _DIRECTIVE.match(raw)
        if match is None:
            return False
        word, rest = match.group(1).lower(), strip_comment(match.group(2))
        rest = " ".join(rest.split())
        if word == "if":
            outer = self.branches[-1] if self.branches else None
            self.branches.append(Branch("if", rest, Origin(display, number),
                                        outer))
        elif not self.branches:
            self.diags.warn(display, number, f"#{word} without #if; ignored")
        elif word == "endif":
            self.branches.pop()
        else:
            top = self.branches[-1]
            self.branches[-1] = Branch(word, rest if word == "elif" else "",
                                       top.opened, top.outer)
        return True

    def unclosed(self):
        for branch in self.branches:
            opened = branch.opened
            self.diags.warn(opened.path, opened.line, "#if without #endif: "
                            "the lines after it are in its branch")

    def _continuation(self, display, number, raw):
        text = strip_comment(raw)
        if text.endswith("\\"):
            return text[:-1], True
        trimmed = text.rstrip(" \t")
        if trimmed.endswith("\\") and len(trimmed) < len(text):
            # OpenLava: a blank after the backslash ends the line.
            self.diags.warn(display, number, "blank after '\\' at end of "
                            "line: the line is not continued")
            return trimmed[:-1], False
        return text, False

    def _emit(self, text, display, line):
        text = text.strip()
        if text:
            condition = self.branches[-1] if self.branches else None
            self.lines.append(LogicalLine(text, Origin(display, line),
                                          condition))


def logical_lines(path, diags, base=None, allow_include=True,
                  directives=False):
    """Logical lines of *path*; None when the file itself is unreadable.
    *directives*: follow LSF's #if time(...) blocks (lsb.* files)."""
    base = base or os.path.dirname(os.path.abspath(path))
    reader = _Reader(base, diags, allow_include, directives)
    if not reader.read(path):
        return None
    reader.unclosed()
    return reader.lines
