"""bsub -f "local_file op [remote_file]": the grammar and what each
operator asks for.

``>`` copies the local file to the execution host before the job,
``<`` copies the remote file back after it (``<<`` appends it to the
local file, which must exist), ``><`` and ``<>`` do both.  The operator
is surrounded by white space; LSF has no ``>>``.  A missing remote name
is the local one; a relative remote name is relative to the job's
working directory on the execution host.

xce moves the files through its own channels, never a shared file
system: bsub reads each local file of a ``>`` copy with the user's own
rights when it submits (at most STAGE_MAX bytes for a job, all files
together), the controller sends it to the agent with the job's start,
and what a ``<`` copy brings back (at most STAGE_MAX too) travels in the
job's exit report to the controller, which writes it with the user's
rights.  Each local name of a copy back is kept absolute (relative to
the submission directory, or to the -outdir directory).

Pure and stdlib only: bsub, the controller and bjobs use it (bsub's
reading of the argument is xce.client.submit.stagefiles).
"""

# Stage-in and copy-back bytes of one job, each (all its -f files).
STAGE_MAX = 8 * 1024 * 1024
FILES_MAX = 64                  # -f options of one job
OPS = ("<<", "><", "<>", "<", ">")      # in the order they are looked for


def sends(op):
    """Is the local file copied to the execution host before the job?"""
    return ">" in op


def returns(op):
    """Is the remote file copied back after the job?"""
    return "<" in op


def appends(op):
    return op == "<<"


def has_pattern(name):
    return "%J" in name or "%I" in name


def expand(name, jobid, idx):
    """%J and %I of a -f file name."""
    return name.replace("%J", str(jobid)).replace("%I", str(idx))


def local_path(name, subcwd, outdir=None):
    """The absolute local name: a relative one under the -outdir
    directory when there is one, else under the submission directory."""
    if name.startswith("/"):
        return name
    import os       # here: bsub's way loads no os (xce.oslite)
    return os.path.normpath(os.path.join(outdir or subcwd or "/", name))


def shown(entry):
    """The -f argument as bjobs -l and bhist -l show it."""
    return f'"{entry[0]} {entry[1]} {entry[2]}"'
