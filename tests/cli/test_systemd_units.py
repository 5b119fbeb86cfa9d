"""The systemd units under etc/systemd/ start the daemons as systemd would
(their ExecStart lines, run here with the checkout's commands), and
stopping a unit (SIGTERM to its main process only: KillMode=process) stops
the daemon without touching the jobs."""

import configparser
import os
import shlex
import signal
import subprocess
from pathlib import Path

import pytest

from tests.lib.xcecluster import BIN, _alive, _read_pid, wait_for

UNITS = Path(__file__).resolve().parents[2] / "etc" / "systemd"


def _unit(name):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNITS / name)
    return parser


def _argv(service, env, instance=None):
    """ExecStart as systemd expands it: Environment=, ${VAR}, %i, and the
    installed commands' directory (the checkout's bin/ here)."""
    for item in shlex.split(service.get("Environment", "")):
        key, _, value = item.partition("=")
        env.setdefault(key, value)
    argv = []
    for word in shlex.split(service["ExecStart"]):
        for key, value in env.items():
            word = word.replace("${%s}" % key, value)
        if instance is not None:
            word = word.replace("%i", instance)
        argv.append(word.replace("/usr/local/bin/", f"{BIN}/"))
    return argv


@pytest.mark.parametrize("name", ["xce-controller.service",
                                  "xce-agent@.service"])
def test_units_keep_jobs_alive_when_stopped(name):
    service = _unit(name)["Service"]
    assert service["KillMode"] == "process"
    assert service["Type"] == "simple" and " -f" in service["ExecStart"]


def test_controller_unit_runs_the_cluster_and_its_stop_spares_the_jobs(
        make_cluster):
    clu = make_cluster(start=False)
    argv = _argv(_unit("xce-controller.service")["Service"],
                 {"XCE_ENVDIR": str(clu.envdir)})
    assert argv[0] == str(BIN / "xce-controller")
    log = open(clu.root / "unit.out", "ab")
    clu.proc = subprocess.Popen(argv, env=clu.env, stdout=log, stderr=log,
                                stdin=subprocess.DEVNULL)
    log.close()
    wait_for(clu._hosts_ok, what="the unit's controller and its agent")
    jobid = clu.submit("sleep 60")
    clu.wait_stat(jobid, "RUN")
    agent = clu.agent_pid()
    # systemctl stop with KillMode=process: SIGTERM to the main process.
    clu.proc.send_signal(signal.SIGTERM)
    assert clu.proc.wait(timeout=30) == 0
    assert _alive(agent)
    job_pids = [_read_pid(p) for p in clu.spool.glob(
        f"agents/*/jobs/*/{jobid}.0.*.pid")]
    assert job_pids and all(_alive(p) for p in job_pids)
    # systemctl start again: the same job, still running.
    clu.start()
    assert clu.stat(jobid) == "RUN"
    r = clu.run("bkill", str(jobid))
    assert r.rc == 0, r
    clu.wait_stat(jobid, "EXIT")


def test_agent_unit_starts_an_agent_for_its_instance_host(tmp_path):
    spool = tmp_path / "spool"
    spool.mkdir()
    argv = _argv(_unit("xce-agent@.service")["Service"],
                 {"XCE_SPOOL": str(spool)}, instance="hostA")
    assert argv[0] == str(BIN / "xce-agent") and "hostA" in argv
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            env=dict(os.environ))
    try:
        home = spool / "agents" / "hostA"
        wait_for(lambda: _read_pid(home / "agent.pid") == proc.pid and
                 "serving" in (home / "agent.log").read_text(),
                 what="the agent to serve")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
