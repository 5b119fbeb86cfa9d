"""bmod: change the options of a submitted job."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.modify import NOT_MODIFIED, bmod
from xce.client.site import Site
from xce.errors import text
from xce.lang import rlimits


def _removes(flag, dest, what):
    return Opt(flag, dest, takes=False, help=f"Remove {what}.")


OPTIONS = [
    Opt("-q", "queue", metavar="queue_name", help="Move to this queue."),
    Opt("-n", "slots", metavar="min[,max]", help="Number of slots."),
    Opt("-W", "runlimit", metavar="[hour:]minute", help="Run limit."),
    Opt("-M", "memlimit", metavar="limit[unit]", help="Memory limit."),
    Opt("-R", "resreq", multiple=True, metavar="res_req",
        help="Resource requirement (replaces the old one)."),
    Opt("-m", "hosts", metavar="host_list",
        help="Run only on these hosts or host groups (replaces -m)."),
    # -J "": LSF's own words (Bad job name), from the name's check.
    Opt("-J", "name", metavar="job_name", help="Job name.", empty=True),
    Opt("-o", "stdout", metavar="file", help="Append stdout to file."),
    Opt("-oo", "stdout_over", metavar="file", help="Write stdout to file."),
    Opt("-e", "stderr", metavar="file", help="Append stderr to file."),
    Opt("-eo", "stderr_over", metavar="file", help="Write stderr to file."),
    Opt("-sp", "priority", metavar="priority", help="User priority."),
    Opt("-P", "project", metavar="project", help="Project name."),
    Opt("-b", "begin_time", metavar="[[[year:]month:]day:]hour:minute",
        help="Begin time."),
    Opt("-t", "term_time", metavar="[[[year:]month:]day:]hour:minute",
        help="Termination time."),
    Opt("-We", "estimate", metavar="[hour:]minute",
        help="Run-time estimate."),
    Opt("-Jd", "description", metavar="job_description",
        help="Job description."),
    Opt("-app", "app", metavar="application_profile_name",
        help="Move to this application profile."),
    Opt("-g", "job_group", metavar="job_group_name",
        help="Move to this job group (created if missing)."),
    Opt("-E", "pre_exec", metavar='"pre_exec_command [arguments ...]"',
        help="Job-based pre-execution command."),
    Opt("-Ep", "post_exec", metavar='"post_exec_command [arguments ...]"',
        help="Job-based post-execution command."),
    Opt("-Q", "requeue_exit",
        metavar='"exit_code ... [EXCLUDE(exit_code ...)]"',
        help="Requeue exit values."),
    Opt("-u", "mail_user", metavar="mail_user",
        help="Mail the job's notices to this address."),
    Opt("-B", "mail_begin", takes=False,
        help="Mail when the job is dispatched."),
    Opt("-N", "mail_notify", takes=False,
        help="Mail the job report at the end, even with -o."),
    Opt("-outdir", "outdir", metavar="output_directory",
        help="Output directory, created at the job's start."),
    Opt("-hostfile", "hostfile", metavar="file_path",
        help="Hosts to run on, one line per slot (replaces -n and -m)."),
    Opt("-L", "login_shell", metavar="login_shell",
        help="Initialise the job's environment with this login shell."),
    Opt("-cwd", "cwd", metavar='"current_working_directory"',
        help="Working directory (a relative one: under the submission "
        "directory)."),
    Opt("-i", "stdin", metavar="input_file", help="Read stdin from file."),
    Opt("-G", "user_group", metavar="user_group",
        help="User group the job is charged to (as bsub -G)."),
    Opt("-gpu", "gpu", metavar='- | "num=n[/task]:mode=shared|'
        'exclusive_process:mps=no:j_exclusive=yes|no:gmodel=name[-size]:'
        'gmem=size"', help="GPUs the job needs, as bsub -gpu."),
    Opt("-x", "exclusive", takes=False,
        help="Exclusive execution (the queue must be EXCLUSIVE)."),
    Opt("-r", "rerunnable", takes=False,
        help="Rerunnable: requeue the job if its host is lost."),
    Opt("-rn", "not_rerunnable", takes=False,
        help="Not rerunnable, whatever the queue says."),
    Opt("-w", "depend", metavar="'dependency_expression'",
        help="Dependency condition (replaces the old one)."),
    _removes("-wn", "no_depend", "the dependency condition"),
    _removes("-En", "no_pre_exec", "the pre-execution command"),
    _removes("-Epn", "no_post_exec", "the post-execution command"),
    _removes("-Qn", "no_requeue_exit", "the requeue exit values"),
    _removes("-un", "no_mail_user", "the mail address"),
    _removes("-Bn", "no_mail_begin", "the mail at dispatch (-B)"),
    _removes("-Nn", "no_mail_notify", "the mail of the job report (-N)"),
    _removes("-outdirn", "no_outdir", "the output directory"),
    _removes("-hostfilen", "no_hostfile", "the host file"),
    _removes("-Ln", "no_login_shell", "the login shell"),
    _removes("-cwdn", "no_cwd", "-cwd: the submission directory again"),
    _removes("-in", "no_stdin", "the input file"),
    _removes("-xn", "no_exclusive", "exclusive execution (-x)"),
    _removes("-Gn", "no_user_group", "the user group (-G)"),
    _removes("-gpun", "no_gpu", "the GPU requirement (-gpu)"),
    _removes("-bn", "no_begin_time", "the begin time"),
    _removes("-tn", "no_term_time", "the termination time"),
    _removes("-Wen", "no_estimate", "the run-time estimate"),
    _removes("-Jdn", "no_description", "the job description"),
    _removes("-qn", "no_queue", "-q: back to the default queue"),
    _removes("-nn", "no_slots", "-n: one slot"),
    _removes("-Wn", "no_runlimit", "the run limit"),
    _removes("-Mn", "no_memlimit", "the memory limit"),
    _removes("-Rn", "no_resreq", "the resource requirement"),
    _removes("-mn", "no_hosts", "the host list (-m)"),
    _removes("-Jn", "no_name", "the job name"),
    _removes("-on", "no_stdout", "the output file"),
    _removes("-en", "no_stderr", "the error file"),
    _removes("-spn", "no_priority", "the user priority"),
    _removes("-Pn", "no_project", "the project"),
    _removes("-appn", "no_app", "the application profile"),
    _removes("-gn", "no_job_group", "the job group"),
    Opt("-f", "xfiles", multiple=True,
        metavar='"local_file op [remote_file]"',
        help="Files to copy, as bsub -f (replace the job's; repeatable)."),
    _removes("-fn", "no_xfiles", "the files to copy (-f)"),
]
# bsub's limit options (xce.lang.rlimits), each with its -Xn form; a
# pending job's only, as the controller checks.
OPTIONS += [Opt(limit.option, limit.key, metavar=limit.name.lower(),
                help=f"{limit.name}, as bsub {limit.option} sets it.")
            for limit in rlimits.LIMITS]
OPTIONS += [_removes(limit.option + "n", "no_" + limit.key,
                     f"{limit.name} (back to the queue's default)")
            for limit in rlimits.LIMITS]
# The rest of LSF 10.1's bmod options, each with its -Xn cancel form where
# LSF has one.
UNSUPPORTED = (
    "-ar", "-arn", "-a", "-aps", "-apsn", "-clusters", "-clustersn",
    "-data", "-datan", "-datagrp", "-datagrpn", "-eptl", "-eptln",
    "-ext", "-extsched", "-freq", "-freqn",
    "-is", "-isn", "-k", "-kn", "-Lp", "-mig",
    "-mign", "-Ne", "-network", "-networkn", "-notify", "-notifyn", "-ptl",
    "-ptln", "-rnc", "-rncn", "-s", "-sn", "-sla", "-slan",
    "-smt", "-smtn", "-stage", "-stagen", "-ti", "-tin", "-U", "-Un", "-Wep",
    "-We+", "-wa", "-wan", "-wt", "-wtn", "-Z", "-Zs",
    "-Zsn")
# A setting and its removal in one command line.
CONFLICTS = [(o.flags[0], o.flags[0] + "n") for o in OPTIONS
             if o.flags[0] + "n" in {f for x in OPTIONS for f in x.flags}]
PARSER = Parser("bmod", OPTIONS, args_metavar="job_ID | \"job_ID[index_list]\"",
                help_text="Modify a pending job (any option below) or a "
                "running one (-c, -W, -M, -o, -e only).",
                refused=UNSUPPORTED, conflicts=CONFLICTS,
                empty_values=False,     # as bsub: "" is no value
                not_done=NOT_MODIFIED)


def _action(opts, args):
    if not args:
        raise UsageError(text("JOBID_NEEDED", "bmod"))
    if len(args) > 1:
        raise UsageError(text("EXTRA_ARGUMENTS", prog="bmod", word=args[1]))
    return bmod(Site(), args[0], opts)


def main(argv=None):
    run(PARSER, _action, argv)


if __name__ == "__main__":
    main()
