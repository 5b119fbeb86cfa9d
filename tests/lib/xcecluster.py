"""A real one-host xce cluster on a temporary spool, for end-to-end tests.

The controller runs in the foreground as a child of the test; it launches
the local agent.  ``stop()`` ends both and kills any job process left,
each by the PID this cluster recorded.
"""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

DEFAULT_YAML = """\
cluster:
  name: {name}
  admins: [root]
  spool: ../spool
parameters:
  DEFAULT_QUEUE: normal
  JOB_TERMINATE_INTERVAL: 2
  XCE_REQUEST_TIMEOUT: 20
{extra_params}
{hosts}
queues:
  normal:
    PRIORITY: 30
    DESCRIPTION: the default queue
  short:
    PRIORITY: 40
    RUNLIMIT: 60
{extra_queues}
{extra}
"""


AGENT_DIRS = ("agents/*", "hosts/*/agents/*")


def ssh_hosts_yaml(hs, mxj=None, extra="", launch="ssh", per_host=None):
    """A hosts: section with every host of the test HostSet HS reached over
    SSH as root with its client key and pinned known_hosts; *per_host*
    maps a host name to more lines of its own (e.g. "MXJ: 3")."""
    lines = ["hosts:", "  default:", f"    launch: {launch}", "    user: root",
             f"    key_file: {hs.client_key}",
             f"    known_hosts: {hs.known_hosts}", "    ssh_timeout: 3"]
    if mxj is not None:
        lines.append(f"    MXJ: {mxj}")
    lines += [f"    {x}" for x in extra.splitlines() if x.strip()]
    for name, (addr, port) in hs.hosts.items():
        lines += [f"  {name}:", f"    address: {addr}", f"    port: {port}"]
        own = (per_host or {}).get(name, "")
        lines += [f"    {x}" for x in own.splitlines() if x.strip()]
    return "\n".join(lines) + "\n"


def virtual_hosts_yaml(names, mxj=None, extra=""):
    """A hosts: section of virtual hosts: each NAME is a real agent started
    on this machine (launch: local) under that name, with its own agent
    directory, so that many hosts run on one machine; *extra* lines are
    added to every host (e.g. its declared gpus)."""
    lines = ["hosts:"]
    for name in names:
        lines += [f"  {name}:", "    launch: local"]
        if mxj is not None:
            lines.append(f"    MXJ: {mxj}")
        lines += [f"    {x}" for x in extra.splitlines() if x.strip()]
    return "\n".join(lines) + "\n"


def add_refused_ssh_host(cluster, name="deadhost"):
    """Add host NAME to CLUSTER's configuration, its agent started over
    SSH at a local port nothing listens on: the connection is refused."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    known = cluster.root / "known_hosts"
    known.write_text("")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("hosts:\n", (
        f"hosts:\n  {name}:\n    launch: ssh\n    address: 127.0.0.1\n"
        f"    port: {port}\n    known_hosts: {known}\n"), 1))


def virtual_names(n, prefix="vh"):
    return [f"{prefix}{i:03d}" for i in range(n)]


# The deadlines of the waits below: only a failing test spends them, and
# the suite runs on more workers than cores, next to other sessions (a
# controller and its agents start, or a job is dispatched and reported,
# in seconds there, not tenths).
WAIT_S = 30.0
START_S = 60.0


def wait_for(predicate, timeout=WAIT_S, interval=0.02, what="condition"):
    """Poll *predicate* until it returns something true, or fail."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)


class Result:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    @property
    def joined(self):
        """stdout with the lines LSF folds in its long formats (bjobs -l,
        bhist -l, bacct -l: cut at 79 columns, even inside a word, and
        continued after 21 blanks) joined again.  Search this, not
        ``out``: where the cut falls depends on the lengths of paths,
        names and times, so a word in ``out`` can be split at random."""
        from xce.client.text.wrap import unwrap
        return unwrap(self.out)

    def __repr__(self):
        return f"Result(rc={self.rc}, out={self.out!r}, err={self.err!r})"


