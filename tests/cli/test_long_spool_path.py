"""A cluster whose spool lies deeper than a UNIX socket address can name
(agent.sock and the doorbell past 107 bytes) works the whole way; where a
socket cannot be reached the admin is told, in bhosts -l and the log."""

import socket

from tests.lib.xcecluster import Cluster, wait_for
from xce import unixsock


def _deep(base, past=130):
    """A directory under BASE whose spool's doorbell path is longer than
    PAST bytes."""
    d = base
    while len(str(d / "c" / "spool" / "doorbell")) <= past:
        d = d / ("deep" + "p" * 36)
    return d / "c"


def test_a_deep_spool_runs_jobs_and_kills_them(tmp_path):
    c = Cluster(_deep(tmp_path))
    sock = c.spool / "agents" / socket.gethostname() / "agent.sock"
    assert len(str(c.spool / "doorbell")) > unixsock.SUN_PATH_MAX
    try:
        c.start()
        assert sock.is_socket()
        r = c.run("bsub", "-o", "out.%J", "echo", "hello")
        assert r.rc == 0 and r.err == "", r
        jobid = int(r.out.split("<")[1].split(">")[0])
        c.wait_stat(jobid, "DONE")
        assert (c.root / f"out.{jobid}").read_text().startswith("hello\n")
        r = c.run("bjobs", "-a", "-noheader", str(jobid))
        assert r.rc == 0 and r.out.split()[2] == "DONE", r
        long_job = c.submit("sleep", "600")
        c.wait_stat(long_job, "RUN")
        r = c.run("bkill", str(long_job))
        assert r.rc == 0 and "is being terminated" in r.out, r
        c.wait_stat(long_job, "EXIT")
        r = c.run("bhosts")
        assert r.rc == 0 and " ok " in r.out, r
    finally:
        c.stop()


def test_an_agent_socket_that_cannot_be_reached_is_shown(tmp_path):
    # The host's agent directory is a link: a long socket path through it
    # is refused (a link may not stand for a spool directory).
    c = Cluster(_deep(tmp_path))
    host = socket.gethostname()
    real = tmp_path / "real"
    real.mkdir()
    (c.spool / "agents").mkdir(parents=True)
    (c.spool / "agents" / host).symlink_to(real)
    try:
        c.start(wait_hosts=False)

        def said():
            r = c.run("bhosts", "-l")
            return "LINK FAILURE: Cannot use the UNIX socket" in r.out and r
        r = wait_for(said, what="bhosts -l to show the socket's failure")
        line = next(x for x in r.out.splitlines() if "LINK FAILURE" in x)
        assert f"{c.spool}/agents/{host}/agent.sock" in line
        assert "more than the 107 a socket address holds" in line
        assert "symbolic link" in line
        assert "Cannot use the UNIX socket" in c.log_tail()
        assert "launched the agent" not in c.log_tail()
        assert not (real / "agent.sock").exists()
    finally:
        c.stop()
