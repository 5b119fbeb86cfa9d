"""bpeek, bwait, busers, bugroup, bmgroup, bapp, blimits, lshosts, lsload:
LSF's layouts, messages and exit codes against a real cluster."""

import getpass
import socket
import subprocess
import sys
import threading
import time

import pytest

from tests.lib.xcecluster import BIN, wait_for

COMMANDS = ("bpeek", "bwait", "busers", "bugroup", "bmgroup", "bapp",
            "blimits", "lshosts", "lsload")

# Top-level sections after the queues of the test configuration.
SECTIONS = """
users:
  {me}:
    MAX_JOBS: 10
    JL/P: 2
user_groups:
  devs:
    members: [{me}, alice]
  all_staff:
    members: [devs, bob]
host_groups:
  hg1: [{host}]
limits:
  - NAME: per_user_slots
    USERS: all
    SLOTS: 4
applications:
  fluent:
    DESCRIPTION: CFD runs
    RUNLIMIT: 60
"""


def cmd(cluster, name, *argv, **kw):
    """Run a command, through ``python -m`` until it is installed."""
    if (BIN / name).exists():
        return cluster.run(name, *argv, **kw)
    return cluster.run(sys.executable, "-m", f"xce.cli.{name}", *argv, **kw)


@pytest.fixture
def configured(make_cluster):
    return make_cluster(extra_queues=SECTIONS.format(
        me=getpass.getuser(), host=socket.gethostname()))


@pytest.mark.parametrize("name", COMMANDS)
def test_help_and_bad_option(cluster, name):
    r = cmd(cluster, name, "--help")
    assert r.rc == 0 and r.out.startswith(f"Usage: {name} ")
    r = cmd(cluster, name, "-Z")
    assert r.rc == 255 and "illegal option -- Z" in r.err


# -- bpeek --------------------------------------------------------------------
def test_bpeek_shows_output_so_far(cluster):
    jobid = cluster.submit("-o", "p.out", "echo hello; sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: (cluster.root / "p.out").exists() and
             "hello" in (cluster.root / "p.out").read_text(),
             what="the job's first line")
    r = cmd(cluster, "bpeek", str(jobid))
    assert (r.rc, r.err) == (0, "")
    assert r.out == "<< output from stdout >>\nhello\n"
    # Without an id: the caller's latest unfinished job.
    assert cmd(cluster, "bpeek").out == r.out


def test_bpeek_default_output_and_separate_stderr(cluster):
    jobid = cluster.submit("-e", "e.err", "echo out; echo err >&2; sleep 60")
    cluster.wait_stat(jobid, "RUN")
    wait_for(lambda: "out" in cmd(cluster, "bpeek", str(jobid)).out.split(),
             what="output under the spool")
    r = cmd(cluster, "bpeek", str(jobid))
    assert r.out == ("<< output from stdout >>\nout\n\n"
                     "<< output from stderr >>\nerr\n")


