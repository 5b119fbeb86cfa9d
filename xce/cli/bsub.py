"""bsub: submit a job.

Forms: ``bsub [options] command [args]``, ``bsub [options] < script`` and
``bsub [options] script`` (a text file, copied at submit time; its ``#BSUB``
lines are options, and the command line wins over them).
"""

import sys

from xce import oslite
from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.requests import call
from xce.client.site import Site
# esubcheck at start (it imports os alone): the bundle of the commands'
# modules (xce.cli.bundle) holds what bsub imports at start, and every
# submission asks it.
from xce.client.submit import esubcheck, execution, options as sub
from xce.client.submit.execopts import exec_options, requeue_and_mail
from xce.client.submit.limits import parse_limits
from xce.errbase import XceError, about, text

NOT_SUBMITTED = ". Job not submitted."


OPTIONS = [
    # -J "": LSF's own words (Bad job name), from the name's check.
    Opt("-J", "name", metavar="job_name", help="Job name.", empty=True),
    Opt("-q", "queue", metavar="queue_name", help="Queue(s)."),
    Opt("-n", "slots", metavar="min[,max]", help="Number of slots."),
    Opt("-o", "stdout", metavar="file", help="Append stdout (and stderr) to file."),
    Opt("-oo", "stdout_over", metavar="file", help="Write stdout to file, overwriting."),
    Opt("-e", "stderr", metavar="file", help="Append stderr to file."),
    Opt("-eo", "stderr_over", metavar="file", help="Write stderr to file, overwriting."),
    Opt("-i", "stdin", metavar="file", help="Read stdin from file."),
    Opt("-f", "xfiles", multiple=True, metavar='"local_file op [remote_file]"',
        help="Copy a file to (>) or back from (< <<) the execution host, or both (>< <>); repeatable."),
    Opt("-cwd", "cwd", metavar="dir", help="Working directory of the job."),
    Opt("-W", "runlimit", metavar="[hour:]minute", help="Run limit."),
    Opt("-M", "memlimit", metavar="limit[unit]", help="Memory limit."),
    Opt("-c", "cpulimit", metavar="[hour:]minute[/host_name|/host_model]",
        help="CPU time limit of the whole job (normalised)."),
    Opt("-v", "swaplimit", metavar="swap_limit", help="Virtual memory limit of the whole job."),
    Opt("-S", "stacklimit", metavar="stack_limit", help="Per-process stack size limit."),
    Opt("-F", "filelimit", metavar="file_limit", help="Per-process file size limit."),
    Opt("-D", "datalimit", metavar="data_limit", help="Per-process data segment size limit."),
    Opt("-C", "corelimit", metavar="core_limit", help="Per-process core file size limit."),
    Opt("-p", "processlimit", metavar="process_limit", help="Processes of the job at one time."),
    Opt("-T", "threadlimit", metavar="thread_limit", help="Threads of the job at one time."),
    Opt("-env", "env", metavar="all|none|vars", help="Environment to pass."),
    Opt("-w", "depend", metavar="'dependency_expression'", help="Dependency condition."),
    Opt("-m", "hosts", metavar='"host_name[+[pref_level]] ..."',
        help="Run only on these hosts or host groups; +N prefers them (higher first)."),
    Opt("-R", "resreq", multiple=True, metavar="res_req", empty=True, help="Resource requirement (repeatable)."),
    Opt("-P", "project", metavar="project", help="Project name."),
    Opt("-G", "user_group", metavar="user_group", help="User group the job is charged to."),
    Opt("-g", "job_group", metavar="job_group_name", help="Job group (an absolute path such as /proj/run)."),
    Opt("-app", "app", metavar="application_profile_name", help="Application profile."),
    Opt("-sp", "priority", metavar="priority", help="User priority."),
    Opt("-H", "hold", takes=False, help="Hold the job (PSUSP) until bresume."),
    Opt("-x", "exclusive", takes=False, help="Exclusive execution: the job's hosts run no other job."),
    Opt("-K", "block", takes=False, help="Wait for the job to finish."),
    Opt("-r", "rerunnable", takes=False, help="Rerunnable: requeue the job if its host is lost."),
    Opt("-rn", "not_rerunnable", takes=False, help="Not rerunnable, whatever the queue says."),
    Opt("-Q", "requeue_exit", empty=True, metavar='"exit_code ... [EXCLUDE(exit_code ...)]"',
        help="Requeue the job when it exits with one of these values."),
    Opt("-u", "mail_user", empty=True, metavar="mail_user", help="Mail the job's notices to this address."),
    Opt("-B", "mail_begin", takes=False, help="Mail when the job is dispatched."),
    Opt("-N", "mail_notify", takes=False, help="Mail the job report at the end, even with -o."),
    Opt("-V", "version", takes=False, help="Print the version and exit."),
    Opt("-pack", "pack", metavar="job_submission_file", help="Submit one job per line of the file, in one request."),
    Opt("-nnodes", "nnodes", metavar="number", help="Run on this many whole hosts, exclusively."),
    Opt("-b", "begin_time", metavar="[[[year:]month:]day:]hour:minute", help="Begin time: dispatch on or after it."),
    Opt("-t", "term_time", metavar="[[[year:]month:]day:]hour:minute", help="Termination deadline."),
    Opt("-We", "estimate", metavar="[hour:]minute", help="Run time estimate (for scheduling; not a limit)."),
    Opt("-outdir", "outdir", metavar="output_directory", help="Output directory, created at the job's start (%J %I %U %P %G %H %JG %EJ %EI)."),
    Opt("-Jd", "description", metavar="job_description", help="Job description."),
    Opt("-gpu", "gpu", metavar='- | "num=n[/task]:mode=shared|exclusive_process:mps=no:j_exclusive=yes|no:gmodel=name[-size]:gmem=size"', help="GPUs the job needs ('-': the configured defaults)."),
    Opt("-hostfile", "hostfile", metavar="file_path", help="Hosts to run on, one line per slot, in order."),
    Opt("-E", "pre_exec", metavar='"pre_exec_command [arguments ...]"', help="Pre-execution command, run before the job on its first host."),
    Opt("-Ep", "post_exec", metavar='"post_exec_command [arguments ...]"', help="Post-execution command, run after the job on its first host."),
    Opt("-L", "login_shell", metavar="login_shell", help="Initialise the job's environment with this login shell."),
    Opt("-I", "inter_I", takes=False, help="Interactive job: its input and output on this terminal."),
    Opt("-Ip", "inter_Ip", takes=False, help="Interactive job on a pseudo-terminal."),
    Opt("-Is", "inter_Is", takes=False, help="Interactive job on a pseudo-terminal, in shell mode (bsub -Is bash)."),
    Opt("-a", "esub", metavar='"application_name ..."', help="Run LSF_SERVERDIR/esub.application_name (and epsub) for the job."),
]
# LSF bsub options xce does not support yet (bsub(1) lists them; a test
# holds the two together): each is refused whole, an option being a
# whole word.
UNSUPPORTED = ("-k", "-U", "-sla")
# The rest of LSF 10.1's bsub options: interactive and X11 jobs, CSM and
# multicluster, data staging, job files in other formats, and options of
# LSF features xce does not have (checkpointing, advance reservations,
# esub); refused whole like UNSUPPORTED.
OTHER_LSF = ("-IS", "-ISp", "-ISs", "-IX", "-XF", "-tty", "-is",
             "-Zs", "-ar", "-alloc_flags", "-clusters", "-cn_cu", "-cn_mem",
             "-core_isolation", "-csm", "-data", "-datachk", "-datagrp",
             "-eptl", "-ptl", "-ext", "-extsched", "-freq", "-hl", "-jobaff",
             "-jsdl", "-jsdl_strict", "-jsm", "-json", "-yaml", "-Lp",
             "-ln_mem", "-ln_slots", "-mig", "-Ne", "-network", "-notify",
             "-rcacct", "-rnc", "-s", "-smt", "-stage", "-step_cgroup",
             "-ti", "-ul", "-wa", "-wt")
