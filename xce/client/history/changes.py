"""``bhist -l`` lines for a bmod (MODIFY event): what each change says.

LSF prints ``Parameters of Job are changed:`` and then one indented line
per changed parameter, the values set first, then the ones removed by the
``-Xn`` forms, each in LSF's words (its own words kept, spacing included,
because scripts grep them).  Options LSF's table has no line for (-Jd,
-outdir, -We, ...) get one in the same style.
"""

import time

from xce.client.text import limits
from xce.model import ugroupsel

HEADER = "Parameters of Job are changed:"
INDENT = "    "
# Keys a change carries along with the one that is shown.
_QUIET = frozenset({"cwd", "stdout_mode", "stderr_mode", "resreq_merged",
                    "hostfile_hosts", "app_filled", "user_priority_time"})


def _ctime(t):
    return time.ctime(int(t))     # LSF's: the day padded with a space


def _minutes(v):
    """Whole minutes as LSF prints them (``30``); a fractional limit
    (XCE_FRACTIONAL_RUNLIMIT's 0.02) with the decimals the other
    commands show, never as 0."""
    value = float(v)
    text = str(int(value)) if value.is_integer() else \
        limits.minutes_text(value)
    return f"{text} (minutes)"


def _kb(v):
    return f"{int(v)} (KB)"


def _words(v):
    """A list (hosts, -R strings) as its words; anything else as text."""
    if isinstance(v, (list, tuple)):
        return " ".join(str(w) for w in v)
    return str(v)


def _slots(v):
    lo, hi = (list(v) + [0, 0])[:2]
    lines = [f"New minimal num of processors is : {lo}"]
    if hi:
        lines.append(f"New max num of processors is : {hi}")
    return lines


def _files(v):
    lines = [f"Number of Copied files change to: {len(v)}"]
    for i, entry in enumerate(v):
        local, op, remote = (list(entry) + ["", "", ""])[:3]
        lines.append(f"{i:3d} : subfile name is {local}, execfile name is "
                     f"{remote or local}, operation {op}")
    return lines


def _said(fmt, convert=str):
    return lambda v: [fmt.format(convert(v))]


def _fixed(words):
    return lambda v: [words]


