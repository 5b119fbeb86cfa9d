"""Diagnostics of the LSF reader: warnings and errors that name file and line.

The reader never raises on odd input: it records a warning and goes on, so a
migration report can list every problem at once.  Only input that cannot be
read at all (a missing or unreadable file, an ``#INCLUDE`` that cannot be
opened) is an error; the caller decides to stop on errors.
"""

from dataclasses import dataclass, field

WARNING = "warning"
ERROR = "error"


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    path: str          # as the user named it (relative to the source dir)
    line: int          # 0 when the problem is about the whole file
    message: str

    def where(self):
        return f"{self.path}:{self.line}" if self.line else self.path

    def __str__(self):
        return f"{self.where()}: {self.message}"


@dataclass
class Diagnostics:
    """Collects diagnostics in the order they were found."""

    items: list = field(default_factory=list)

    def warn(self, path, line, message):
        self.items.append(Diagnostic(WARNING, str(path), line, message))

    def error(self, path, line, message):
        self.items.append(Diagnostic(ERROR, str(path), line, message))

    @property
    def warnings(self):
        return [d for d in self.items if d.severity == WARNING]

    @property
    def errors(self):
        return [d for d in self.items if d.severity == ERROR]


@dataclass(frozen=True)
class Origin:
    """Where a value came from: the file (display name) and its line."""

    path: str
    line: int

    def __str__(self):
        return f"{self.path}:{self.line}" if self.line else self.path
