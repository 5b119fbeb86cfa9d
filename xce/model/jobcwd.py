"""The job's working directory: one rule for bsub -cwd, LSB_JOB_CWD and
bmod -cwd.

LSF runs a job in its submission directory, or in the directory of
-cwd (bsub, bmod) or of the submitter's LSB_JOB_CWD, "absolute or
relative to the submission directory".  xce resolves that directory
once, the same way wherever it comes from, into the absolute path kept
as the job's ``cwd``:

- without one, the submission directory as it is;
- a relative one is joined to the submission directory (the job's own
  submission directory for bmod, not the directory bmod runs in);
- ``.``, ``..``, doubled and trailing slashes are then taken out
  lexically, as ``cd`` does with a logical path: ``/a/b/../c`` is
  ``/a/c`` and ``sub/`` is ``<subcwd>/sub``;
- LSF's dynamic patterns (%J %I %EJ %EI %U %G %P %H %JG) stay as they
  are: the controller fills them in when the job starts
  (xce.model.outdir.working_directory) and takes the result through
  ``normal`` again (an empty %JG leaves no empty name behind).

A value that is empty, holds a NUL, is longer than LSF's 4094 characters
(as given or once resolved), or that cannot be made absolute (a
submission directory that is not absolute itself) is refused with
``BadCwd``; its ``key`` names the message in xce.errors.

Pure: no os (bsub imports this on its lean way, xce.oslite), no re.
"""

# LSF's longest file name on UNIX ("up to 4094 characters").
MAX_LEN = 4094
# The patterns LSF fills in a -cwd (case sensitive); the longest first.
PATTERNS = ("%JG", "%EJ", "%EI", "%J", "%I", "%U", "%G", "%P", "%H")


class BadCwd(ValueError):
    """A working directory refused; ``key`` is its xce.errors message,
    ``fields`` what the message names."""

    def __init__(self, key, **fields):
        super().__init__(key)
        self.key, self.fields = key, fields


def check_asked(asked):
    """Refuse a -cwd value no submission directory can make valid."""
    if asked == "":
        raise BadCwd("CWD_EMPTY")
    if "\0" in asked:
        raise BadCwd("CWD_NUL")
    if len(asked) > MAX_LEN:
        raise BadCwd("CWD_TOO_LONG", limit=MAX_LEN)


def resolve(asked, subcwd):
    """The absolute working directory of a job submitted from *subcwd*
    with -cwd *asked* (None: without one); BadCwd if it has none."""
    if asked is not None:
        check_asked(asked)
    if not isinstance(subcwd, str) or not subcwd.startswith("/") or \
            "\0" in subcwd:
        raise BadCwd("CWD_NOT_ABSOLUTE", subcwd=subcwd)
    if asked is None:
        return subcwd
    path = normal(asked if asked.startswith("/") else subcwd + "/" + asked)
    if len(path) > MAX_LEN:
        raise BadCwd("CWD_TOO_LONG", limit=MAX_LEN)
    return path


def normal(path):
    """Absolute *path* without ``.``, ``..``, empty names or a trailing
    slash (``..`` of ``/`` is ``/``)."""
    names = []
    for name in path.split("/"):
        if name == "..":
            if names:
                names.pop()
        elif name and name != ".":
            names.append(name)
    return "/" + "/".join(names)


def has_pattern(asked):
    """True when *asked* holds one of LSF's dynamic patterns: LSF then
    creates the directory when the job starts."""
    return bool(asked) and any(p in asked for p in PATTERNS)
