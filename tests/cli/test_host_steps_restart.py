"""HOST_PRE_EXEC and HOST_POST_EXEC on a parallel job's other host, on
two virtual hosts (real agents on this machine under two names): a start
held while the other host runs HOST_PRE_EXEC survives a controller kill
(the job starts once, after it, and HOST_PRE_EXEC runs once, even when
it ended while the controller was down, and when the other host's agent
was restarted after it ended), and a HOST_POST_EXEC failing on the
other host is the job's post-exec failure, as in LSF (bjobs -l, bhist -l,
post_err())."""

import os
import signal

from tests.lib.xcecluster import _alive, wait_for

HOSTS = ["vh000", "vh001"]

# Which virtual host runs this step: the --host of the agent it descends
# from.
WHICH_HOST = """\
#!/bin/sh
stage=$1 p=$$ host=
while [ -z "$host" ] && [ "$p" -gt 1 ]; do
    set -- $(tr '\\0' ' ' </proc/$p/cmdline)
    while [ $# -gt 1 ]; do [ "$1" = --host ] && host=$2; shift; done
    p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
done
"""

# On the job's other host the step waits for the gate file (pre) or
# fails (post); on its first host it passes.
STEP = WHICH_HOST + """\
echo "$stage $host $LSB_JOBID" >>{log}
[ "$host" = "${{LSB_HOSTS%% *}}" ] && exit 0
if [ "$stage" = pre ]; then
    n=0
    while [ ! -e {gate} ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done
    exit 0
fi
exit 3
"""


def _cluster(make_cluster, tmp_path):
    log, gate = tmp_path / "steps.log", tmp_path / "gate"
    step = tmp_path / "step.sh"
    step.write_text(STEP.format(log=log, gate=gate))
    step.chmod(0o755)
    queues = (f"  steps:\n    PRIORITY: 20\n"
              f"    HOST_PRE_EXEC: {step} pre\n"
              f"    HOST_POST_EXEC: {step} post\n")
    os.chmod(tmp_path, 0o755)
    cluster = make_cluster(virtual_hosts=HOSTS, mxj=1, extra_queues=queues)
    return cluster, log, gate


def _lines(log, jobid):
    try:
        return [x.split()[:2] for x in log.read_text().splitlines()
                if x.endswith(f" {jobid}")]
    except FileNotFoundError:
        return []


def _submit(cluster, tmp_path, command):
    return cluster.submit("-q", "steps", "-n", "2", "-R", "span[ptile=1]",
                          "-o", str(tmp_path / "%J.out"), command)


def _killed_while_held(make_cluster, tmp_path):
    """A job whose start is held while its other host runs HOST_PRE_EXEC
    (waiting for the gate), its controller killed then: the cluster, the
    steps' log, the gate, the job, its other host and its first."""
    cluster, log, gate = _cluster(make_cluster, tmp_path)
    jobid = _submit(cluster, tmp_path, f"echo job x $LSB_JOBID >>{log}")
    wait_for(lambda: _lines(log, jobid), timeout=20,
             what="HOST_PRE_EXEC on the other host")
    [[_, other]] = _lines(log, jobid)
    cluster.kill_controller()
    return cluster, log, gate, jobid, other, ({*HOSTS} - {other}).pop()


def test_a_start_held_for_host_pre_exec_survives_a_controller_kill(
        make_cluster, tmp_path):
    cluster, log, gate, jobid, other, first = _killed_while_held(
        make_cluster, tmp_path)
    cluster.start()
    # The first host's hello finds it dispatched there and holds it again.
    wait_for(lambda: f"job {jobid}: start held again for HOST_PRE_EXEC on "
             f"{other}" in cluster.log_tail(),
             what="the restarted controller to hold the start again")
    with open(log, "a") as f:
        f.write(f"gate x {jobid}\n")
    gate.touch()
    cluster.wait_stat(jobid, "DONE", "EXIT", timeout=30)
    wait_for(lambda: len(_lines(log, jobid)) >= 6, what="the post steps")
    lines = _lines(log, jobid)
    # The other host ran HOST_PRE_EXEC once (its agent went on with the
    # run it had), and only after it the first host's and the job, once.
    assert lines[:4] == [["pre", other], ["gate", "x"], ["pre", first],
                         ["job", "x"]], lines
    assert [x for x in lines if x[0] in ("job", "pre")] == \
        [lines[0], *lines[2:4]]
    assert cluster.stat(jobid) == "DONE"


def _running(step):
    """Is a process running *step* (a host step, through its shell)?"""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if str(step).encode() in f.read():
                    return True
        except OSError:
            pass
    return False


def test_a_host_pre_exec_ended_while_the_controller_was_down_runs_once(
        make_cluster, tmp_path):
    cluster, log, gate, jobid, other, first = _killed_while_held(
        make_cluster, tmp_path)
    # Its end, said to no controller, is lost; asked again after the
    # restart, the agent says it again and does not run it twice.
    gate.touch()
    wait_for(lambda: not _running(tmp_path / "step.sh"), timeout=20,
             what="HOST_PRE_EXEC to end")
    cluster.start()
    _ran_once(cluster, log, jobid, other, first)


