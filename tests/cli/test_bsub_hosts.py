"""bsub -m and bmod -m end to end on virtual hosts: the job runs only on
the listed hosts or host groups, preferred ones first; the others show
LSF's per-host reason; bjobs -l shows the list; bad names are refused."""

import pytest

from tests.lib.xcecluster import wait_for

HOSTS = ["vh000", "vh001", "vh002"]
GROUPS = "host_groups:\n  pair: [vh001, vh002]\n"
QUEUES = """\
  first:
    PRIORITY: 35
    HOSTS: vh000
"""


@pytest.fixture
def three(make_cluster):
    return make_cluster(virtual_hosts=HOSTS, mxj=2, extra=GROUPS,
                        extra_queues=QUEUES)


def _exec_host(cluster, jobid):
    r = cluster.run("bjobs", "-noheader", "-o", "exec_host", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.out.strip()


def _pend(cluster, jobid, *args):
    r = cluster.run("bjobs", *args, "-p", str(jobid))
    assert r.rc == 0, r
    return r.out


def _long(cluster, jobid):
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.joined


def test_job_runs_only_on_listed_hosts_preferred_first(three):
    one = three.submit("-m", "vh002", "sleep", "60")
    three.wait_stat(one, "RUN")
    assert _exec_host(three, one) == "vh002"
    assert "Specified Hosts <vh002>" in _long(three, one)
    # The group is preferred over vh000; within it the roomier vh001.
    two = three.submit("-m", "vh000 pair+2", "sleep", "60")
    three.wait_stat(two, "RUN")
    assert _exec_host(three, two) == "vh001"
    assert "Specified Hosts <vh000>, <pair+2>" in _long(three, two)
    # others: the preferred host is full, so any other one.
    three.submit("-m", "vh002", "sleep", "60")     # vh002 now full
    three_ = three.submit("-m", "vh002+1 others", "sleep", "60")
    three.wait_stat(three_, "RUN")
    assert _exec_host(three, three_) == "vh000"


def test_unlisted_hosts_pend_with_not_specified_in_job_submission(three):
    full = three.submit("-n", "2", "-m", "vh000", "sleep", "60")
    three.wait_stat(full, "RUN")
    waiting = three.submit("-m", "vh000", "sleep", "60")
    wait_for(lambda: "Not specified in job submission: 2 hosts" in
             _pend(three, waiting), what="the -m pend reason")
    out = _pend(three, waiting)
    assert " Not enough job slot(s): 1 host;" in out
    assert three.stat(waiting) == "PEND"
    # -p3 counts them as non-candidates.
    out = _pend(three, waiting, "-p3")
    assert " Non-candidate host pending reasons (2 of 3 hosts):\n" \
        "   Not specified in job submission: 2 hosts;" in out, out

    # bmod -m on the pending job: now it may run on vh001.
    r = three.run("bmod", "-m", "vh001", str(waiting))
    assert r.rc == 0 and r.err == "", r
    assert r.out.strip() == f"Parameters of job <{waiting}> are being changed"
    three.wait_stat(waiting, "RUN")
    assert _exec_host(three, waiting) == "vh001"


def test_bmod_mn_removes_the_list(three):
    full = three.submit("-n", "2", "-m", "vh000", "sleep", "60")
    three.wait_stat(full, "RUN")
    waiting = three.submit("-H", "-m", "vh000", "sleep", "60")
    r = three.run("bmod", "-mn", str(waiting))
    assert r.rc == 0 and r.err == "", r
    assert "Specified Hosts" not in _long(three, waiting)
    r = three.run("bresume", str(waiting))
    assert r.rc == 0, r
    three.wait_stat(waiting, "RUN")
    assert _exec_host(three, waiting) in ("vh001", "vh002")


@pytest.mark.parametrize("args, message", [
    (["-m", "nosuch"],
     "nosuch: Bad host name, host group name or cluster name"),
    (["-m", "vh000 nosuch+2"],
     "nosuch+2: Bad host name, host group name or cluster name"),
    (["-m", "others"],
     "others: Bad host name, host group name or cluster name"),
    (["-m", "vh000+x"],
     "vh000+x: Bad host name, host group name or cluster name"),
    (["-m", "vh000!"],
     "vh000!: first execution host candidates (!) are not supported by xce"),
    (["-q", "first", "-m", "pair"],
     "pair: Host or host group is not used by the queue"),
    (["-q", "first", "-m", "vh001 vh002+1"],
     "vh001: Host or host group is not used by the queue"),
])
def test_bad_host_lists_are_refused(three, args, message):
    r = three.run("bsub", *args, "true")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"{message}. Job not submitted.\n"
    r = three.run("bhosts")            # the controller goes on
    assert r.rc == 0 and r.err == "", r


def test_others_lets_a_queue_restricted_job_in(three):
    jobid = three.submit("-q", "first", "-m", "vh001 others", "true")
    three.wait_stat(jobid, "DONE")
    assert _exec_host(three, jobid) == "vh000"


def test_bmod_m_refuses_bad_names_and_keeps_the_job(three):
    waiting = three.submit("-H", "-m", "vh000", "sleep", "60")
    r = three.run("bmod", "-m", "nosuch", str(waiting))
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == ("nosuch: Bad host name, host group name or cluster "
                     "name. Job not modified.\n"), r
    assert "Specified Hosts <vh000>" in _long(three, waiting)


def test_bswitch_to_a_queue_using_none_of_the_hosts_is_refused(three):
    waiting = three.submit("-H", "-m", "pair", "sleep", "60")
    r = three.run("bswitch", "first", str(waiting))
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == "first: Host or host group is not used by the queue\n"
    assert three.run("bjobs", "-noheader", "-o", "queue",
                     str(waiting)).out.strip() == "normal"


def test_lsb_events_job_new_records_the_asked_hosts(three):
    jobid = three.submit("-H", "-m", "vh000 pair+2", "sleep", "60")
    line = " ".join(three.wait_lsb_records("lsb.events", "JOB_NEW",
                                           jobid)[0])
    assert ' 2 "vh000" "pair+2" ' in line, line


PREFERRING = """\
  preferring:
    PRIORITY: 35
    HOSTS: vh000 pair+2
"""


def test_the_queue_hosts_preference_decides_where_jobs_go(make_cluster):
    """HOSTS = vh000 pair+2: the group's hosts first, vh000 when they are
    full; a job's own -m preference overrides the queue's.  Before, the
    +2 was dropped and the first job went to vh000, as without it."""
    cluster = make_cluster(virtual_hosts=HOSTS, mxj=1, extra=GROUPS,
                           extra_queues=PREFERRING)
    first = cluster.submit("-q", "preferring", "sleep", "60")
    cluster.wait_stat(first, "RUN")
    assert _exec_host(cluster, first) in ("vh001", "vh002")
    second = cluster.submit("-q", "preferring", "sleep", "60")
    cluster.wait_stat(second, "RUN")
    assert {_exec_host(cluster, first), _exec_host(cluster, second)} == \
        {"vh001", "vh002"}
    third = cluster.submit("-q", "preferring", "sleep", "60")
    cluster.wait_stat(third, "RUN")
    assert _exec_host(cluster, third) == "vh000"
    for job in (first, second, third):
        cluster.run("bkill", str(job))
    wait_for(lambda: all(cluster.stat(j) == "EXIT"
                         for j in (first, second, third)),
             what="the jobs to end")
    own = cluster.submit("-q", "preferring", "-m", "vh000+1 pair",
                         "sleep", "60")
    cluster.wait_stat(own, "RUN")
    assert _exec_host(cluster, own) == "vh000"
