"""Changing jobs in place: bmod, bswitch, brequeue, btop and bbot.

Each command sends one request (kinds ``modify``, ``switch``, ``requeue``,
``move``) and prints what LSF prints for the answer.
"""

import sys

from xce.client import ids
from xce.client.submit import execution, options as sub
from xce.client.submit.execopts import exec_options, requeue_and_mail
from xce.client.submit.limits import parse_limits
from xce.errors import EXIT_FAILURE, XceError, text
from xce.lang import rlimits
from xce.spool.client import call

NOT_MODIFIED = ". Job not modified."


# -- bmod ---------------------------------------------------------------------
def modify_spec(opts, unit, fractions=False):
    """The spec keys bmod sets and the ones its ``-Xn`` forms remove
    (*fractions*: XCE_FRACTIONAL_RUNLIMIT, minutes of -W with decimals)."""
    new, gone = {}, []
    if opts.get("queue"):
        new["queue"] = opts["queue"]
    if opts.get("slots"):
        new["nslots"] = sub.parse_slots(opts["slots"])
    if opts.get("runlimit"):
        new.update(sub.run_fields(opts["runlimit"], fractions))
    if opts.get("memlimit"):
        new["memlimit"] = sub.parse_memlimit(opts["memlimit"], unit)
    if opts.get("name") is not None and opts["name"].startswith("%"):
        # -J "%N": the array's running element limit, not a name
        new["array_limit"] = sub.parse_array_limit(opts["name"][1:])
    elif opts.get("name") is not None:
        sub.check_job_name(opts["name"])
        new["name"] = opts["name"]
    for key, mode in (("stdout", "stdout_mode"), ("stderr", "stderr_mode")):
        for opt, flag in ((key, "a"), (key + "_over", "w")):
            if opts.get(opt):
                new[key], new[mode] = opts[opt], flag
    if opts.get("priority") is not None:
        new["user_priority"] = sub.parse_priority(opts["priority"])
    if opts.get("project"):
        new["project"] = opts["project"]
    if opts.get("cwd") is not None:    # the controller resolves it under
        sub.check_cwd(opts["cwd"])     # the job's submission directory
        new["specified_cwd"] = opts["cwd"]
    if opts.get("stdin"):
        new["stdin"] = opts["stdin"]
    if opts.get("exclusive"):
        new["exclusive"] = True
    if opts.get("user_group"):      # a group, or "~group ..." (one or other)
        new.update(sub.user_group_fields(opts["user_group"]))
        gone += [k for k in ("user_group", "user_group_exclude")
                 if k not in new]
    if opts.get("depend"):
        new["depend"] = opts["depend"]
    for key in ("app", "job_group"):
        if opts.get(key):
            new[key] = opts[key]
    if opts.get("hosts") is not None:
        new["asked_hosts"] = sub.parse_hosts(opts["hosts"])
    if opts.get("resreq"):
        new["resreq"] = list(opts["resreq"])
        merged = _merged_resreq(new["resreq"])
        if merged is not None:
            new["resreq_merged"] = merged
    if opts.get("xfiles"):      # read now, with the user's rights
        from xce.client.submit import stagefiles
        try:
            new["xfiles"] = stagefiles.entries(opts["xfiles"],
                                               sub.submission_cwd())
        except stagefiles.BadStageFile as e:
            raise sub.SubmitError(str(e))
    new.update(execution.modified(opts))
    new.update(exec_options({key: opts.get(key) for key in
                             ("pre_exec", "post_exec", "login_shell")}))
    if opts.get("rerunnable") or opts.get("not_rerunnable"):
        new["rerunnable"] = not opts.get("not_rerunnable")     # -r, -rn
    new.update(requeue_and_mail(opts))
    new.update(parse_limits(opts, unit, fractions))
    if "cpulimit" in new and "cpulimit_host" not in new:
        gone.append("cpulimit_host")    # -c without /host: none any more
    if "runlimit" in new and "runlimit_host" not in new:
        gone.append("runlimit_host")    # the same for -W
    if "estimate" in new and "estimate_host" not in new:
        gone.append("estimate_host")    # and -We
    for flag, keys in REMOVALS.items():
        if opts.get(flag):
            gone += [k for k in keys if k not in new]
    return new, gone


