"""xce-controller: the daemon that owns the cluster's state and schedules."""

import logging
import sys
import time
from pathlib import Path

import click

from xce import daemon
from xce.cli.common import lsf_command, run
from xce.errors import XceError, text

# Long enough for a loaded machine: the wait ends at once if it dies.
READY_TIMEOUT = 60.0


def load_config(envdir):
    from xce.config import load as config_load
    try:
        return config_load.load(envdir)
    except config_load.ConfigError as e:
        raise XceError("\n".join(e.errors))


@lsf_command(help="Run the xce controller for an environment directory.")
@click.option("--envdir", type=click.Path(file_okay=False), default=None,
              help="Directory holding xce.yaml (default $XCE_ENVDIR).")
@click.option("--foreground", "-f", is_flag=True,
              help="Stay in the foreground (for tests and systemd).")
def cli(envdir, foreground):
    from xce.envdir import envdir as default_envdir
    envdir = Path(envdir).resolve() if envdir else default_envdir()
    cfg = load_config(envdir)
    store_dir = cfg.spool / "store"
    store_dir.mkdir(parents=True, exist_ok=True)
    if not foreground:
        return _detach(envdir, store_dir)
    daemon.close_stray_fds()
    instance = daemon.Instance(store_dir / "controller.lock",
                               store_dir / "controller.pid")
    try:
        instance.acquire()
    except daemon.AlreadyRunning as e:
        raise XceError(text("ALREADY_RUNNING", daemon="xce-controller",
                            error=e))
    daemon.setup_logging(store_dir / "controller.log", "xce-controller",
                         foreground)
    links = _launch_agents(cfg, store_dir / "xce.db")
    from xce.controller.main import Controller
    from xce.controller.waitloop import run_forever
    ctl = Controller(cfg, envdir, links=links)
    try:
        ctl.start()
        run_forever(ctl)
    except Exception:
        logging.getLogger("xce.controller").exception("controller failed")
        raise
    finally:
        instance.release()
    return 0


def _launch_agents(cfg, db):
    """Launch the local agents first: they start while the controller
    loads its code.  The hosts held down (badmin hshutdown) stay down; when
    the store cannot tell which they are, the controller launches its
    agents later, once it has opened it."""
    from xce.controller import agentctl, agents
    held = agentctl.saved_held(db)
    return {} if held is None else agents.launch_local(cfg, held, time.time())


def _detach(envdir, store_dir):
    argv = [sys.executable, "-m", "xce.cli.xce_controller", "--envdir",
            str(envdir), "--foreground"]
    pid = daemon.detach(argv, store_dir / "controller.log")
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if daemon.read_pid(store_dir / "controller.pid") == pid:
            print(f"xce-controller started (pid {pid})")
            return 0
        if not daemon.pid_alive(pid):
            break
        time.sleep(0.05)
    raise XceError(text("CONTROLLER_NOT_STARTED_LOG",
                        log=store_dir / "controller.log"))


def main(argv=None):
    run(cli, "xce-controller", argv)


if __name__ == "__main__":
    main()
