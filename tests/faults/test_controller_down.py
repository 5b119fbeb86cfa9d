"""Controller down: bsub says so and waits; the request survives and runs once."""

import subprocess

import pytest

from tests.lib.xcecluster import BIN, wait_for

START_LINE = ("The xce controller is not running: start it with 'xce start' "
              "(or 'make run' in a checkout).\n")


def _bsub_background(cluster, *argv, timeout="30"):
    return subprocess.Popen(
        [str(BIN / "bsub"), *argv], cwd=cluster.root, text=True,
        env=dict(cluster.env, XCE_REQUEST_TIMEOUT=timeout),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _jobs_named(cluster, name):
    r = cluster.run("bjobs", "-a", "-w", "-noheader", "-J", name)
    return [line.split()[0] for line in r.out.splitlines()]


def test_bsub_waits_for_a_stopped_controller(cluster):
    cluster.kill_controller()
    proc = _bsub_background(cluster, "-J", "waiter", "true")
    wait_for(lambda: any((cluster.spool / "incoming").iterdir()),
             what="the request to be spooled")
    cluster.start()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert err == "Cannot connect to LSF. Please wait ...\n" + START_LINE
    assert out.startswith("Job <") and "is submitted to default queue" in out
    jobid = out.split("<")[1].split(">")[0]
    assert _jobs_named(cluster, "waiter") == [jobid]


def test_bsub_with_the_controller_down_says_how_to_start_it_and_exits_3(
        cluster):
    """Accepted, will run when the controller returns: exit 3, which a
    script tells from a refusal (255), so it does not submit twice."""
    cluster.kill_controller()
    r = cluster.run("bsub", "-J", "orphan", "-o", "orphan.out", "echo ran",
                    env={"XCE_REQUEST_TIMEOUT": "0.5"})
    assert r.rc == 3 and r.out == ""
    lines = r.err.splitlines(keepends=True)
    assert lines[:2] == ["Cannot connect to LSF. Please wait ...\n",
                         START_LINE]
    assert len(lines) == 3
    assert lines[2].startswith("Request <") and lines[2].endswith(
        "> is accepted and spooled: the controller is not running; it takes "
        "effect when the controller processes it. Do not submit it again.\n")
    cluster.start()
    wait_for(lambda: _jobs_named(cluster, "orphan"), what="the orphan job")
    jobid = int(_jobs_named(cluster, "orphan")[0])
    cluster.wait_stat(jobid, "DONE")
    # A second restart must not submit it again.
    cluster.kill_controller()
    cluster.start()
    assert _jobs_named(cluster, "orphan") == [str(jobid)]
    assert (cluster.root / "orphan.out").read_text().splitlines().count("ran") == 1


def test_running_job_survives_a_controller_restart(cluster):
    jobid = cluster.submit("-o", "s.out", "sleep 2; echo survived")
    cluster.wait_stat(jobid, "RUN")
    cluster.kill_controller()
    cluster.start()
    cluster.wait_stat(jobid, "DONE")
    text = (cluster.root / "s.out").read_text()
    assert text.splitlines().count("survived") == 1


def test_a_second_controller_on_the_same_spool_is_refused(cluster):
    r = cluster.run("xce-controller", "--envdir", str(cluster.envdir), "-f")
    assert r.rc == 255
    assert r.err.startswith("xce-controller: another instance holds ")
    assert cluster.proc.poll() is None


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_bsub_interrupted_while_waiting_says_its_request_stays(cluster,
                                                               signame):
    """^C, timeout(1)'s SIGTERM or a hang-up on a bsub that waits for a
    stopped controller: the request stays spooled and will run, so bsub
    says so (exit 3), not nothing."""
    import signal
    cluster.kill_controller()
    proc = _bsub_background(cluster, "-J", "interrupted", "-o", "i.out",
                            "echo ran")
    wait_for(lambda: any((cluster.spool / "incoming").iterdir()),
             what="the request to be spooled")
    wait_for(lambda: proc.poll() is None and _waiting(proc),
             what="bsub to wait")
    proc.send_signal(getattr(signal, signame))
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out) == (3, "")
    last = err.splitlines()[-1]
    assert last.startswith("Request <") and last.endswith(
        "> is accepted and spooled: the command was interrupted; it takes "
        "effect when the controller processes it. Do not submit it "
        "again."), err
    cluster.start()
    wait_for(lambda: _jobs_named(cluster, "interrupted"),
             what="the interrupted job")
    assert len(_jobs_named(cluster, "interrupted")) == 1


def _waiting(proc):
    """Whether bsub sleeps in its wait (its state in /proc is S)."""
    try:
        with open(f"/proc/{proc.pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "S"
    except OSError:
        return False
