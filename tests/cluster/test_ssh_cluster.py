"""A cluster of three hosts reached over real SSH: dispatch, parallel jobs,
controller and agent restarts, and a cut link.

Jobs here wait for a "go" file that the test creates (the file system is
shared with the hosts), so no test depends on how long anything takes:
a job runs exactly as long as the test needs it to.
"""

import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

from tests.lib.xcecluster import (AGENT_DIRS, Cluster, _alive,
                                  shared_cluster, wait_for)

HOSTS = ("xh1", "xh2", "xh3")
SLOTS = 2                   # MXJ of every host
UP = ("ok", "closed_Full")  # bhosts status of a host whose agent answers
# XCE_AGENT_TIMEOUT: a hung session or a cut host is given up after 3 s
# (pinged every second) instead of three times ssh_timeout, 9 s.
AGENT_TIMEOUT = 3
# Appends its pid to <id>.runs (so a restart would show as a second line),
# waits for <id>.go, then exits with the status written in the go file.
JOB = ('d={d}; echo $$ >>"$d/$LSB_JOBID.runs"; '
       'while [ ! -e "$d/$LSB_JOBID.go" ]; do sleep 0.05; done; '
       'exit $(cat "$d/$LSB_JOBID.go")')


@pytest.fixture(scope="module")
def user(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    return ssh_hosts.users[0]


@pytest.fixture(scope="module")
def clu(ssh_hosts, user):
    """One controller on this machine, one agent per test host over SSH.
    Under /tmp rather than pytest's private tmp dirs: the job owner must
    reach the spool, and short paths keep the agents' socket paths short."""
    with shared_cluster("xcessh-", ssh_hosts=ssh_hosts, mxj=SLOTS,
                        extra_params=f"  XCE_AGENT_TIMEOUT: {AGENT_TIMEOUT}"
                        ) as c:
        yield c


@pytest.fixture
def jobs(clu, user):
    """Submit waiting jobs as the test user; at the end of the test, let the
    ones still waiting go, and kill any process left by its recorded pid."""
    work = Path(tempfile.mkdtemp(prefix="w", dir=user.home))
    os.chown(work, user.uid, user.gid)
    wait_for(clu._hosts_ok, timeout=30, what="every host to be ok")
    js = Jobs(clu, user, work)
    try:
        yield js
    finally:
        js.cleanup()
        shutil.rmtree(work, ignore_errors=True)


class Jobs:
    def __init__(self, clu, user, work):
        self.clu, self.user, self.work = clu, user, work
        self.ids = []

    def submit(self, *opts, command=None):
        r = self.clu.run("bsub", "-o", f"{self.work}/%J.out", *opts,
                         command or JOB.format(d=self.work),
                         user=self.user.name, cwd=self.work)
        assert r.rc == 0, r
        jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
        self.ids.append(jobid)
        return jobid

    def release(self, jobid, status=0):
        """Written aside and renamed: a job that sees the file reads its
        status, never an empty file caught between create and write."""
        path = self.work / f"{jobid}.go"
        aside = self.work / f".{jobid}.go.tmp"
        aside.write_text(f"{status}\n")
        os.replace(aside, path)

    def runs(self, jobid):
        try:
            return (self.work / f"{jobid}.runs").read_text().split()
        except FileNotFoundError:
            return []

    def fields(self, jobid):
        """(stat, exit code, first execution host) from bjobs."""
        r = self.clu.run("bjobs", "-noheader", "-o",
                         "stat exit_code exec_host delimiter='|'", str(jobid))
        assert r.rc == 0, r
        stat, code, hosts = r.out.strip().split("|")
        return stat, code.strip(), hosts.split(":")[0].split("*")[-1]

    def wait_running(self, *ids):
        """Wait until each job runs on a host and its process has started."""
        for jobid in ids:
            wait_for(lambda: self.fields(jobid)[0] == "RUN" and
                     self.runs(jobid), timeout=30,
                     what=f"job {jobid} to run")
        return {jobid: self.fields(jobid)[2] for jobid in ids}

    def wait_finished(self, jobid, timeout=30):
        return wait_for(lambda: self.fields(jobid)[0] in ("DONE", "EXIT") and
                        self.fields(jobid), timeout=timeout,
                        what=f"job {jobid} to finish")

    def cleanup(self):
        for jobid in self.ids:
            self.release(jobid, 0)
        for pattern in AGENT_DIRS:
            for jobid in self.ids:
                for pidfile in self.clu.spool.glob(f"{pattern}/jobs/*/{jobid}.*.pid"):
                    _killpg(pidfile)


def _killpg(pidfile):
    try:
        os.killpg(int(pidfile.read_text().strip()), signal.SIGKILL)
    except (OSError, ValueError):
        pass


def _agent_pid(clu, host):
    path = clu.spool / "hosts" / host / "agents" / host / "agent.pid"
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _host_status(clu, host):
    r = clu.run("bhosts", "-w", host)
    assert r.rc == 0, r
    return r.out.splitlines()[1].split()[1]


# -- dispatch over SSH ------------------------------------------------------

def test_jobs_run_on_every_host_as_their_user(clu, jobs, ssh_hosts, user):
    ids = [jobs.submit(command=JOB.format(d=jobs.work).replace(
        "echo $$", "echo $$ $(hostname) $(id -un)")) for _ in range(6)]
    placed = jobs.wait_running(*ids)
    assert sorted(placed.values()) == sorted(HOSTS * SLOTS)
    for status, jobid in enumerate(ids):
        jobs.release(jobid, status)
    for status, jobid in enumerate(ids):
        stat, code, host = jobs.wait_finished(jobid)
        assert (stat, host) == ("DONE" if status == 0 else "EXIT", placed[jobid])
        if status:
            assert code == str(status)
        pid, hostname, owner = jobs.runs(jobid)
        assert owner == user.name
        if ssh_hosts.mode == "netns":
            assert hostname == host         # it ran inside that host
    for host in HOSTS:
        agent = _agent_pid(clu, host)
        assert agent and clu.agent_pids().count(agent) == 1
        if ssh_hosts.mode == "netns":
            assert agent in ssh_hosts.pids(host)


def test_a_six_slot_job_spans_the_hosts_with_lsf_host_variables(clu, jobs, ssh_hosts):
    report = ('echo "$LSB_HOSTS"; echo "$LSB_MCPU_HOSTS"; '
              'tr "\\n" " " <"$LSB_DJOB_HOSTFILE"; echo; hostname')
    jobid = jobs.submit("-n", "6", "-R", "span[ptile=2]", command=report)
    stat, _, first = jobs.wait_finished(jobid)
    assert stat == "DONE"
    out = (jobs.work / f"{jobid}.out").read_text().splitlines()
    lsb_hosts, mcpu, hostfile, hostname = out[:4] if out[0] else out[1:5]
    hosts = lsb_hosts.split()
    assert sorted(hosts) == sorted(HOSTS * SLOTS)
    order = list(dict.fromkeys(hosts))
    assert hosts == [h for h in order for _ in range(SLOTS)]
    assert mcpu.split() == [x for h in order for x in (h, str(SLOTS))]
    assert hostfile.split() == hosts
    assert first == hosts[0]
    if ssh_hosts.mode == "netns":
        assert hostname == hosts[0]         # started on the first host


# -- restarts -----------------------------------------------------------------

def test_a_controller_killed_while_jobs_run_loses_and_restarts_nothing(clu, jobs):
    ids = [jobs.submit() for _ in range(6)]
    placed = jobs.wait_running(*ids)
    assert set(placed.values()) == set(HOSTS)
    agents = {h: _agent_pid(clu, h) for h in HOSTS}
    clu.kill_controller()
    clu.start()                     # waits until every host is ok again
    for status, jobid in enumerate(ids):
        jobs.release(jobid, status)
    for status, jobid in enumerate(ids):
        stat, code, _ = jobs.wait_finished(jobid)
        assert stat == ("DONE" if status == 0 else "EXIT")
        if status:
            assert code == str(status)
        assert len(jobs.runs(jobid)) == 1, f"job {jobid} ran more than once"
    assert {h: _agent_pid(clu, h) for h in HOSTS} == agents


def test_a_killed_agent_is_relaunched_over_ssh_and_readopts_its_jobs(clu, jobs, ssh_hosts):
    ids = [jobs.submit() for _ in range(6)]
    placed = jobs.wait_running(*ids)
    victim = "xh2"
    old = _agent_pid(clu, victim)
    os.kill(old, signal.SIGKILL)
    new = wait_for(lambda: _agent_pid(clu, victim) not in (None, old) and
                   clu._hosts_ok() and _agent_pid(clu, victim),
                   timeout=30, what="a new agent on xh2")
    if ssh_hosts.mode == "netns":
        assert new in ssh_hosts.pids(victim)
    for jobid in ids:
        assert jobs.fields(jobid)[0] == "RUN"
    for status, jobid in enumerate(ids, 1):
        jobs.release(jobid, status)
    for status, jobid in enumerate(ids, 1):
        stat, code, host = jobs.wait_finished(jobid)
        assert (stat, code, host) == ("EXIT", str(status), placed[jobid])
        assert len(jobs.runs(jobid)) == 1


# -- host loss ------------------------------------------------------------------

def test_a_cut_host_is_unavail_with_unknown_jobs_until_it_returns(clu, jobs, needs_netns):
    hs = needs_netns
    ids = [jobs.submit() for _ in range(6)]
    placed = jobs.wait_running(*ids)
    victim = "xh3"
    gone = [j for j in ids if placed[j] == victim]
    kept = [j for j in ids if placed[j] != victim]
    assert len(gone) == SLOTS
    hs.cut(victim)
    try:
        wait_for(lambda: _host_status(clu, victim) == "unavail", timeout=30,
                 what="the cut host to show unavail")
        for jobid in gone:
            wait_for(lambda: jobs.fields(jobid)[0] == "UNKWN",
                     what=f"job {jobid} on the cut host to be UNKWN")
        assert [jobs.fields(j)[0] for j in kept] == ["RUN"] * len(kept)
        others = {h: _host_status(clu, h) for h in HOSTS if h != victim}
        assert all(st in UP for st in others.values()), others
        jobs.release(gone[0], 7)        # ends while its host is cut off
        pid = int(jobs.runs(gone[0])[0])
        wait_for(lambda: not _alive(pid), what=f"job {gone[0]} to end")
    finally:
        hs.restore(victim)
    stat, code, _ = jobs.wait_finished(gone[0], timeout=40)
    assert (stat, code) == ("EXIT", "7")        # its true status
    wait_for(lambda: jobs.fields(gone[1])[0] == "RUN", timeout=40,
             what="the other job of the host to run again")
    assert _host_status(clu, victim) in UP
    for jobid in [gone[1]] + kept:
        jobs.release(jobid, 0)
        assert jobs.wait_finished(jobid)[0] == "DONE"
        assert len(jobs.runs(jobid)) == 1


# -- who may connect, and who starts the agent ---------------------------------

def _conf(hs, name, **kw):
    from xce.config.model import HostConf
    addr, port = hs.hosts[name]
    conf = HostConf(name=name, address=addr, port=port, launch="ssh",
                    user="root", key_file=str(hs.client_key),
                    known_hosts=str(hs.known_hosts), ssh_timeout=3.0,
                    spool=Path("/nonexistent"))
    for key, value in kw.items():
        setattr(conf, key, value)
    return conf


def test_a_host_with_an_unknown_host_key_is_refused(ssh_hosts, tmp_path):
    import paramiko
    from xce.controller import sshlink
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    with pytest.raises(paramiko.SSHException, match="not found in known_hosts"):
        sshlink.connect(_conf(ssh_hosts, "xh1", known_hosts=str(empty)))


def test_a_host_answering_with_another_hosts_key_is_refused(ssh_hosts):
    import paramiko
    from xce.controller import sshlink
    addr, port = ssh_hosts.hosts["xh2"]
    conf = _conf(ssh_hosts, "xh1", address=addr, port=port)
    with pytest.raises(paramiko.BadHostKeyException):
        sshlink.connect(conf)


def test_the_link_says_why_it_cannot_attach_and_keeps_trying(ssh_hosts, tmp_path):
    from xce.controller import sshlink
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    link = sshlink.SSHLink("xh1", _conf(ssh_hosts, "xh1", known_hosts=str(empty)))
    link.try_connect(0.0)
    wait_for(lambda: not link.try_connect(1.0) and link.reason,
             what="the attempt to fail")
    assert "unknown host key" in link.reason
    assert not link.connected and link.next_try > 1.0


def test_launch_none_attaches_but_never_starts_an_agent(ssh_hosts, tmp_path):
    root = Path(tempfile.mkdtemp(prefix="xcenone-"))
    c = Cluster(root, ssh_hosts=ssh_hosts, ssh_launch="none")
    agent = None
    try:
        c.start(wait_hosts=False)
        wait_for(lambda: "no agent is running for host xh1" in c.log_tail(),
                 what="the attach to say no agent runs")
        assert c.agent_pids() == []
        # sshd answers but no agent does: unreach (unavail is no SSH at all).
        wait_for(lambda: all(_host_status(c, h) == "unreach" for h in HOSTS),
                 what="every host to be unreach")
        hostspool = c.spool / "hosts" / "xh1"
        r = ssh_hosts.run("xh1", [sys.executable, "-m", "xce.cli.xce_agent",
                                  "--spool", str(hostspool), "--host", "xh1"])
        assert r.returncode == 0, r
        agent = wait_for(lambda: _agent_pid(c, "xh1"), what="the agent pid")
        wait_for(lambda: _host_status(c, "xh1") == "ok", timeout=30,
                 what="the controller to attach to the hand-started agent")
        assert all(_host_status(c, h) == "unreach" for h in ("xh2", "xh3"))
    finally:
        c.stop()            # stops the agent it finds, by its pid file
        if agent and _alive(agent):
            os.kill(agent, signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)


def test_xce_start_says_at_once_why_an_agent_cannot_start_over_ssh(
        ssh_hosts):
    """xh1's python does not exist: its sshd answers, its agent cannot
    start.  xce start names xh1 with what the attach said (bhosts -l's
    LINK FAILURE) as soon as the controller knows it, lists the others,
    and exits 0: the controller runs."""
    root = Path(tempfile.mkdtemp(prefix="xcebadpy-"))
    c = Cluster(root, ssh_hosts=ssh_hosts, mxj=SLOTS,
                ssh_per_host={"xh1": "python: /nonexistent/python3"})
    try:
        r = c.run("xce", "start", "--envdir", str(c.envdir))
        long = c.run("bhosts", "-l", "xh1")
    finally:
        c.run("xce", "stop", "--envdir", str(c.envdir))
        c.stop()
        shutil.rmtree(root, ignore_errors=True)
    assert r.rc == 0, r
    assert sorted(x for x in r.out.splitlines() if x.startswith("host ")) \
        == [f"host {h}: ok, {SLOTS} slots" for h in ("xh2", "xh3")], r
    line, = r.err.splitlines()
    assert line.startswith("host xh1: unreach: "), r
    assert "/nonexistent/python3" in line, r
    assert line.split(": ", 2)[2] in long.out, long


def _comm(pid):
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def test_a_hung_ssh_session_is_dropped_and_the_agent_reattached(clu, jobs, ssh_hosts):
    """A stopped sshd still ACKs TCP: only the unanswered pings show it."""
    ids = [jobs.submit() for _ in range(6)]
    placed = jobs.wait_running(*ids)
    victim = "xh1"
    listener = ssh_hosts.record()["hosts"][victim]["sshd"]
    sessions = [p for p in ssh_hosts.pids(victim)
                if p != listener and _comm(p) == "sshd"]
    assert sessions
    log = clu.spool / "store" / "controller.log"
    mark = log.stat().st_size
    for pid in sessions:
        os.kill(pid, signal.SIGSTOP)
    try:
        wait_for(lambda: f"lost the agent on {victim}" in
                 log.read_text()[mark:], timeout=40,
                 what="the controller to drop the hung session")
        wait_for(lambda: f"attached to the agent on {victim}" in
                 log.read_text()[mark:], timeout=40,
                 what="a new session to the same agent")
    finally:
        for pid in sessions:
            os.kill(pid, signal.SIGCONT)
    for jobid in ids:
        wait_for(lambda: jobs.fields(jobid)[0] == "RUN", timeout=20,
                 what=f"job {jobid} to be RUN again")
        jobs.release(jobid, 5)
    for jobid in ids:
        assert jobs.wait_finished(jobid) == ("EXIT", "5", placed[jobid])
        assert len(jobs.runs(jobid)) == 1