class Cluster:
    def __init__(self, root, name="testclu", mxj=None, extra_params="",
                 extra_queues="", ssh_hosts=None, ssh_extra="",
                 ssh_launch="ssh", extra="", host_extra="",
                 virtual_hosts=None, ssh_per_host=None):
        self.root = Path(root)
        self.envdir = self.root / "etc"
        self.spool = self.root / "spool"
        self.envdir.mkdir(parents=True, exist_ok=True)
        self.name = name
        hosts = ""
        if mxj is not None:
            import socket
            hosts = f"hosts:\n  {socket.gethostname()}:\n    MXJ: {mxj}\n"
            # More keys of the local host, e.g. "ncpus: 1".
            hosts += "".join(f"    {x}\n" for x in host_extra.splitlines()
                             if x.strip())
        if ssh_hosts is not None:
            hosts = ssh_hosts_yaml(ssh_hosts, mxj, ssh_extra, ssh_launch,
                                   ssh_per_host)
        if virtual_hosts is not None:
            hosts = virtual_hosts_yaml(virtual_hosts, mxj, host_extra)
        (self.envdir / "xce.yaml").write_text(DEFAULT_YAML.format(
            name=name, hosts=hosts, extra_params=extra_params,
            extra_queues=extra_queues, extra=extra))
        self.proc = None
        self.env = dict(os.environ, XCE_ENVDIR=str(self.envdir),
                        PATH=f"{BIN}:{os.environ.get('PATH', '')}")

    # -- daemons -----------------------------------------------------------
    def start(self, wait_hosts=True, timeout=START_S):
        log = open(self.root / "controller.out", "ab")
        self.proc = subprocess.Popen(
            [str(BIN / "xce-controller"), "--envdir", str(self.envdir), "-f"],
            env=self.env, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        if wait_hosts:
            wait_for(self._hosts_ok, timeout=timeout,
                     what="every agent to say hello")
        return self

    def _hosts_ok(self):
        if self.proc.poll() is not None:
            raise AssertionError("controller exited: " + self.log_tail())
        from xce.errors import XceError
        from xce.store.reader import Reader
        try:
            with Reader(self.spool / "store" / "xce.db") as reader:
                hosts = reader.hosts()
        except XceError:
            return False
        return bool(hosts) and all(h["status"] == "ok" for h in hosts)

    def log_tail(self):
        path = self.spool / "store" / "controller.log"
        try:
            return path.read_text()[-3000:]
        except OSError:
            return ""

    def kill_controller(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=20)

    def agent_pid(self):
        pids = self.agent_pids()
        return pids[0] if pids else None

    def agent_pids(self):
        """Live agents of this cluster, the local one and those of SSH hosts
        (whose spools are hosts/<name> under the cluster spool)."""
        pids = [_read_pid(p) for pattern in AGENT_DIRS
                for p in self.spool.glob(f"{pattern}/agent.pid")]
        return [p for p in pids if p and _alive(p)]

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for agent in set(self.agent_pids()) | set(self._launched_agents()):
            os.kill(agent, signal.SIGTERM)
            wait_for(lambda: not _alive(agent), what="the agent to stop")
        self._kill_jobs()

    def _launched_agents(self):
        """Agents the controller logged launching that are still alive and
        serve this spool.  One launched just before the stop may not have
        written its agent.pid yet, and agents outlive their controller."""
        try:
            log = (self.spool / "store" / "controller.log").read_text()
        except OSError:
            return []
        pids = []
        for line in log.splitlines():
            if "launched the agent for " in line and line.endswith(")"):
                pid = int(line.rsplit("(pid ", 1)[1][:-1])
                if _alive(pid) and str(self.spool) in _cmdline(pid):
                    pids.append(pid)
        return pids

    def _kill_jobs(self):
        """Kill every job process this cluster started, by its recorded pid."""
        for pidfile in (p for pattern in AGENT_DIRS
                        for p in self.spool.glob(f"{pattern}/jobs/*/*.pid")):
            pid = _read_pid(pidfile)
            if pid and _alive(pid):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass

    # -- commands ------------------------------------------------------------
    def run(self, *argv, input=None, user=None, cwd=None, env=None,
            timeout=60):
        cmd = [str(BIN / argv[0]) if (BIN / argv[0]).exists() else argv[0],
               *argv[1:]]
        if user is not None:
            cmd = ["/usr/bin/setpriv", f"--reuid={user}", f"--regid={user}",
                   "--init-groups", "--", *cmd]
        proc = subprocess.run(cmd, input=input, capture_output=True,
                              text=True, cwd=cwd or self.root,
                              env=dict(self.env, **(env or {})),
                              timeout=timeout)
        return Result(proc)

    def submit(self, *argv, **kw):
        """bsub; returns the job id (fails the test if bsub failed)."""
        r = self.run("bsub", *argv, **kw)
        assert r.rc == 0, r
        return int(r.out.split("<", 1)[1].split(">", 1)[0])

    def stored_job(self, jobid):
        """The job's row as the controller stored it, its spec decoded."""
        from xce.store.reader import Reader
        with Reader(self.spool / "store" / "xce.db") as reader:
            row = reader.jobs("jobid=?", (jobid,))[0]
        row["spec"] = json.loads(row["spec"] or "{}")
        return row

    def stat(self, jobid):
        r = self.run("bjobs", "-noheader", "-w", str(jobid))
        return r.out.split()[2] if r.rc == 0 and r.out.strip() else None

    def long(self, jobid, user=None):
        """bjobs -l of the job with its folded lines joined again."""
        return self.run("bjobs", "-l", str(jobid), user=user).joined

    def job_pid(self, jobid):
        """The pid of the job's first (or only) process, from its agent's
        job directory; None until the job's wrapper wrote it (the file
        exists, empty, a moment before its pid is in it)."""
        found = list(self.spool.glob(f"agents/*/jobs/*/{jobid}.0.*.pid"))
        return _read_pid(found[0]) if found else None

    def caught(self, jobid):
        """The words a job wrote into ``sig.<jobid>`` in the cluster's
        directory: a job that traps signals writes each one's name there
        (``trap 'echo USR1 >> sig.$LSB_JOBID' USR1``)."""
        try:
            return (self.root / f"sig.{jobid}").read_text().split()
        except OSError:
            return []

    def wait_stat(self, jobid, *stats, timeout=WAIT_S):
        return wait_for(lambda: self.stat(jobid) in stats and
                        self.stat(jobid), timeout=timeout,
                        what=f"job {jobid} to reach {stats}")

    @property
    def logdir(self):
        """The directory of lsb.events and lsb.acct."""
        return self.spool / self.name / "logdir"

    def lsb_file_records(self, name, kind=None, job=None, rotated=False):
        """[(file name, words)] of the records *kind* (all when None) of
        the log file *name* (lsb.events, lsb.acct), of job *job* (word 4)
        only when given; with *rotated*, of its numbered files too, oldest
        first.  A missing file has none."""
        files = [self.logdir / name]
        if rotated:
            files[:0] = sorted((p for p in self.logdir.glob(name + ".*")
                                if p.suffix[1:].isdigit()),
                               key=lambda p: -int(p.suffix[1:]))
        out = []
        for path in files:
            try:
                text = path.read_text()
            except FileNotFoundError:
                continue
            for line in text.splitlines():
                if line.startswith("#") or not line.strip():
                    continue
                words = line.split()
                if kind is not None and words[0] != f'"{kind}"':
                    continue
                if job is not None and words[3:4] != [str(job)]:
                    continue
                out.append((path.name, words))
        return out

    def lsb_records(self, name, kind=None, job=None, rotated=False):
        """The records of lsb_file_records as lists of words."""
        return [w for _, w in self.lsb_file_records(name, kind, job, rotated)]

    def wait_lsb_records(self, name, kind=None, job=None, rotated=False,
                         until=bool, timeout=WAIT_S):
        """lsb_records polled until until(records) holds (some record by
        default): the controller writes the files after its replies
        (lsb.events(5)), so a test reads them this way."""
        return _poll(lambda: self.lsb_records(name, kind, job, rotated),
                     until, timeout,
                     f"{kind or 'records'} of {job or 'any job'} in {name}")

    def lsb_events(self, kind=None, job=None):
        """The records of lsb.events as lsbevents_reader reads them (it
        raises on a record off its documented layout), of type *kind* and
        job *job* (jobId, or JOB_MODIFY2's jobIdStr) only when given; none
        while the file is missing."""
        from tests.lib.lsbevents_reader import read_file
        try:
            records = read_file(self.logdir / "lsb.events")
        except FileNotFoundError:
            return []
        return [r for r in records if (kind is None or r["type"] == kind)
                and (job is None or r.get("jobId") == job
                     or r.get("jobIdStr") == str(job))]

    def wait_lsb_events(self, kind=None, job=None, until=bool,
                        timeout=WAIT_S):
        """lsb_events polled as wait_lsb_records polls."""
        return _poll(lambda: self.lsb_events(kind, job), until, timeout,
                     f"{kind or 'records'} of {job or 'any job'} in "
                     "lsb.events")


def _poll(read, until, timeout, what):
    """read() polled until until(its result) holds; that result."""
    got = []

    def ready():
        got[:] = read()
        return until(got)
    wait_for(ready, timeout=timeout, what=what)
    return got


def proc_state(pid):
    """The state letter of process *pid* in /proc (R, S, T, Z ...), or None
    when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def group_states(pgid):
    """The state letters of the live processes of process group *pgid*
    (zombies left out): a job's group, whose leader is job_pid's
    process."""
    from tests.cluster import _procs
    fields = (_procs._stat_fields(pid) for pid in _procs.all_pids())
    return [f[0] for f in fields if f and int(f[2]) == pgid and f[0] != "Z"]


def group_stopped(pgid):
    """Whether process group *pgid* has processes and all are stopped:
    bjobs shows a job stopped (the store) before its agent has signalled
    it, so a test that checks that nothing moves waits for this first."""
    states = group_states(pgid)
    return bool(states) and all(s == "T" for s in states)


def _read_pid(path):
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return False
    return data[data.rindex(b")") + 2:][:1] != b"Z"


@contextlib.contextmanager
def shared_cluster(prefix, **kw):
    """A started cluster in a fresh directory under /tmp that every user
    may enter (job owners must reach the spool; short paths keep the
    agents' socket paths short); stopped and removed afterwards."""
    root = tempfile.mkdtemp(prefix=prefix)
    os.chmod(root, 0o755)
    c = Cluster(root, **kw)
    try:
        c.start()
        yield c
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def blocked(make_cluster):
    """A one-slot cluster whose slot is taken, so new jobs stay pending:
    (cluster, the blocking job's id)."""
    cluster = make_cluster(mxj=1)
    blocker = cluster.submit("sleep 60")
    cluster.wait_stat(blocker, "RUN")
    return cluster, blocker