# LSF's interactive modes exclude each other and -K; an interactive job
# is never rerun (bsub(1)).
INTERACTIVE = ("-I", "-Ip", "-Is")
CONFLICTS = [(a, b) for i, a in enumerate(INTERACTIVE)
             for b in INTERACTIVE[i + 1:] + ("-K", "-r", "-pack")]
PARSER = Parser("bsub", OPTIONS, args_metavar="command [arguments]",
                help_text="Submit a job to the batch system.",
                stop_at_first_arg=True, conflicts=CONFLICTS,
                empty_values=False, not_done=NOT_SUBMITTED,
                refused=UNSUPPORTED + OTHER_LSF)     # a set: once each


def _parse(words):
    """Options and command of a bsub command line (or of #BSUB lines)."""
    values, args = PARSER.parse(list(words))
    values["command"] = tuple(args)
    return values


def _merge(cli_opts, script_opts):
    """Command-line options win over #BSUB lines."""
    merged = dict(script_opts)
    for key, value in cli_opts.items():
        if value not in (None, False, ()):
            merged[key] = value
    return merged


def _read_stdin_script():
    if sys.stdin is None:
        return ""
    if sys.stdin.isatty():
        lines = []
        while True:
            try:
                lines.append(input("bsub> "))
            except EOFError:
                break
        return "\n".join(lines) + "\n"
    return sys.stdin.read()


