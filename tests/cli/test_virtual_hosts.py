"""Many hosts on one machine: every virtual host (a host with launch: local
under its own name) is a real agent process with its own agent directory,
and the jobs placed on it really run there."""

from tests.lib.xcecluster import virtual_names, wait_for

HOSTS = 20
JOBS = 200


def _finished(cluster):
    r = cluster.run("bjobs", "-a", "-noheader", "-o", "stat")
    return r.out.split().count("DONE") >= JOBS and r


def test_200_jobs_spread_over_20_virtual_hosts(make_cluster, tmp_path):
    names = virtual_names(HOSTS)
    cluster = make_cluster(virtual_hosts=names, mxj=2, start=False)
    cluster.start(timeout=120)
    assert len(set(cluster.agent_pids())) == HOSTS
    dirs = sorted(p.name for p in (cluster.spool / "agents").iterdir())
    assert dirs == names

    # Queued while the queue is inactive, so one pass spreads them.
    assert cluster.run("badmin", "qinact", "normal").rc == 0
    out = tmp_path / "out"
    out.mkdir()
    pack = tmp_path / "jobs.pack"
    pack.write_text("".join(f"-o {out}/%J echo $LSB_HOSTS\n"
                            for _ in range(JOBS)))
    r = cluster.run("bsub", "-pack", str(pack))
    assert r.rc == 0, r
    assert r.out.count("is submitted to default queue <normal>") == JOBS
    assert cluster.run("badmin", "qact", "normal").rc == 0
    wait_for(lambda: _finished(cluster), timeout=180,
             what=f"{JOBS} jobs to finish")

    r = cluster.run("bjobs", "-a", "-noheader", "-o", "jobid stat exec_host")
    assert r.rc == 0 and r.err == "", r
    rows = [line.split() for line in r.out.splitlines()]
    assert len(rows) == JOBS
    assert {stat for _, stat, _ in rows} == {"DONE"}
    assert {host for _, _, host in rows} == set(names)
    # Each job ran where the store says, as its agent told it (LSB_HOSTS).
    for jobid, _, host in rows:
        first = (out / jobid).read_text().splitlines()[0]
        assert first == host, (jobid, first, host)

    r = cluster.run("bhosts", "-w")
    assert r.rc == 0 and r.err == "", r
    assert [line.split()[0] for line in r.out.splitlines()[1:]] == names


def test_first_jobs_of_a_user_on_many_virtual_hosts_at_once_all_run(
        make_cluster):
    """Without -o the output goes to the user's directory under the shared
    spool, which the agents of all virtual hosts may make at once."""
    names = virtual_names(HOSTS)
    cluster = make_cluster(virtual_hosts=names, mxj=2, start=False)
    cluster.start(timeout=120)
    assert cluster.run("badmin", "qinact", "normal").rc == 0
    r = cluster.run("bsub", "-J", "first[1-40]", "true")
    assert r.rc == 0, r
    assert cluster.run("badmin", "qact", "normal").rc == 0
    done = wait_for(lambda: _all_ended(cluster, 40), timeout=120,
                    what="40 jobs to end")
    assert done.count("DONE") == 40, done


def _all_ended(cluster, n):
    r = cluster.run("bjobs", "-a", "-noheader", "-o", "stat")
    stats = r.out.split()
    ended = [s for s in stats if s in ("DONE", "EXIT")]
    return len(ended) >= n and ended
