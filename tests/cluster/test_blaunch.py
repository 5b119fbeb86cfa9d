"""blaunch: tasks of a job started on each of its hosts through their agents,
waited for, and killed with the job.

Tasks append "<host> <pid>" to a file in the test's directory (shared with
the hosts) and then wait for a "go" file, so nothing depends on timing.
"""

import os
import shutil
import signal
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.cluster.test_ssh_cluster import HOSTS, SLOTS, Jobs
from tests.lib.xcecluster import _alive, shared_cluster, wait_for

# A task: record where it runs, wait for the go file, exit with its status.
TASK = ('echo "$(hostname) $$" >>{d}/$LSB_JOBID.tasks; '
        'while [ ! -e {d}/$LSB_JOBID.go ]; do sleep 0.05; done; '
        'exit $(cat {d}/$LSB_JOBID.go)')


@pytest.fixture(scope="module")
def blclu(ssh_hosts):
    if not ssh_hosts.users:
        pytest.skip("test users need root")
    with shared_cluster("xcebl-", ssh_hosts=ssh_hosts, mxj=SLOTS) as c:
        yield c


@pytest.fixture
def jobs(blclu, ssh_hosts):
    """Jobs of root: blaunch runs inside the job, and on this machine the
    venv's interpreter lives where other users cannot reach it (a test of
    tasks as another user belongs to the agent's unit of work: see
    test_blaunch_tasks_run_as_the_jobs_user)."""
    user = ssh_hosts.users[0]
    work = Path(tempfile.mkdtemp(prefix="w", dir=user.home))
    wait_for(blclu._hosts_ok, timeout=40, what="every host to be ok")
    js = Jobs(blclu, SimpleNamespace(name=None), work)
    try:
        yield js
    finally:
        js.cleanup()
        for jobid in js.ids:
            for _, pid in _tasks(js, jobid):
                _kill(pid)
        shutil.rmtree(work, ignore_errors=True)


def _kill(pid):
    """A task's whole session: the agent's task wrapper leads it."""
    try:
        os.killpg(os.getpgid(pid), signal.SIGKILL)
    except OSError:
        pass


def _debug(jobs, jobid):
    out = jobs.work / f"{jobid}.out"
    return (out.read_text() if out.exists() else "(no output)") + \
        jobs.clu.log_tail()[-1500:]


def _tasks(jobs, jobid):
    try:
        text = (jobs.work / f"{jobid}.tasks").read_text()
    except FileNotFoundError:
        return []
    return [(h, int(p)) for h, p in (line.split() for line in text.splitlines())]


def _blaunch_on_each_host(jobs, extra=""):
    """A 6-slot job over the three hosts whose script blaunches a task on
    each distinct host and reports blaunch's exit status."""
    task = TASK.format(d=jobs.work).replace("'", "'\\''")
    script = (f'hosts=$(echo $LSB_HOSTS | tr " " "\\n" | uniq | tr "\\n" " "); '
              f"blaunch -z \"$hosts\" /bin/sh -c '{task}'; "
              f'echo "blaunch=$?" >{jobs.work}/$LSB_JOBID.rc{extra}')
    return jobs.submit("-n", "6", "-R", "span[ptile=2]", command=script)


def test_blaunch_runs_a_task_on_each_host_and_returns_their_status(jobs, ssh_hosts):
    jobid = _blaunch_on_each_host(jobs)
    try:
        wait_for(lambda: len(_tasks(jobs, jobid)) == 3, timeout=30,
                 what="a task on each host")
    except AssertionError:
        raise AssertionError(_debug(jobs, jobid))
    tasks = _tasks(jobs, jobid)
    if ssh_hosts.mode == "netns":
        assert sorted(h for h, _ in tasks) == sorted(HOSTS)
    assert all(_alive(pid) for _, pid in tasks)
    jobs.release(jobid, 3)
    stat, code, _ = jobs.wait_finished(jobid)
    assert (jobs.work / f"{jobid}.rc").read_text().strip() == "blaunch=3"
    assert stat == "DONE"           # the script's last command succeeded
    assert not any(_alive(pid) for _, pid in tasks)