def _job_text(opts):
    """(command string, job file text or None, args of a copied script)."""
    words = list(opts["command"])
    if not words:
        script = _read_stdin_script()
        if not any(l.strip() and not l.lstrip().startswith("#")
                   for l in script.splitlines()):
            raise sub.SubmitError(text("SCRIPT_NO_COMMAND"))
        # LSF shows a spooled script by its first line (often "#!/bin/sh").
        first = next(l for l in script.splitlines() if l.strip())
        return first.strip(), script, []
    script = sub.read_script_file(words[0]) if len(words) >= 1 and \
        ("/" in words[0] or oslite.isfile(words[0])) else None
    command = " ".join(words)
    if not command.strip():
        raise sub.SubmitError(text("EMPTY_JOB"))  # bsub '' (LSBE_EMPTY_JOB)
    if script is not None:
        return command, script, words[1:]
    return command, None, []


def build_spec(opts, site):
    command, script, script_args = _job_text(opts)
    if script is not None:
        embedded = _parse(sub.bsub_lines(script))
        if embedded["command"]:
            # A word that is no option would end the options and drop
            # every #BSUB line after it.
            raise sub.SubmitError(about(embedded["command"][0],
                                        "BAD_ARGUMENT"))
        opts = _merge(opts, embedded)
    _check_job_name(opts["name"])
    unit = site.setting("LSF_UNIT_FOR_LIMITS", "KB")
    subcwd = sub.submission_cwd()
    asked_cwd = sub.asked_cwd(opts["cwd"])
    stdout = opts["stdout_over"] or opts["stdout"]
    stderr = opts["stderr_over"] or opts["stderr"]
    spec = {
        "command": command, "name": opts["name"], "queue": opts["queue"],
        "nslots": sub.parse_slots(opts["slots"]),
        "stdout": stdout, "stdout_mode": "w" if opts["stdout_over"] else "a",
        "stderr": stderr, "stderr_mode": "w" if opts["stderr_over"] else "a",
        "stdin": opts["stdin"], "specified_cwd": asked_cwd,
        "cwd": sub.resolve_cwd(asked_cwd, subcwd), "subcwd": subcwd,
        **sub.run_fields(opts["runlimit"], sub.fractional_runlimit(site)),
        "memlimit": sub.parse_memlimit(opts["memlimit"], unit),
        **parse_limits(opts, unit, sub.fractional_runlimit(site)),
        "env_rule": opts["env"] or "all",
        "env": sub.job_environment(opts["env"], oslite.environ()),
        "resreq": list(opts["resreq"]), "project": opts["project"] or
        oslite.getenv("LSB_DEFAULTPROJECT") or None,   # None: the
        # controller's default (the user's, then DEFAULT_PROJECT)
        "user_priority": sub.parse_priority(opts["priority"]),
        "hold": bool(opts["hold"]),
        "depend": opts["depend"],
        "from_host": sub.from_host(),
    }
    for key in _NAMED:
        if opts.get(key):
            spec[key] = opts[key]
    if opts.get("user_group"):
        del spec["user_group"]
        spec.update(sub.user_group_fields(opts["user_group"]))
    if not opts.get("job_group") and oslite.getenv("LSB_DEFAULT_JOBGROUP"):
        # In place of DEFAULT_JOBGROUP, %-substituted by the controller.
        spec["default_jobgroup"] = oslite.getenv("LSB_DEFAULT_JOBGROUP")
    if opts.get("xfiles"):
        spec["xfiles"] = _stage_files(opts["xfiles"], subcwd)
    if opts.get("hosts") is not None:
        spec["asked_hosts"] = sub.parse_hosts(opts["hosts"])
    if opts.get("exclusive"):
        spec["exclusive"] = True
    if opts["slots"] is None:
        spec["nslots_default"] = True
    spec.update(exec_options(opts))
    if opts.get("rerunnable") or opts.get("not_rerunnable"):
        # -rn wins: the job must never run twice, whatever the queue says.
        spec["rerunnable"] = not opts.get("not_rerunnable")
    spec.update(requeue_and_mail(opts))
    if script is not None:
        spec["jobfile"] = script
        spec["args"] = script_args
    execution.add(spec, opts, site)
    _check_resreq(spec)
    return spec


# Names a job is filed under; the controller checks them against the
# configuration (application profiles, user groups).
_NAMED = ("user_group", "job_group", "app")


def _stage_files(args, subcwd):
    """bsub -f: LSF's message for a bad one, before anything is sent."""
    from xce.client.submit import stagefiles
    try:
        return stagefiles.entries(args, subcwd)
    except stagefiles.BadStageFile as e:
        raise sub.SubmitError(str(e))


# arrayspec.MAX_JOB_NAME_LENGTH, which a plain name is checked against
# without loading arrayspec (tests/unit/test_lean_parsers.py holds them
# together).
_PLAIN_NAME_MAX = 4094