def _ran_once(cluster, log, jobid, other, first):
    """The job ended DONE after one HOST_PRE_EXEC on each host."""
    cluster.wait_stat(jobid, "DONE", "EXIT", timeout=30)
    wait_for(lambda: len(_lines(log, jobid)) >= 5, what="the post steps")
    lines = _lines(log, jobid)
    assert [x for x in lines if x[0] in ("job", "pre")] == \
        [["pre", other], ["pre", first], ["job", "x"]], lines
    assert cluster.stat(jobid) == "DONE"


def _journalled_end(cluster, host, jobid):
    """Has *host*'s agent journalled the end of *jobid*'s HOST_PRE_EXEC
    (xce-agent-journal(5): an hsteps record with its code)?"""
    try:
        text = (cluster.spool / "agents" / host / "journal").read_text()
    except FileNotFoundError:
        return False
    return any(f'"key":[{jobid},' in line and '"t":"hsteps"' in line and
               '"code":' in line for line in text.splitlines())


def test_a_host_pre_exec_ended_before_its_agent_restarted_runs_once(
        make_cluster, tmp_path):
    cluster, log, gate, jobid, other, first = _killed_while_held(
        make_cluster, tmp_path)
    gate.touch()
    wait_for(lambda: _journalled_end(cluster, other, jobid), timeout=20,
             what="the other host's agent to journal HOST_PRE_EXEC's end")
    # Its agent killed between the step's end and the job's start: the
    # restarted controller launches it again, asks it again, and it says
    # how the step ended from its journal rather than running it again.
    pidfile = cluster.spool / "agents" / other / "agent.pid"
    agent = int(pidfile.read_text())
    os.kill(agent, signal.SIGKILL)
    cluster.start()
    wait_for(lambda: agent not in cluster.agent_pids() and
             len(cluster.agent_pids()) == 2,
             what="the controller to launch the other host's agent again")
    _ran_once(cluster, log, jobid, other, first)


def test_host_post_exec_failing_on_another_host_is_the_jobs_post_err(
        make_cluster, tmp_path):
    cluster, log, gate = _cluster(make_cluster, tmp_path)
    gate.touch()
    jobid = _submit(cluster, tmp_path, "true")
    after_err = cluster.submit("-w", f"post_err({jobid})", "true")
    never = cluster.submit("-w", f"post_done({jobid})", "true")
    cluster.wait_stat(jobid, "DONE", timeout=30)
    cluster.wait_stat(after_err, "DONE", timeout=30)
    assert cluster.stat(never) == "PEND"
    posts = sorted(h for stage, h in _lines(log, jobid) if stage == "post")
    assert posts == sorted(HOSTS), _lines(log, jobid)
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0 and "Post job process failed." in r.joined, r
    r = cluster.run("bhist", "-l", str(jobid))
    text = r.joined
    assert r.rc == 0 and "Post job process failed;" in text, r
    assert "Post job process done" not in text, r


# HOST_PRE_EXEC that says its host and pid ($$) on the job's other host,
# and sleeps there the first time.
SLEEPS = WHICH_HOST + """\
[ "$host" = "${{LSB_HOSTS%% *}}" ] && exit 0
echo "$host $$" >>{said}
[ -e {once} ] && exit 0
: >{once}
sleep 600
"""


def _said(path):
    try:
        return [(h, int(p)) for h, p in
                (x.split() for x in path.read_text().splitlines())]
    except FileNotFoundError:
        return []


def test_a_host_pre_exec_left_by_a_killed_agent_is_killed_and_run_again(
        make_cluster, tmp_path):
    said, step = tmp_path / "said", tmp_path / "sleeps.sh"
    step.write_text(SLEEPS.format(said=said, once=tmp_path / "once"))
    step.chmod(0o755)
    os.chmod(tmp_path, 0o755)
    cluster = make_cluster(
        virtual_hosts=HOSTS, mxj=1, extra_params="  MBD_SLEEP_TIME: 1",
        extra_queues=f"  sleepy:\n    PRIORITY: 20\n"
                     f"    HOST_PRE_EXEC: {step} pre\n")
    jobid = cluster.submit("-q", "sleepy", "-n", "2", "-R", "span[ptile=1]",
                           "-o", str(tmp_path / "%J.out"), "true")
    wait_for(lambda: _said(said), timeout=20,
             what="HOST_PRE_EXEC to sleep on the other host")
    [(other, pid)] = _said(said)
    agent = int((cluster.spool / "agents" / other / "agent.pid").read_text())
    os.kill(agent, signal.SIGKILL)
    try:
        # The relaunched agent kills the step its predecessor left (its
        # pid and start time are journalled), which failed with it.
        wait_for(lambda: agent not in cluster.agent_pids() and
                 len(cluster.agent_pids()) == 2,
                 what="the controller to launch the other agent again")
        wait_for(lambda: not _alive(pid), what="the step left running to go")
        # A failed HOST_PRE_EXEC: back to PEND, then run once, after the
        # step ran again (and passed) for the next attempt.
        assert cluster.wait_stat(jobid, "DONE", "EXIT", timeout=30) == \
            "DONE"
    finally:
        if _alive(pid):
            os.killpg(pid, signal.SIGKILL)
    assert len(_said(said)) == 2
    r = cluster.run("bhist", "-l", str(jobid))
    text = r.joined
    assert r.rc == 0 and "The job's pre-exec command exited with " \
        "non-zero status;" in text, r
    assert text.count("Dispatched 2 Task(s)") == 2, r
