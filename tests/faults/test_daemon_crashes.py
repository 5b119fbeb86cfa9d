"""Jobs outlive daemons: kill -9 the agent or the controller, lose nothing."""

import random
import signal
import threading

from tests.lib.xcecluster import wait_for

RUNNING_JOBS = 20


def _statuses(cluster, jobids):
    r = cluster.run("bjobs", "-noheader", "-w", "-a",
                    *[str(j) for j in jobids])
    return {int(line.split()[0]): line.split()[2]
            for line in r.out.splitlines()}


def _exit_code(cluster, jobid):
    out = (cluster.root / f"o.{jobid}").read_text()
    if "Successfully completed." in out:
        return 0
    return int(out.split("Exited with exit code ")[1].split(".")[0])


def test_agent_kill9_keeps_jobs_and_their_exit_statuses(make_cluster):
    cluster = make_cluster(mxj=RUNNING_JOBS)
    gate = cluster.root / "go"
    jobs = {}
    for i in range(RUNNING_JOBS):
        jobid = cluster.submit(
            "-o", "o.%J",
            f"echo started >> starts.$LSB_JOBID; "
            f"while [ ! -e {gate} ]; do sleep 0.05; done; exit {i % 5}")
        jobs[jobid] = i % 5
    wait_for(lambda: set(_statuses(cluster, jobs).values()) == {"RUN"},
             what="all jobs running")
    agent = cluster.agent_pid()
    import os
    os.kill(agent, signal.SIGKILL)
    wait_for(lambda: cluster.agent_pid() not in (None, agent),
             what="the controller to relaunch the agent")
    gate.write_text("")
    wait_for(lambda: set(_statuses(cluster, jobs).values()) <= {"DONE",
                                                                "EXIT"},
             timeout=60, what="all jobs to finish")
    for jobid, code in jobs.items():
        starts = (cluster.root / f"starts.{jobid}").read_text()
        assert starts == "started\n", f"job {jobid} started twice"
        stat = _statuses(cluster, [jobid])[jobid]
        assert stat == ("DONE" if code == 0 else "EXIT")


def test_controller_kill9_during_submissions_loses_and_doubles_nothing(
        make_cluster):
    cluster = make_cluster(mxj=8)
    rng = random.Random(20261129)
    printed, lock, stop = [], threading.Lock(), threading.Event()

    def submitter(worker):
        for n in range(SUBMISSIONS // WORKERS):
            code = (worker * 7 + n) % 4
            r = cluster.run("bsub", "-o", "o.%J",
                            f"echo $LSB_JOBID >> ran.txt; exit {code}")
            if r.rc == 0:
                with lock:
                    printed.append((int(r.out.split("<")[1].split(">")[0]),
                                    code))

    def killer():
        while not stop.wait(rng.uniform(0.3, 1.5)):
            cluster.kill_controller(signal.SIGKILL)
            cluster.start(wait_hosts=False)

    threads = [threading.Thread(target=submitter, args=(w,))
               for w in range(WORKERS)]
    chaos = threading.Thread(target=killer)
    chaos.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    chaos.join()
    ids = [j for j, _ in printed]
    assert len(ids) == len(set(ids)) == SUBMISSIONS
    wait_for(lambda: set(_statuses(cluster, ids).values()) <= {"DONE",
                                                               "EXIT"},
             timeout=120, what="every job to finish")
    ran = (cluster.root / "ran.txt").read_text().split()
    assert sorted(map(int, ran)) == sorted(ids), "a job ran twice or never"
    for jobid, code in printed:
        assert _exit_code(cluster, jobid) == code


SUBMISSIONS = 500
WORKERS = 5
