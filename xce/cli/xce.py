"""xce start|stop|status: bring up or down the controller and local agents;
xce claim, explain and sim."""

import json
import os
import signal
import sys
import time
from pathlib import Path

import click

from xce import daemon
from xce.cli.common import CONTEXT, run
from xce.client import claims
from xce.client.site import Site, open_store
from xce.errors import XceError, text
from xce.model import states

STOP_TIMEOUT = 15.0
READY_TIMEOUT = 20.0
LOG_LINES = 10          # of the controller's log, shown when it died


def _config(envdir):
    from xce.cli.xce_controller import load_config
    from xce.envdir import envdir as default_envdir
    envdir = Path(envdir).resolve() if envdir else default_envdir()
    return envdir, load_config(envdir)


def _controller_pid(cfg):
    pid = daemon.read_pid(cfg.spool / "store" / "controller.pid")
    return pid if pid and daemon.pid_alive(pid) else None


def _agent_pids(cfg):
    pids = {}
    for pidfile in sorted((cfg.spool / "agents").glob("*/agent.pid")):
        pid = daemon.read_pid(pidfile)
        if pid and daemon.pid_alive(pid):
            pids[pidfile.parent.name] = pid
    return pids


@click.group(context_settings=CONTEXT,
             help="Start, stop or show the xce daemons of an environment.")
def cli():
    pass


_envdir_option = click.option(
    "--envdir", type=click.Path(file_okay=False), default=None,
    help="Directory holding xce.yaml (default $XCE_ENVDIR, else etc/).")


@cli.command(help="Start the controller; it starts the local agent.")
@_envdir_option
def start(envdir):
    envdir, cfg = _config(envdir)
    pid = _controller_pid(cfg)
    if pid:
        print(f"xce-controller is already running (pid {pid})")
        return 0
    argv = [sys.executable, "-m", "xce.cli.xce_controller", "--envdir",
            str(envdir)]
    code = _run_wait(argv)
    pid = _controller_pid(cfg)
    if code or not pid:
        raise XceError(text("CONTROLLER_NOT_STARTED") + _log_tail(cfg))
    _wait_answer(cfg, pid)
    _wait_hosts(cfg, pid)
    return 0


def _wait_answer(cfg, pid):
    """Wait until the controller answers a request: up, not just spawned."""
    from xce.spool.client import read_reply, ring
    deadline = time.monotonic() + READY_TIMEOUT
    req = None
    try:
        while True:
            if req is None:
                req = _ask(cfg)     # once the controller has set up its spool
            elif read_reply(cfg.spool, req.id, req.ctl_uid) is not None:
                return
            if not daemon.pid_alive(pid):
                raise XceError(text("CONTROLLER_EXITED", pid=pid) +
                               _log_tail(cfg))
            if time.monotonic() > deadline:
                raise XceError(text("CONTROLLER_SILENT", pid=pid,
                                    timeout=READY_TIMEOUT) +
                               _log_tail(cfg))
            ring(cfg.spool)
            time.sleep(0.05)
    except XceError:
        if req is not None:     # a later controller need not answer it
            (cfg.spool / "incoming" / f"{req.id}.json").unlink(
                missing_ok=True)
        raise
    finally:
        if req is not None:
            req.listener.close()


def _ask(cfg):
    from types import SimpleNamespace
    from xce.spool.client import Request
    try:
        return Request(SimpleNamespace(spool=cfg.spool), "ping", {})
    except XceError:
        return None


def _log_tail(cfg):
    path = cfg.spool / "store" / "controller.log"
    try:
        lines = path.read_text(errors="replace").splitlines()[-LOG_LINES:]
    except OSError:
        return f"; see {path}"
    return f"; the end of {path}:\n" + "\n".join(f"  {x}" for x in lines)