def test_bpeek_follow_ends_with_the_job(cluster):
    # The job's second line waits for the test, not for a guessed time:
    # the job still runs when bpeek -f starts, however slowly that is on
    # a loaded machine (bpeek of a finished job is "Already finished").
    gate = cluster.root / "f.go"
    jobid = cluster.submit("-o", "f.out", "echo one; while [ ! -e "
                           f"{gate} ]; do sleep 0.1; done; echo two")
    cluster.wait_stat(jobid, "RUN")
    argv = [str(BIN / "bpeek")] if (BIN / "bpeek").exists() else \
        [sys.executable, "-m", "xce.cli.bpeek"]
    follow = subprocess.Popen([*argv, "-f", str(jobid)], env=cluster.env,
                              cwd=cluster.root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    # No read may hang the test: bpeek is killed after a minute.
    watchdog = threading.Timer(60, follow.kill)
    watchdog.start()
    try:
        seen = [follow.stdout.readline() for _ in range(2)]
        assert seen == ["<< output from stdout >>\n", "one\n"], seen
        gate.write_text("")         # bpeek -f follows the job to its end
        out, err = follow.communicate(timeout=60)
    finally:
        watchdog.cancel()
        follow.kill()
        follow.wait()
    assert (follow.returncode, err) == (0, ""), (out, err)
    assert out.startswith("two\n"), out


def test_bpeek_follow_of_a_job_with_a_separate_stderr_follows_stdout(
        cluster):
    """LSF's bpeek -f is tail -f of the job's stdout: what the job writes
    later is never printed under the stderr heading."""
    jobid = cluster.submit("-o", "s.out", "-e", "s.err",
                           "echo one; echo e1 >&2; sleep 3; echo two")
    cluster.wait_stat(jobid, "RUN")
    r = cmd(cluster, "bpeek", "-f", str(jobid), timeout=60)
    assert (r.rc, r.err) == (0, "")
    assert r.out.startswith("<< output from stdout >>\none\ntwo\n"), r
    assert "<< output from stderr >>" not in r.out


def test_bpeek_messages(make_cluster):
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    pending = cluster.submit("true")
    r = cmd(cluster, "bpeek", str(pending))
    assert (r.rc, r.out, r.err) == (255, "", f"Job <{pending}> : Not yet "
                                    "started.\n")
    cluster.run("bkill", str(pending))
    r = cmd(cluster, "bpeek", str(pending))
    assert (r.rc, r.err) == (255, f"Job <{pending}> : Already finished.\n")
    r = cmd(cluster, "bpeek", "4242")
    assert (r.rc, r.err) == (255, "Job <4242> is not found\n")
    r = cmd(cluster, "bpeek", "4x")
    assert (r.rc, r.err) == (255, "4x: Illegal job ID.\n")
    r = cmd(cluster, "bpeek", "-q", "normal", str(blocker))
    assert r.rc == 255 and "more than one of" in r.err
    r = cmd(cluster, "bpeek", "-q", "short")
    assert (r.rc, r.err) == (255, "No unfinished job found in queue "
                             "<short>\n")


# -- bwait --------------------------------------------------------------------
def test_bwait_returns_when_the_job_is_done(cluster):
    jobid = cluster.submit("-J", "w1", "sleep 1")
    t0 = time.monotonic()
    r = cmd(cluster, "bwait", "-w", f"done({jobid})")
    assert (r.rc, r.out, r.err) == (0, "", "")
    assert cluster.stat(jobid) == "DONE" and time.monotonic() - t0 < 30
    assert cmd(cluster, "bwait", "-w", "ended(w1)").rc == 0


def test_bwait_never_timeout_and_bad_input(cluster):
    failed = cluster.submit("false")
    cluster.wait_stat(failed, "EXIT")
    r = cmd(cluster, "bwait", "-w", f"done({failed})")
    assert (r.rc, r.err) == (255, "Wait condition is never satisfied\n")
    slow = cluster.submit("sleep 120")
    r = cmd(cluster, "bwait", "-w", f"done({slow})", "-t", "x")
    assert (r.rc, r.err) == (255, "x: Bad time specification\n")
    # -r (LSF's re-registration interval) is minutes, checked as -t is;
    # a good one changes nothing: the condition is met or not all the same.
    r = cmd(cluster, "bwait", "-w", f"done({slow})", "-r", "0")
    assert (r.rc, r.err) == (255, "0: Bad time specification\n")
    r = cmd(cluster, "bwait", "-w", f"done({failed})", "-r", "5")
    assert (r.rc, r.err) == (255, "Wait condition is never satisfied\n")
    r = cmd(cluster, "bwait", "-w", "done(99999)")
    assert (r.rc, r.err) == (255, "99999: No matching job found\n")
    r = cmd(cluster, "bwait", "-w", "done(")
    assert (r.rc, r.err) == (255,
                             "done(: Dependency condition syntax error\n")
    r = cmd(cluster, "bwait")
    assert r.rc == 255 and "(-w) must be specified" in r.err


# -- busers -------------------------------------------------------------------
BUSERS_HEADER = ("USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  "
                 "SSUSP  USUSP    RSV")


def test_busers_counts_and_limits(configured):
    me = getpass.getuser()
    jobid = configured.submit("sleep 60")
    configured.wait_stat(jobid, "RUN")
    r = cmd(configured, "busers")
    assert r.rc == 0
    lines = r.out.splitlines()
    assert lines[0] == BUSERS_HEADER
    assert lines[1] == (f"{me:<18.18}   2.0     10      1      0      1"
                        "      0      0      0")
    r = cmd(configured, "busers", "devs", "nosuchuser1")
    assert (r.rc, r.err) == (255, "nosuchuser1: Unknown user\n")
    r = cmd(configured, "busers", "all_staff")
    assert r.out.splitlines()[1].split() == ["all_staff", "-", "-", "1", "0",
                                             "1", "0", "0", "0"]
    r = cmd(configured, "busers", "all")
    names = [line.split()[0] for line in r.out.splitlines()[1:]]
    assert me in names and "devs" in names


# -- bugroup / bmgroup --------------------------------------------------------
def test_bugroup_and_bmgroup(configured):
    me = getpass.getuser()
    r = cmd(configured, "bugroup")
    assert (r.rc, r.err) == (0, "")
    assert r.out == ("GROUP_NAME    USERS\n"
                     f"devs         {me} alice\n"
                     "all_staff    devs/ bob\n")
    r = cmd(configured, "bugroup", "-r", "all_staff")
    assert r.out.splitlines()[1] == f"all_staff    {me} alice bob"
    r = cmd(configured, "bugroup", "nogroup")
    assert (r.rc, r.err) == (255, "nogroup: No such user/host group\n")
    r = cmd(configured, "bmgroup")
    assert r.out == f"GROUP_NAME    HOSTS\nhg1          {socket.gethostname()}\n"


def test_groups_when_none_are_defined(cluster):
    r = cmd(cluster, "bugroup")
    assert (r.rc, r.err) == (255, "No user group defined in the system\n")
    r = cmd(cluster, "bmgroup")
    assert (r.rc, r.err) == (255, "No host group defined in the system\n")


# -- bapp / blimits -----------------------------------------------------------
def test_bapp_and_blimits(configured):
    r = cmd(configured, "bapp")
    assert r.rc == 0
    assert r.out == ("APPLICATION_NAME    NJOBS   PEND    RUN   SUSP\n"
                     "fluent                  0      0      0      0\n")
    r = cmd(configured, "bapp", "-l", "fluent")
    assert "APPLICATION NAME: fluent" in r.out and "CFD runs" in r.out
    assert "\n RUNLIMIT\n 60.0 min\n" in r.out, r.out
    r = cmd(configured, "bapp", "nope")
    assert (r.rc, r.err) == (255, "nope: No such application\n")
    r = cmd(configured, "blimits")
    assert r.rc == 0
    lines = r.out.splitlines()
    assert "INTERNAL RESOURCE LIMITS:" in lines
    row = next(line for line in lines if line.startswith("per_user_slots"))
    assert row.split() == ["per_user_slots", "all", "-", "-", "-", "-/4",
                           "-", "-", "-", "-"]


def test_blimits_and_bapp_with_nothing_configured(cluster):
    r = cmd(cluster, "blimits")
    assert (r.rc, r.out, r.err) == (255, "", "No resource usage found.\n")
    r = cmd(cluster, "bapp")
    assert (r.rc, r.err) == (255, "No application profiles found.\n")


# -- lshosts / lsload ---------------------------------------------------------
def test_lshosts_shows_static_facts(cluster):
    host = socket.gethostname()
    r = cmd(cluster, "lshosts")
    assert r.rc == 0
    head, row = r.out.splitlines()
    assert head == ("HOST_NAME      type    model  cpuf ncpus maxmem maxswp "
                    "server RESOURCES")
    cells = row.split()
    assert cells[0] == host[:11] and cells[3] == "1.0"
    assert int(cells[4]) >= 1 and cells[5][-1] in "MG" and cells[7] == "Yes"
    assert cmd(cluster, "lshosts", "-w").out.splitlines()[1].startswith(host)
    assert f"HOST_NAME:  {host}" in cmd(cluster, "lshosts", "-l").out
    r = cmd(cluster, "lshosts", "nohost")
    assert (r.rc, r.err) == (255, "nohost: unknown host name.\n")


def test_lsload_header_and_row(cluster):
    r = cmd(cluster, "lsload")
    assert r.rc == 0
    head, row = r.out.splitlines()
    assert head == ("HOST_NAME       status  r15s   r1m  r15m   ut    pg  ls"
                    "    it   tmp   swp   mem")
    # The agent's load comes with its hello (values: test_host_load.py).
    assert row.split()[1] == "ok" and len(row.split()) == 12
    assert "io" in cmd(cluster, "lsload", "-l").out.split()


def test_commands_answer_with_the_controller_stopped(cluster):
    cluster.kill_controller()
    assert cmd(cluster, "lshosts").rc == 0
    assert cmd(cluster, "busers").rc == 0
