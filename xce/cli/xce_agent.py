"""xce-agent: the per-host daemon that runs jobs."""

import logging
import os
import socket
import sys
from pathlib import Path

import click

from xce import daemon
from xce.cli.common import lsf_command, run
from xce.errors import XceError, text


@lsf_command(help="Run the xce agent of one host.")
@click.option("--spool", required=True, type=click.Path(file_okay=False),
              help="The cluster's spool directory.")
@click.option("--host", default=None, help="This host's name in the cluster.")
@click.option("--foreground", "-f", is_flag=True,
              help="Stay in the foreground (for tests and systemd).")
@click.option("--attach", is_flag=True,
              help="Connect stdin/stdout to this host's agent, starting it "
                   "when none runs (the controller runs this over SSH).")
@click.option("--no-launch", is_flag=True,
              help="With --attach: never start the agent (launch: none).")
def cli(spool, host, foreground, attach, no_launch):
    host = host or socket.gethostname()
    if attach:
        from xce.agent.attach import attach as attach_agent
        return attach_agent(Path(spool).resolve(), host, not no_launch)
    workdir = Path(spool).resolve() / "agents" / host
    workdir.mkdir(parents=True, exist_ok=True)
    if not foreground:
        argv = [sys.executable, "-m", "xce.cli.xce_agent", "--spool",
                str(Path(spool).resolve()), "--host", host, "--foreground"]
        pid = daemon.detach(argv, workdir / "agent.log")
        print(f"xce-agent started for host {host} (pid {pid})")
        return 0
    daemon.close_stray_fds()
    _prepare_spool(Path(spool).resolve())
    instance = daemon.Instance(workdir / "agent.lock", workdir / "agent.pid")
    try:
        instance.acquire()
    except daemon.AlreadyRunning as e:
        raise XceError(text("ALREADY_RUNNING", daemon="xce-agent", error=e))
    daemon.setup_logging(workdir / "agent.log", "xce-agent", foreground)
    daemon.become_subreaper()
    from xce.agent.server import AgentServer
    server = AgentServer(host, workdir, Path(spool).resolve() / "output")
    try:
        server.listen()
        server.serve()
    except Exception:
        logging.getLogger("xce.agent").exception("agent failed")
        raise
    finally:
        if not server.restart:
            instance.release()
    if server.restart:
        _reexec(spool, host)
    return 0


def _reexec(spool, host):
    """badmin hrestart: become a fresh agent in this same process (no child
    is made; the pid, hence the pid file and the jobs' parent, stay).  The
    lock's descriptor closes on exec and the new image takes it again, then
    re-adopts the running jobs from the journal as after a kill -9."""
    logging.getLogger("xce.agent").info("restarting")
    logging.shutdown()
    argv = [sys.executable, "-m", "xce.cli.xce_agent", "--spool",
            str(Path(spool).resolve()), "--host", host, "--foreground"]
    os.execv(argv[0], argv)


def _prepare_spool(spool):
    """An agent on its own host may be the first to use its spool: job
    output without -o goes to per-user directories under output/."""
    out = spool / "output"
    if not out.is_dir():
        out.mkdir(exist_ok=True)
        os.chmod(out, 0o1777)


def main(argv=None):
    run(cli, "xce-agent", argv)


if __name__ == "__main__":
    main()
