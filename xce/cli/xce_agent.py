"""xce-agent: the per-host daemon that runs jobs."""

import logging
import socket
import sys
from pathlib import Path

import click

from xce import daemon
from xce.cli.common import lsf_command, run
from xce.errors import XceError


@lsf_command(help="Run the xce agent of one host.")
@click.option("--spool", required=True, type=click.Path(file_okay=False),
              help="The cluster's spool directory.")
@click.option("--host", default=None, help="This host's name in the cluster.")
@click.option("--foreground", "-f", is_flag=True,
              help="Stay in the foreground (for tests and systemd).")
def cli(spool, host, foreground):
    host = host or socket.gethostname()
    workdir = Path(spool).resolve() / "agents" / host
    workdir.mkdir(parents=True, exist_ok=True)
    if not foreground:
        argv = [sys.executable, "-m", "xce.cli.xce_agent", "--spool",
                str(Path(spool).resolve()), "--host", host, "--foreground"]
        pid = daemon.detach(argv, workdir / "agent.log")
        print(f"xce-agent started for host {host} (pid {pid})")
        return 0
    daemon.close_stray_fds()
    instance = daemon.Instance(workdir / "agent.lock", workdir / "agent.pid")
    try:
        instance.acquire()
    except daemon.AlreadyRunning as e:
        raise XceError(f"xce-agent: {e}")
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
        instance.release()
    return 0


def main(argv=None):
    run(cli, "xce-agent", argv)


if __name__ == "__main__":
    main()