def test_blaunch_tasks_die_with_bkill(jobs, ssh_hosts):
    jobid = _blaunch_on_each_host(jobs)
    wait_for(lambda: len(_tasks(jobs, jobid)) == 3, timeout=30,
             what="a task on each host")
    tasks = _tasks(jobs, jobid)
    r = jobs.clu.run("bkill", str(jobid))
    assert r.rc == 0, r
    assert jobs.wait_finished(jobid)[0] == "EXIT"
    for host, pid in tasks:
        wait_for(lambda: not _alive(pid), timeout=20,
                 what=f"the task on {host} to die")


def test_blaunch_outside_a_job_or_to_a_foreign_host_is_refused(jobs, blclu):
    r = blclu.run("blaunch", "xh1", "true", env={"LSB_JOBID": ""})
    assert r.rc == 255 and "LSB_JOBID" in r.err, r
    script = f"blaunch nosuchhost true; echo $? >{jobs.work}/$LSB_JOBID.rc"
    jobid = jobs.submit(command=script)
    assert jobs.wait_finished(jobid)[0] == "DONE"
    assert (jobs.work / f"{jobid}.rc").read_text().strip() == "255"


def test_blaunch_tasks_run_as_the_jobs_user(blclu, ssh_hosts):
    """blaunch called as the owner of a running job (with its LSB_JOBID),
    from outside it: the request's kernel-given owner is what counts."""
    from tests.cluster.test_ssh_cluster import JOB
    user = ssh_hosts.users[0]
    work = Path(tempfile.mkdtemp(prefix="w", dir=user.home))
    os.chown(work, user.uid, user.gid)
    wait_for(blclu._hosts_ok, timeout=40, what="every host to be ok")
    js = Jobs(blclu, user, work)
    try:
        jobid = js.submit("-n", "6", "-R", "span[ptile=2]",
                          command=JOB.format(d=work))
        js.wait_running(jobid)
        out = work / "who"
        r = blclu.run("blaunch", "-z", " ".join(HOSTS), "/bin/sh", "-c",
                      f'echo "$(id -un) $(hostname)" >>{out}; exit 4',
                      user=user.name, cwd=work,
                      env={"LSB_JOBID": str(jobid), "LSB_JOBINDEX": "0"})
        assert r.rc == 4, r
        lines = sorted(out.read_text().splitlines())
        assert [x.split()[0] for x in lines] == [user.name] * 3
        if ssh_hosts.mode == "netns":
            assert [x.split()[1] for x in lines] == sorted(HOSTS)
        js.release(jobid, 0)
        assert js.wait_finished(jobid)[0] == "DONE"
    finally:
        js.cleanup()
        shutil.rmtree(work, ignore_errors=True)


# -- tasks are part of the job on their host ----------------------------------
def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _all_tasks(jobs, jobid):
    wait_for(lambda: len(_tasks(jobs, jobid)) == 3, timeout=30,
             what="a task on each host")
    return _tasks(jobs, jobid)


def test_bstop_and_bresume_reach_the_tasks_on_every_host(jobs):
    jobid = _blaunch_on_each_host(jobs)
    tasks = _all_tasks(jobs, jobid)
    assert jobs.clu.run("bstop", str(jobid)).rc == 0
    for host, pid in tasks:
        wait_for(lambda: _state(pid) == "T", timeout=20,
                 what=f"the task on {host} to stop")
    assert jobs.clu.run("bresume", str(jobid)).rc == 0
    for host, pid in tasks:
        wait_for(lambda: _state(pid) not in ("T", None), timeout=20,
                 what=f"the task on {host} to go on")
    jobs.release(jobid, 0)
    assert jobs.wait_finished(jobid)[0] == "DONE"


# A task that takes about 40 MB and 0.6 s of CPU, then waits for the go file.
BUSY = ("import os, socket, time\n"
        "x = b'x' * (40 << 20)\n"
        "open('{d}/%s.tasks' % os.environ['LSB_JOBID'], 'a').write("
        "'%s %d\\n' % (socket.gethostname(), os.getpid()))\n"
        "t = time.process_time()\n"
        "while time.process_time() - t < 0.6: pass\n"
        "go = '{d}/%s.go' % os.environ['LSB_JOBID']\n"
        "while not os.path.exists(go): time.sleep(0.05)\n")


def _usage(jobs, jobid):
    row = jobs.clu.stored_job(jobid)
    return row["cpu_time"] or 0.0, row["max_mem"] or 0