# key -> (lines for a value set, line for the key removed), in LSF's order.
TABLE = [
    ("queue", _said("Job queue changes to : {}"),
     "Job queue changes back to default"),
    ("asked_hosts", _said("Hosts change to : {}", _words),
     "Host changes to default"),
    ("hostfile", _said("Host file changes to : {}"), "Host file is removed"),
    ("stdin", _said("Input file change to : {}"), "Input file is disabled"),
    ("stdout", _said("Output file change to : {}"), "Output file is disabled"),
    ("stderr", _said("Error file change to : {}"), "Error file is disabled"),
    ("exclusive", _fixed("Job changes to exclusive"),
     "Job changes to nonexclusive"),
    ("specified_cwd", _said("Current working directory changes to : {}"),
     "Current working directory changes to default"),
    ("user_group", _said("User group changes to : {}"),
     "User group changes to default"),
    ("user_group_exclude", _said("User group changes to : {}", ugroupsel.tilded),
     "User group changes to default"),
    ("gpu", _said("GPU requirement changes to : {}"),
     "GPU requirement is removed"),
    ("outdir", _said("Output directory changes to : {}"),
     "Output directory is removed"),
    ("mail_notify", _fixed("Job will send mail to user when job ends"),
     "No mail will be sent to user when job ends"),
    ("mail_begin", _fixed("Job will send mail to user when job begins"),
     "No mail will be to user when job begins"),
    ("runlimit_host", _said("Host specification change to: {}"),
     "No host specification"),
    ("cpulimit_host", _said("Host specification change to: {}"),
     "No host specification"),
    ("estimate_host", _said("Host specification change to: {}"),
     "No host specification"),
    ("depend", _said("Dependency condition changes to: {}"),
     "Dependency condition is removed"),
    ("resreq", _said("Resource requirement changes to: {}", _words),
     "No  resource requirement"),
    ("xfiles", _files, "No transfer files specified"),
    ("pre_exec", _said("Pre exec command changes to : {}"),
     "Pre exec command is disabled"),
    ("post_exec", _said("Post exec command changes to : {}"),
     "Post exec command is disabled"),
    ("login_shell", _said("Log shell changes to : {}"),
     "Log shell changes to default"),
    ("rerunnable", lambda v: ["Job changes to be re-runnable" if v else
                              "Job changes to be not re-runnable"],
     "Re-runnable changes to the queue's default"),
    ("mail_user", _said("Mail user changes to : {}"),
     "Mail user changes to original user"),
    ("project", _said("Project name changes to : {}"),
     "Project name changes to default"),
    ("cpulimit", _said("CPU limit changes to : {}", _minutes),
     "bmod -cn used. CPU limit set to queue CPU limit"),
    ("filelimit", _said("File limit changes to : {}", _kb),
     "bmod -Fn used. File limit set to queue file limit"),
    ("datalimit", _said("Data limit changes to : {}", _kb),
     "bmod -Dn used. Data limit set to queue data limit"),
    ("stacklimit", _said("Stack limit changes to : {}", _kb),
     "bmod -Sn used. Stack limit set to queue stack limit"),
    ("corelimit", _said("Core limit changes to : {}", _kb),
     "bmod -Cn used. Core limit set to queue core limit"),
    ("memlimit", _said("Memory limit changes to : {}", _kb),
     "bmod -Mn used. Memory limit set to queue memory limit"),
    ("swaplimit", _said("Swap limit changes to : {}", _kb),
     "Swap limit is removed"),
    ("runlimit", _said("run limit changes to : {}", _minutes),
     "bmod -Wn used. Run limit set to queue run limit"),
    ("processlimit", _said("Process limit changes to : {}"),
     "Process limit is removed"),
    ("threadlimit", _said("Thread limit changes to : {}"),
     "Thread limit is removed"),
    ("nslots", _slots, "Minimal num of processors is removed"),
    ("begin_time", _said("Job new begin time is : {}", _ctime),
     "Job begin time is removed"),
    ("term_time", _said("Job new end time is : {}", _ctime),
     "Job terminate time is removed"),
    ("user_priority", _said("New job priority is: {}", int),
     "Job priority changes to default"),
    ("name", _said("Job name changes to : {}"), "Job name changes to default"),
    ("job_group", _said("Job group changes to : {}"),
     "Job group changes to default"),
    ("app", _said("Application profile changes to : {}"),
     "Application profile changes to default"),
    ("estimate", _said("Runtime estimate changes to : {}", _minutes),
     "Runtime estimate is removed"),
    ("description", _said("Job description changes to : {}"),
     "Job description is removed"),
    ("requeue_exit", _said("Requeue exit values change to : {}"),
     "Requeue exit values are removed"),
]
_KNOWN = {key for key, _, _ in TABLE}


def modify_lines(data):
    """The header and the indented lines of one MODIFY event's data."""
    gone = list(data.get("unset") or ())
    # A -Xn key the controller filled again (-Wn: the queue's run limit,
    # -qn: the default queue) is said as the removal LSF words it as.
    new = {key: value for key, value in (data.get("set") or {}).items()
           if key not in gone}
    lines = []
    for key, said, _ in TABLE:
        if key in new and new[key] is not None:
            lines += [INDENT + line + ";" for line in said(new[key])]
    for key, _, removed in TABLE:
        # A limit set or removed takes its host spec along: said once,
        # and only when the host spec alone goes.
        line = INDENT + removed + ";"
        limit = key[:-len("_host")] if key.endswith("_host") else None
        if key in gone and line not in lines and not (
                limit and (limit in new or limit in gone)):
            lines.append(line)
    # A key the table lacks (a new bmod option) is shown, never dropped.
    for key in sorted(set(new) - _KNOWN - _QUIET):
        lines.append(f"{INDENT}{key} changes to : {_words(new[key])};")
    for key in sorted(set(gone) - _KNOWN - _QUIET):
        lines.append(f"{INDENT}{key} is removed;")
    return [HEADER] + lines
