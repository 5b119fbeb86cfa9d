"""bmod: change the options of a submitted job."""

import click

from xce.cli.common import lsf_command, run
from xce.client.modify import bmod
from xce.client.site import Site
from xce.errors import text


def _flag(name, dest, what):
    return click.option(name, dest, is_flag=True, help=f"Remove {what}.")


@lsf_command(help="Modify a pending job (any option below) or a running one "
             "(-W, -M, -o, -e only).")
@click.option("-q", "queue", metavar="queue_name", help="Move to this queue.")
@click.option("-n", "slots", metavar="min[,max]", help="Number of slots.")
@click.option("-W", "runlimit", metavar="[hour:]minute", help="Run limit.")
@click.option("-M", "memlimit", metavar="limit[unit]", help="Memory limit.")
@click.option("-R", "resreq", multiple=True, metavar="res_req",
              help="Resource requirement (replaces the old one).")
@click.option("-m", "hosts", metavar="host_list",
              help="Run only on these hosts or host groups (replaces -m).")
@click.option("-J", "name", metavar="job_name", help="Job name.")
@click.option("-o", "stdout", metavar="file", help="Append stdout to file.")
@click.option("-oo", "stdout_over", metavar="file", help="Write stdout to file.")
@click.option("-e", "stderr", metavar="file", help="Append stderr to file.")
@click.option("-eo", "stderr_over", metavar="file", help="Write stderr to file.")
@click.option("-sp", "priority", metavar="priority",
              help="User priority.")
@click.option("-P", "project", metavar="project", help="Project name.")
@_flag("-qn", "no_queue", "-q: back to the default queue")
@_flag("-nn", "no_slots", "-n: one slot")
@_flag("-Wn", "no_runlimit", "the run limit")
@_flag("-Mn", "no_memlimit", "the memory limit")
@_flag("-Rn", "no_resreq", "the resource requirement")
@_flag("-mn", "no_hosts", "the host list (-m)")
@_flag("-Jn", "no_name", "the job name")
@_flag("-on", "no_stdout", "the output file")
@_flag("-en", "no_stderr", "the error file")
@_flag("-spn", "no_priority", "the user priority")
@_flag("-Pn", "no_project", "the project")
@click.argument("jobid", required=False)
def cli(jobid, **opts):
    if jobid is None:
        raise click.UsageError(text("JOBID_NEEDED"))
    return bmod(Site(), jobid, opts)


def main(argv=None):
    run(cli, "bmod", argv)


if __name__ == "__main__":
    main()