def _run_wait(argv):
    pid = os.posix_spawn(argv[0], argv, dict(os.environ))
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _wait_hosts(cfg, pid=None, read=None, clock=time.monotonic,
                pause=time.sleep, alive=daemon.pid_alive):
    """Wait until every configured host has an agent, or the controller
    knows why it has none (it records why as soon as an agent's launch or
    its SSH connection fails): each such reason is printed the moment it
    is known.  Hosts that neither answer nor fail are waited for at most
    READY_TIMEOUT seconds.  A controller PID that exits meanwhile ends the
    wait with an error: nobody is left to start the hosts.  READ (tests:
    a stand-in) returns the store's host rows."""
    read = read or _store_hosts(cfg.spool / "store" / "xce.db")
    deadline = clock() + READY_TIMEOUT
    told = set()
    while True:
        if pid is not None and not alive(pid):
            raise XceError(text("CONTROLLER_EXITED", pid=pid) +
                           _log_tail(cfg))
        ready, failed, waiting = _host_verdicts(read())
        for h in failed:
            if h["name"] not in told:
                told.add(h["name"])
                # The controller's reason, as bhosts -l shows it.
                print(text("HOST_UNUSABLE", host=h["name"],
                           status=h["status"], why=_reason(h)),
                      file=sys.stderr, flush=True)
        if ready + failed and not waiting or clock() > deadline:
            break
        pause(0.1)
    for h in ready:
        print(text("HOST_UP", host=h["name"], status=h["status"],
                   slots=h["mxj"]))
    if waiting or not ready + failed:
        print(text("HOSTS_NOT_UP"), file=sys.stderr)


def _store_hosts(path):
    """A reader of the host rows in the store at PATH (none while the
    store cannot be opened), each with "held": its agent was stopped by
    badmin hshutdown and is not started again until hstartup."""
    from xce.client.site import store_at

    def read():
        try:
            with store_at(path) as store:
                hosts, meta = store.hosts(), store.meta()
        except XceError:
            return []
        try:
            held = set(json.loads(meta.get("agents_down") or "[]"))
        except ValueError:
            held = set()
        return [dict(h, held=h["name"] in held) for h in hosts]
    return read


def _host_verdicts(hosts):
    """HOSTS split into (ready, failed, waiting): failed are those the
    controller cannot use and says why; waiting, those still down with
    no reason yet (a host held down is not waited for)."""
    ready, failed, waiting = [], [], []
    for h in hosts:
        if h["status"] in states.HOST_DOWN and _reason(h):
            failed.append(h)
        elif h["status"] in states.HOST_DOWN and not h.get("held"):
            waiting.append(h)
        else:
            ready.append(h)
    return ready, failed, waiting


def _reason(host):
    """Why the controller cannot use HOST (None: no failure known)."""
    return (host["conf"] or {}).get("reason")


@cli.command(help="Stop the controller and the local agents (jobs keep running).")
@_envdir_option
def stop(envdir):
    _, cfg = _config(envdir)
    targets = {}
    pid = _controller_pid(cfg)
    if pid:
        targets["xce-controller"] = pid
    for host, apid in _agent_pids(cfg).items():
        targets[f"xce-agent {host}"] = apid
    if not targets:
        print("xce is not running")
        return 0
    for name, pid in targets.items():
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    for name, pid in targets.items():
        while daemon.pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        state = "still running" if daemon.pid_alive(pid) else "stopped"
        print(f"{name} (pid {pid}) {state}")
    return 0


@cli.command(help="Show whether the daemons run.")
@_envdir_option
def status(envdir):
    _, cfg = _config(envdir)
    pid = _controller_pid(cfg)
    print(f"xce-controller: {'running (pid %d)' % pid if pid else 'stopped'}")
    for host, apid in _agent_pids(cfg).items():
        print(f"xce-agent {host}: running (pid {apid})")
    return 0 if pid else 1