def _check_job_name(name):
    """A plain name, or an array `name[1-10:2,20]%5` (sizes are checked by
    the controller, which knows MAX_JOB_ARRAY_SIZE)."""
    if name is None or "[" not in name and "]" not in name and \
            0 < len(name) <= _PLAIN_NAME_MAX:
        return      # plain: arrayspec (re, dataclasses, typing) not needed
    from xce.model import arrayspec
    try:
        arrayspec.check_job_name(name)
    except arrayspec.ArraySpecError as e:
        raise sub.SubmitError(e.message)


def _check_resreq(spec):
    """Reject a bad -R at submit rather than keep it silently."""
    if not spec["resreq"]:
        return
    try:
        from xce.lang import resreq
    except ImportError:
        return
    try:
        spec["resreq_merged"] = str(resreq.merge(spec["resreq"]))
    except resreq.ResReqError as e:
        raise sub.SubmitError(str(e))


def submit(opts):
    if opts["version"]:
        from xce import __version__, LSF_COMPAT_VERSION
        print(f"xce {__version__} (LSF {LSF_COMPAT_VERSION} compatible)",
              file=sys.stderr)
        return 0
    site = Site()
    if opts["pack"]:
        return _submit_pack(opts, site)
    esub = _esub_module(site, opts)
    if esub is not None:
        try:
            opts = esub.run_esubs(site, opts, _parse_line)
        except XceError as e:
            raise XceError(f"{e}{NOT_SUBMITTED}")
    # LSB_DEFAULTQUEUE: the environment's, else lsf.conf's.
    default_queue = site.setting("LSB_DEFAULTQUEUE")
    if not opts["queue"] and default_queue:
        opts["queue"] = default_queue
        queue_from_env = True
    else:
        queue_from_env = False
    try:
        spec = build_spec(opts, site)
        session = _interactive(opts, spec)
    except sub.SubmitError as e:
        raise XceError(f"{e}{NOT_SUBMITTED}")
    spec["queue_is_default"] = queue_from_env
    reply = call(site, "submit", {"spec": spec})
    if not reply.get("ok"):
        raise XceError(f"{reply.get('error')}{NOT_SUBMITTED}")
    jobid, queue = reply["jobid"], reply["queue"]
    where = "default queue" if reply.get("default") else "queue"
    line = f"Job <{jobid}> is submitted to {where} <{queue}>."
    if not oslite.getenv("BSUB_QUIET"):
        print(line, file=sys.stderr if oslite.getenv("BSUB_STDERR")
              else sys.stdout, flush=True)
    if esub is not None:
        esub.run_epsubs(site, opts, jobid, queue)
    execution.announce(spec)
    if session is not None:
        return session.run(site, jobid)
    if opts["block"]:
        from xce.client.submit.wait import wait_for_job
        return wait_for_job(site, jobid)
    return 0


def interactive_mode(opts):
    """I, Ip or Is for bsub -I, -Ip, -Is; None for a batch job."""
    return next((m for m in ("I", "Ip", "Is") if opts.get("inter_" + m)),
                None)


def _interactive(opts, spec):
    """The terminal session of an interactive job (its listening socket
    and key go in *spec*), or None: a batch bsub loads none of it."""
    mode = interactive_mode(opts)
    if mode is None:
        return None
    if "[" in (spec.get("name") or ""):
        raise sub.SubmitError(text("INTERACTIVE_ARRAY"))
    from xce.client.submit.interactive import Session
    session = Session(mode)
    spec.update(session.spec_fields())
    return session


def _esub_module(site, opts):
    """xce.client.submit.esub when the site or the job has an esub or
    epsub (loaded only then: bsub starts lean without one)."""
    if not esubcheck.wanted(site, opts.get("esub")):
        return None
    from xce.client.submit import esub
    return esub


def _submit_pack(opts, site):
    """bsub -pack file: the file's lines are the only submissions."""
    from xce.client.submit.pack import submit_pack
    if opts["command"]:
        raise XceError(text("PACK_ALONE") + NOT_SUBMITTED)
    if _esub_module(site, opts) is not None:
        raise XceError(text("ESUB_PACK") + NOT_SUBMITTED)
    queue_env = site.setting("LSB_DEFAULTQUEUE")

    def build(line_opts):
        if interactive_mode(line_opts):
            raise sub.SubmitError(text("INTERACTIVE_PACK"))
        from_env = not line_opts["queue"] and bool(queue_env)
        if from_env:
            line_opts["queue"] = queue_env
        spec = build_spec(line_opts, site)
        spec["queue_is_default"] = from_env
        return spec
    return submit_pack(site, opts["pack"], _parse_line, build, call)


def _parse_line(words):
    try:
        return _parse(words)
    except UsageError as e:
        raise XceError(str(e))


def main(argv=None):
    run(PARSER, lambda values, args: submit(dict(values, command=tuple(args))),
        argv)


if __name__ == "__main__":
    main()