def test_the_tasks_cpu_and_memory_count_in_the_jobs_usage(jobs):
    script = BUSY.format(d=jobs.work)
    (jobs.work / "busy.py").write_text(script)
    jobid = jobs.submit(
        "-n", "6", "-R", "span[ptile=2]",
        command='hosts=$(echo $LSB_HOSTS | tr " " "\\n" | uniq | '
                'tr "\\n" " "); '
                f'blaunch -z "$hosts" python3 {jobs.work}/busy.py')
    try:
        _all_tasks(jobs, jobid)
    except AssertionError:
        raise AssertionError(_debug(jobs, jobid))
    # Three tasks: 1.8 s of CPU and 120 MB, two thirds of it on the hosts
    # where the job itself does not run.
    try:
        wait_for(lambda: _usage(jobs, jobid)[0] >= 1.6 and
                 _usage(jobs, jobid)[1] >= 110 * 1024, timeout=30,
                 what="the tasks' usage in the job's")
    except AssertionError:
        raise AssertionError(f"{_usage(jobs, jobid)} " + _debug(jobs, jobid))
    jobs.release(jobid, 0)
    assert jobs.wait_finished(jobid)[0] == "DONE"
    cpu, mem = _usage(jobs, jobid)
    assert cpu >= 1.6 and mem >= 110 * 1024, (cpu, mem)


def test_a_killed_agent_readopts_its_tasks_and_reports_their_exit(jobs, blclu, ssh_hosts):
    from tests.cluster.test_ssh_cluster import _agent_pid
    jobid = _blaunch_on_each_host(jobs)
    tasks = _all_tasks(jobs, jobid)
    first = jobs.fields(jobid)[2]
    victims = [first] + [h for h, _ in tasks if h != first][:1] \
        if ssh_hosts.mode == "netns" else ["xh1", "xh2"]
    old = {h: _agent_pid(blclu, h) for h in victims}
    for host in victims:
        os.kill(old[host], signal.SIGKILL)
    for host in victims:
        wait_for(lambda: _agent_pid(blclu, host) not in (None, old[host]) and
                 blclu._hosts_ok(), timeout=40,
                 what=f"a new agent on {host}")
    # Re-adopted: not killed, not started again.
    assert all(_alive(pid) for _, pid in tasks)
    assert _tasks(jobs, jobid) == tasks
    assert jobs.fields(jobid)[0] == "RUN"
    jobs.release(jobid, 5)
    assert jobs.wait_finished(jobid)[0] == "DONE"
    assert (jobs.work / f"{jobid}.rc").read_text().strip() == "blaunch=5"
    assert not any(_alive(pid) for _, pid in tasks)


def test_readopted_tasks_still_die_with_bkill(jobs, blclu):
    from tests.cluster.test_ssh_cluster import _agent_pid
    jobid = _blaunch_on_each_host(jobs)
    tasks = _all_tasks(jobs, jobid)
    old = {h: _agent_pid(blclu, h) for h in HOSTS}
    for pid in old.values():
        os.kill(pid, signal.SIGKILL)
    for host in HOSTS:
        wait_for(lambda: _agent_pid(blclu, host) not in (None, old[host]) and
                 blclu._hosts_ok(), timeout=40,
                 what=f"a new agent on {host}")
    assert all(_alive(pid) for _, pid in tasks)
    assert jobs.clu.run("bkill", str(jobid)).rc == 0
    assert jobs.wait_finished(jobid)[0] == "EXIT"
    for host, pid in tasks:
        wait_for(lambda: not _alive(pid), timeout=20,
                 what=f"the task on {host} to die")


def test_a_task_exit_while_the_controller_is_down_reaches_blaunch(jobs, blclu):
    jobid = _blaunch_on_each_host(jobs)
    tasks = _all_tasks(jobs, jobid)
    blclu.kill_controller()
    jobs.release(jobid, 4)
    # The tasks end with nobody to tell: their agents keep the exits.
    for host, pid in tasks:
        wait_for(lambda: not _alive(pid), timeout=20,
                 what=f"the task on {host} to end")
    blclu.start()
    assert jobs.wait_finished(jobid)[0] == "DONE"
    assert (jobs.work / f"{jobid}.rc").read_text().strip() == "blaunch=4"