@cli.command(help="Explain a pending job's scheduling decision "
             "(xce explain [-json] JOBID).", add_help_option=False,
             context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
def explain(words):
    # LSF-style options (-json): the light parser reads them.
    from xce.cli import xce_explain
    xce_explain.main(list(words))


@cli.command(help="Replay a workload (an SWF trace) through xce's own "
             "scheduler in virtual time and report waits, slowdowns and "
             "utilization.")
@click.option("--workload", default=None, type=click.Path(dir_okay=False),
              help="The workload: a Standard Workload Format trace.")
@_envdir_option
@click.option("--hosts", default=None, metavar="NxS",
              help="N hosts of S slots each, in place of the "
                   "configuration's hosts.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as one JSON object.")
@click.option("--plot", default=None, type=click.Path(dir_okay=False),
              help="Draw queue length, running slots and utilization "
                   "over time into FILE (PNG, SVG or PDF).")
@click.option("-i", "--interactive", is_flag=True,
              help="Step through the replay with commands read from "
                   "standard input.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error (default: when it "
                   "is a terminal).")
@click.option("--verify", is_flag=True,
              help="Replay the live run in the envdir's store and compare "
                   "every decision with the controller's.")
@click.option("--elim-values", default=None,
              type=click.Path(dir_okay=False),
              help="What the hosts' elims report: lines 'HOST n name1 "
                   "value1 ...' (HOST 'all': every host).")
def sim(workload, envdir, hosts, as_json, plot, interactive, progress,
        verify, elim_values):
    from xce.cli import xce_sim
    sys.exit(xce_sim.run(workload, envdir, hosts, as_json, plot,
                         interactive, progress, verify, elim_values))


@cli.group(help="Hold GPUs of a host or licence tokens for one user's "
             "jobs (cluster administrators), or list what is held.")
def claim():
    pass


@claim.command(help="Claim devices of a host, or tokens of shared "
               "resources, for a user's jobs.")
@click.option("--user", "-u", "user", required=True, help="Whose jobs.")
@click.option("--host", "-m", "host", default=None,
              help="The host (of the devices; of the shared resource's "
                   "instance when it has several).")
@click.option("--gpus", default=None, metavar="ID,...",
              help="The host's device ids (CUDA_VISIBLE_DEVICES numbers).")
@click.option("--counter", "counters", multiple=True, metavar="NAME=AMOUNT",
              help="Tokens of a shared resource (lsf.shared ResourceMap) "
                   "kept for the user's jobs; repeatable.")
@click.option("--until", default=None,
              metavar="[[[YYYY:]MM:]DD:]hh:mm",
              help="End the claim then (as bsub -t; default: until "
                   "removed).")
def add(user, host, gpus, counters, until):
    body = {"op": "add", "user": user}
    if host is not None:
        body["host"] = host
    if gpus is not None:
        body["gpus"] = claims.parse_gpus(gpus)
    if counters:
        body["counters"] = claims.parse_counters(counters)
    if until is not None:
        body["until"] = claims.parse_until(until, time.time())
    return claims.request(Site(), body)


@claim.command(help="Remove a standalone claim.")
@click.argument("claim_id")
def remove(claim_id):
    return claims.request(Site(), {"op": "remove", "claim": claim_id})


@claim.command(name="list", help="List the claims: standalone ones and "
               "what started jobs hold.")
@click.option("--user", "-u", "user", default=None, help="Only this user's.")
@click.option("--host", "-m", "host", default=None, help="Only this host's.")
def list_(user, host):
    with open_store() as reader:
        rows = claims.lines(reader, user, host)
    if len(rows) == 1:
        print("No claim found", file=sys.stderr)
        return 0
    sys.stdout.write(claims.table(rows))
    return 0


@cli.group(help="Gang groups: job groups whose members start together "
           "or not at all (see xce(1)).")
def gang():
    pass


def _gang_size(value):
    """A whole number of at least 1, said in the catalogue's words."""
    try:
        size = int(value, 10)
    except (TypeError, ValueError):
        size = 0
    if size < 1:
        raise XceError(text("GANG_BAD_SIZE", value=value))
    return size


def _gang_policy(value):
    if value not in ("kill", "continue"):
        raise XceError(text("GANG_BAD_POLICY", value=value))
    return value


@gang.command("set", help="Make GROUP (bgadd, bsub -g) a gang of SIZE "
              "members; --on-failure: what a member that exits non-zero "
              "does to the others (default kill).")
@click.argument("group")
@click.option("--size", default=None, metavar="N",
              help="How many pending members start together.")
@click.option("--on-failure", "on_failure", default=None,
              metavar="kill|continue",
              help="kill: end the other members; continue: leave them.")
def gang_set(group, size, on_failure):
    from xce.client.gangs import request
    from xce.client.site import Site
    size = _gang_size(size) if size is not None else None
    policy = _gang_policy(on_failure) if on_failure is not None else None
    sys.exit(request(Site(), "set", group, size, policy))


@gang.command("unset", help="Make GROUP an ordinary job group again.")
@click.argument("group")
def gang_unset(group):
    from xce.client.gangs import request
    from xce.client.site import Site
    sys.exit(request(Site(), "unset", group))


@gang.command("list", help="Show the gang groups.")
def gang_list():
    from xce.client.gangs import show
    from xce.client.site import open_state
    _, reader = open_state()
    with reader:
        sys.exit(show(reader))


def main(argv=None):
    run(cli, "xce", argv)


if __name__ == "__main__":
    main()