# -Xn option -> the spec keys it removes (LSF falls back to the default).
REMOVALS = {"no_queue": ("queue",), "no_slots": ("nslots",),
            "no_runlimit": ("runlimit", "runlimit_host"), "no_memlimit": ("memlimit",),
            "no_name": ("name",), "no_stdout": ("stdout", "stdout_mode"),
            "no_stderr": ("stderr", "stderr_mode"),
            "no_priority": ("user_priority",), "no_project": ("project",),
            "no_app": ("app",), "no_depend": ("depend",), "no_job_group": ("job_group",),
            "no_hosts": ("asked_hosts",),
            "no_resreq": ("resreq", "resreq_merged"),
            "no_begin_time": ("begin_time",), "no_term_time": ("term_time",),
            "no_estimate": ("estimate", "estimate_host"), "no_description": ("description",),
            "no_xfiles": ("xfiles",),
            "no_pre_exec": ("pre_exec",), "no_post_exec": ("post_exec",),
            "no_requeue_exit": ("requeue_exit",),
            "no_mail_user": ("mail_user",), "no_mail_begin": ("mail_begin",),
            "no_mail_notify": ("mail_notify",), "no_outdir": ("outdir",),
            "no_login_shell": ("login_shell",),
            "no_cwd": ("specified_cwd",), "no_stdin": ("stdin",),
            "no_exclusive": ("exclusive",),
            "no_user_group": ("user_group", "user_group_exclude"),
            "no_gpu": ("gpu",),
            # the job keeps its number of slots, on any hosts
            "no_hostfile": ("hostfile", "hostfile_hosts", "asked_hosts"),
            **{"no_" + limit.key: (limit.key,) for limit in rlimits.LIMITS},
            "no_cpulimit": ("cpulimit", "cpulimit_host")}


def _merged_resreq(words):
    """Check -R as bsub does (the scheduler's parser is pure and light)."""
    try:
        from xce.lang import resreq
    except ImportError:
        return None
    try:
        return str(resreq.merge(words))
    except resreq.ResReqError as e:
        raise sub.SubmitError(str(e))


def bmod(site, label, opts):
    """bmod of one job, one element, or the elements of an index list
    (``"123[1-10:2,15]"``): one request, changed for all or for none."""
    if label == ids.ALL_JOBS:
        raise ids.illegal(label)
    parsed = [list(one) for one in ids.expand(label)]
    try:
        new, gone = modify_spec(
            opts, site.setting("LSF_UNIT_FOR_LIMITS", "KB"),
            sub.fractional_runlimit(site))
    except sub.SubmitError as e:
        raise XceError(f"{e}{NOT_MODIFIED}")
    if not new and not gone:
        raise XceError(text("NO_MODIFICATION") + NOT_MODIFIED)
    reply = call(site, "modify", {"ids": parsed, "set": new, "unset": gone})
    if "results" not in reply:
        raise XceError(f"{reply.get('error') or text('REQUEST_FAILED')}"
                       f"{NOT_MODIFIED}")
    changed = False
    for r in reply["results"]:
        if r.get("ok"):
            print(r["text"])
            changed = True
        else:
            prefix = "" if r.get("plain") or not r.get("job") else \
                f"Job <{r['job']}>: "
            print(f"{prefix}{r.get('error')}{NOT_MODIFIED}", file=sys.stderr)
    if changed:
        execution.announce(new)     # -b/-t: as bsub, what LSF's bmod says
    return 0 if reply.get("ok") else EXIT_FAILURE


# -- btop / bbot --------------------------------------------------------------
def move(site, where, label, position):
    """btop/bbot of a job, an element, or each element of an index list
    (as LSF's btop and bbot take ``"job_ID[index_list]"``), one after the
    other, in the list's order."""
    if label == ids.ALL_JOBS:
        raise ids.illegal(label)
    failed = False
    for one in ids.expand(label):
        failed |= not _move_one(site, where, list(one), position)
    return EXIT_FAILURE if failed else 0


def _move_one(site, where, parsed, position):
    label = parsed[0]
    reply = call(site, "move", {"ids": [parsed], "position": position,
                                "where": where})
    if not reply.get("ok"):
        print(f"{label}: {reply.get('error') or text('REQUEST_FAILED')}",
              file=sys.stderr)
        return False
    # The clones print both lines on stderr.
    if reply.get("beyond"):
        print(f"Warning: position value <{position}> is beyond movable "
              "range.", file=sys.stderr)
    side = "top" if where == "top" else "bottom"
    print(f"Job <{label}> has been moved to position {reply['position']} "
          f"from {side}.", file=sys.stderr)
    return True
