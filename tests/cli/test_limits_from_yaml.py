"""The enforcement map: each scheduling key written in
xce.yaml acts on a live cluster, with LSF's pend reason or submit error.

Then the lsb.resources Limit sections (``limits:``) end to end."""

import os
import socket
import time

import pytest

from tests.lib.xcecluster import wait_for

HOST = socket.gethostname()
NOBODY = "65534"


def _reasons(cluster, jobid):
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r.rc == 0, r
    return r.out


def _pends_with(cluster, jobid, text):
    wait_for(lambda: text in _reasons(cluster, jobid),
             what=f"pend reason {text!r} for job {jobid}")
    assert cluster.stat(jobid) == "PEND"


def _queue(name, **keys):
    return f"  {name}:\n" + "".join(f"    {k}: {v}\n"
                                    for k, v in keys.items())


def _running(cluster, *argv):
    jobid = cluster.submit(*argv, "sleep 60")
    cluster.wait_stat(jobid, "RUN")
    return jobid


# --------------------------------------------------------------- lsb.queues
def test_queue_priority_orders_dispatch(make_cluster):
    cluster = make_cluster(mxj=1, extra_queues=_queue("low", PRIORITY=10) +
                           _queue("high", PRIORITY=50))
    blocker = _running(cluster)
    low = cluster.submit("-q", "low", "sleep 60")
    high = cluster.submit("-q", "high", "sleep 60")
    cluster.run("bkill", str(blocker))
    cluster.wait_stat(high, "RUN")
    assert cluster.stat(low) == "PEND"


@pytest.mark.skipif(os.geteuid() != 0, reason="submitting as another user "
                    "needs root")
def test_queue_users_refuse_others_at_submit(open_cluster):
    cluster = open_cluster(extra_queues=_queue("only", USERS="root"))
    # nobody, by number: its group is not called nobody everywhere.
    r = cluster.run("bsub", "-q", "only", "true", user=NOBODY)
    assert (r.rc, r.out) == (255, "")
    assert r.err == "only: User cannot use the queue. Job not submitted.\n"
    r = cluster.run("bsub", "-q", "normal", "true", user=NOBODY)
    assert r.rc == 0, r


def test_bqueues_u_leaves_out_the_queues_a_user_is_excluded_from(
        make_cluster):
    cluster = make_cluster(extra_queues=_queue("most", USERS="'all ~nobody'")
                           + _queue("only", USERS="root"))
    r = cluster.run("bqueues", "-u", "nobody")
    assert (r.rc, r.err) == (0, ""), r
    shown = [line.split()[0] for line in r.out.splitlines()[1:]]
    assert "normal" in shown and "most" not in shown and "only" not in shown
    r = cluster.run("bqueues", "-u", "root")
    assert {"most", "only", "normal"} <= {line.split()[0] for line in
                                          r.out.splitlines()[1:]}


def test_queue_hosts_leave_a_job_pending_on_other_hosts(make_cluster):
    cluster = make_cluster(extra_queues=_queue(
        "elsewhere", HOSTS=f"all ~{HOST}"))
    jobid = cluster.submit("-q", "elsewhere", "true")
    _pends_with(cluster, jobid, " Not usable to the queue: 1 host;")


def test_queue_ujob_limit(make_cluster):
    cluster = make_cluster(mxj=4, extra_queues=_queue("q", UJOB_LIMIT=1))
    _running(cluster, "-q", "q")
    jobid = cluster.submit("-q", "q", "true")
    _pends_with(cluster, jobid, " User has reached the per-user job slot "
                "limit of the queue;")


def test_queue_hjob_limit(make_cluster):
    cluster = make_cluster(mxj=4, extra_queues=_queue("q", HJOB_LIMIT=1))
    _running(cluster, "-q", "q")
    jobid = cluster.submit("-q", "q", "true")
    _pends_with(cluster, jobid,
                " Queue's per-host job slot limit reached: 1 host;")


def test_queue_qjob_limit(make_cluster):
    cluster = make_cluster(mxj=4, extra_queues=_queue("q", QJOB_LIMIT=2))
    _running(cluster, "-q", "q", "-n", "2")
    jobid = cluster.submit("-q", "q", "true")
    _pends_with(cluster, jobid, " The queue has reached its job slot limit;")


def test_queue_pjob_limit_counts_slots_per_cpu(make_cluster):
    # One CPU, four slots: PJOB_LIMIT 2 lets the queue use two of them.
    cluster = make_cluster(mxj=4, host_extra="ncpus: 1",
                           extra_queues=_queue("q", PJOB_LIMIT=2))
    _running(cluster, "-q", "q", "-n", "2")
    jobid = cluster.submit("-q", "q", "true")
    _pends_with(cluster, jobid,
                " Queue's per-CPU job slot limit reached: 1 host;")
    other = cluster.submit("-q", "normal", "true")   # not this queue's limit
    cluster.wait_stat(other, "DONE")


def test_queue_runlimit_is_a_default_and_a_hard_limit(make_cluster):
    cluster = make_cluster(extra_queues=_queue("q", RUNLIMIT=0.02))
    r = cluster.run("bsub", "-q", "q", "-W", "5", "true")
    assert (r.rc, r.err) == (255, "RUNLIMIT: Cannot exceed queue's hard "
                             "limit(s). Job not submitted.\n")
    jobid = cluster.submit("-q", "q", "-o", "rl.out", "sleep 60")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_RUNLIMIT" in (cluster.root / "rl.out").read_text()


def test_queue_memlimit_kills_a_job_beyond_it(make_cluster):
    cluster = make_cluster(extra_queues=_queue("q", MEMLIMIT=20480))
    jobid = cluster.submit(
        "-q", "q", "-o", "ml.out",
        "python3 -c 'x = bytearray(300 << 20); import time; time.sleep(60)'")
    cluster.wait_stat(jobid, "EXIT", timeout=40)
    assert "TERM_MEMLIMIT" in (cluster.root / "ml.out").read_text()


# ---------------------------------------------------------------- lsb.hosts
def test_host_mxj(make_cluster):
    cluster = make_cluster(mxj=1)
    _running(cluster)
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid, " Not enough job slot(s): 1 host;")


def test_host_jl_u(make_cluster):
    cluster = make_cluster(mxj=4, host_extra="JL/U: 1")
    _running(cluster)
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid,
                " Host's per-user job slot limit reached: 1 host;")


# --------------------------------------------------------------- lsb.params
def test_default_queue_takes_jobs_without_q(make_cluster):
    cluster = make_cluster(start=False)
    path = cluster.envdir / "xce.yaml"
    path.write_text(path.read_text().replace("DEFAULT_QUEUE: normal",
                                             "DEFAULT_QUEUE: short"))
    cluster.start()
    jobid = cluster.submit("true")
    r = cluster.run("bjobs", "-noheader", "-o", "queue", str(jobid))
    assert r.out.strip() == "short"


# ---------------------------------------------------------------- lsb.users
def test_user_max_jobs(make_cluster):
    cluster = make_cluster(mxj=4, extra="users:\n  root:\n    MAX_JOBS: 1\n")
    _running(cluster)
    jobid = cluster.submit("-q", "short", "true")
    _pends_with(cluster, jobid, " The user has reached his/her job slot "
                "limit;")


def test_user_max_jobs_default_row(make_cluster):
    cluster = make_cluster(mxj=4,
                           extra="users:\n  default:\n    MAX_JOBS: 2\n")
    _running(cluster, "-n", "2")
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid, " The user has reached his/her job slot "
                "limit;")
    # busers shows the limit that holds the job: root has no row of its
    # own, the default row's MAX_JOBS is root's.
    r = cluster.run("busers")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.splitlines()[1].split()[:4] == ["root", "-", "2", "3"]


def test_a_group_at_row_replaces_the_default_row_for_its_members(
        make_cluster):
    """lsb.users: default is for each user not named; a member of group@
    is named by it, so group@'s MAX_JOBS (above default's) is its limit,
    in the scheduler and in busers."""
    cluster = make_cluster(
        mxj=4, extra="user_groups:\n  team: [root]\n"
                     "users:\n  default:\n    MAX_JOBS: 1\n"
                     "  team@:\n    MAX_JOBS: 3\n")
    first, second = _running(cluster), _running(cluster)
    jobid = cluster.submit("-n", "2", "true")
    _pends_with(cluster, jobid, " The user has reached his/her job slot "
                "limit;")
    r = cluster.run("busers")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.splitlines()[1].split()[:4] == ["root", "-", "3", "4"]
    cluster.run("bkill", str(first), str(second))
    cluster.wait_stat(jobid, "DONE")


def test_default_row_limits_a_group_as_a_whole_with_ignore_n(make_cluster):
    """DEFAULT_LIMIT_IGNORE_USER_GROUP: N (what a migrated OpenLava site
    gets): team, a group with no row, takes the default row's MAX_JOBS for
    its members together; busers shows it."""
    cluster = make_cluster(
        mxj=4, extra_params="  DEFAULT_LIMIT_IGNORE_USER_GROUP: N\n",
        extra="user_groups:\n  team: [root, nobody]\n"
              "users:\n  default:\n    MAX_JOBS: 2\n"
              "  root:\n    MAX_JOBS: 4\n")
    _running(cluster, "-n", "2")
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid, " One of the user's groups has reached its "
                "job slot limit;")
    r = cluster.run("busers", "team")
    assert r.rc == 0, r
    assert r.out.splitlines()[1].split()[:4] == ["team", "-", "2", "3"]


def test_u_with_a_user_group_selects_its_members_jobs(make_cluster):
    """bjobs -u, bkill -u (and bstop, bresume) take a user group of
    lsb.users as LSF does: the jobs of its members."""
    cluster = make_cluster(extra="user_groups:\n  team: [root, nobody]\n"
                                 "  others: [nobody]\n")
    jobid = cluster.submit("-H", "true")
    r = cluster.run("bjobs", "-u", "team", "-noheader", "-o", "jobid")
    assert (r.rc, r.out, r.err) == (0, f"{jobid}\n", ""), r
    r = cluster.run("bjobs", "-u", "others")
    assert (r.rc, r.out) == (0, ""), r
    r = cluster.run("bkill", "-u", "others", "0")
    assert r.rc == 255 and cluster.stat(jobid) == "PSUSP", r
    r = cluster.run("bresume", "-u", "team", "0")
    assert r.rc == 0 and f"Job <{jobid}> is being resumed" in r.out, r
    cluster.wait_stat(jobid, "DONE")


# ------------------------------------------------ lsb.resources Limit sections
def _limits(*sections):
    lines = ["limits:"]
    for section in sections:
        first = True
        for key, value in section.items():
            lines.append(f"  {'- ' if first else '  '}{key}: {value}")
            first = False
    return "\n".join(lines) + "\n"


def test_limit_on_users_with_all(make_cluster):
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": "per_user", "PER_USER": "all", "SLOTS": 2}))
    _running(cluster, "-n", "2")
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid, " Resource (slot) limit defined on user or "
                "user group has been reached;")
    # blimits: one row per user in use, with used/limit.
    r = cluster.run("blimits")
    assert r.rc == 0, r
    row = next(x for x in r.out.splitlines() if x.startswith("per_user"))
    assert row.split() == ["per_user", "root", "-", "-", "-", "2/2", "-",
                           "-", "-", "-"]


def test_limit_on_a_queue_leaves_other_queues_alone(make_cluster):
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": "short_q", "QUEUES": "short", "JOBS": 1}))
    _running(cluster, "-q", "short")
    jobid = cluster.submit("-q", "short", "true")
    _pends_with(cluster, jobid, " JOBS limit defined for the queue has been "
                "reached;")
    other = cluster.submit("-q", "normal", "true")
    cluster.wait_stat(other, "DONE")


# One slot on this host: SLOTS, or 0.1 slot per CPU rounded up (10 CPUs
# or fewer), under its MXJ of 4.
@pytest.mark.parametrize("cap", [{"SLOTS": 1}, {"SLOTS_PER_PROCESSOR": 0.1}])
def test_limit_per_host_is_a_host_reason(make_cluster, cap):
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": "per_host", "PER_HOST": "all", **cap}))
    _running(cluster)
    jobid = cluster.submit("true")
    _pends_with(cluster, jobid, " Resource (slot) limit defined on host "
                "and/or host group has been reached: 1 host;")


def test_limit_on_a_project(make_cluster):
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": "proj", "PROJECTS": "p1", "SLOTS": 1}))
    _running(cluster, "-P", "p1")
    jobid = cluster.submit("-P", "p1", "true")
    _pends_with(cluster, jobid, " Resource (slot) limit defined on project "
                "has been reached;")
    other = cluster.submit("-P", "p2", "true")
    cluster.wait_stat(other, "DONE")


def test_limit_per_application_profile(make_cluster):
    cluster = make_cluster(mxj=4, extra=(
        "applications:\n  fluent:\n    DESCRIPTION: CFD\n"
        "  ansys:\n    DESCRIPTION: FEA\n") + _limits(
        {"NAME": "per_app", "PER_APP": "fluent ansys", "SLOTS": 1}))
    _running(cluster, "-app", "fluent")
    jobid = cluster.submit("-app", "fluent", "true")
    _pends_with(cluster, jobid, " Resource (slot) limit defined on "
                "application profile has been reached;")
    # The other profile has its own count; a job without one is not
    # counted at all.
    for argv in (("-app", "ansys"), ()):
        other = cluster.submit(*argv, "true")
        cluster.wait_stat(other, "DONE")
    r = cluster.run("blimits")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[3].split() == ["NAME", "USERS", "QUEUES", "HOSTS",
                                "PROJECTS", "APPS", "SLOTS", "MEM", "TMP",
                                "SWP", "JOBS"], r.out
    row = next(x for x in lines if x.startswith("per_app"))
    assert row.split() == ["per_app", "-", "-", "-", "-", "fluent", "1/1",
                           "-", "-", "-", "-"], r.out


@pytest.mark.parametrize("res, column", [("mem", 6), ("tmp", 7)])
def test_limit_on_mem_or_tmp_counts_rusage(make_cluster, res, column):
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": res, res.upper(): 100}))
    _running(cluster, "-R", f"rusage[{res}=60]")
    jobid = cluster.submit("-R", f"rusage[{res}=60]", "true")
    _pends_with(cluster, jobid, f" Resource ({res}) limit defined "
                "cluster-wide has been reached;")
    small = cluster.submit("-R", f"rusage[{res}=30]", "true")
    cluster.wait_stat(small, "DONE")
    # blimits: what the running job holds of it.
    wanted = [res] + ["-"] * 9
    wanted[column] = "60/100"

    def row():
        out = cluster.run("blimits").out
        return next((x.split() for x in out.splitlines()
                     if x.startswith(res + " ")), None)
    wait_for(lambda: row() == wanted, what=f"blimits {res} use")



def _blimits_row(cluster, name):
    r = cluster.run("blimits")
    assert r.rc == 0, r
    return next((x.split() for x in r.out.splitlines()
                 if x.startswith(name + " ")), None)


def test_blimits_counts_a_started_job_with_nothing_pending(make_cluster):
    # The pass that starts the job is the last one (nothing waits after
    # it): the usage blimits reads is the one its starts committed with.
    cluster = make_cluster(mxj=4, extra=_limits({"NAME": "two", "SLOTS": 2}))
    _running(cluster)
    wanted = ["two", "-", "-", "-", "-", "1/2", "-", "-", "-", "-"]
    wait_for(lambda: _blimits_row(cluster, "two") == wanted,
             what="blimits counting the running job")


def test_blimits_shows_the_time_based_value_in_force(make_cluster):
    now = time.localtime()
    hour = f"{(now.tm_hour - 1) % 24}:00"
    later = f"{(now.tm_hour + 2) % 24}:00"
    far = f"{(now.tm_hour + 4) % 24}:00"
    cluster = make_cluster(mxj=4, extra=_limits(
        {"NAME": "daily", "SLOTS": f'"[1 {hour}-{later}] [3 {later}-{hour}]"'},
        # Its only window is closed now: no limit in force.
        {"NAME": "closed", "JOBS": 2, "SLOTS": f'"[5 {later}-{far}]"'}))
    assert _blimits_row(cluster, "daily") == \
        ["daily", "-", "-", "-", "-", "-/1", "-", "-", "-", "-"]
    assert _blimits_row(cluster, "closed") == \
        ["closed", "-", "-", "-", "-", "-", "-", "-", "-", "-/2"]
    _running(cluster)
    wait_for(lambda: _blimits_row(cluster, "daily") ==
             ["daily", "-", "-", "-", "-", "1/1", "-", "-", "-", "-"],
             what="blimits counting against the value in force")


def test_limit_on_a_shared_resource_counts_rusage_of_it(make_cluster):
    # RESOURCE = [lic, 1] for each user: of two licence tokens, a user's
    # second job asking for one pends with the resource's limit reason
    # until the first ends; blimits shows the token in use.
    cluster = make_cluster(mxj=4, extra=(
        "resources:\n  lic: {TYPE: Numeric, DESCRIPTION: (Solver tokens), "
        "LOCATION: '(2@[all])'}\n") + _limits(
        {"NAME": "lic_user", "PER_USER": "all", "RESOURCE": "'[lic, 1]'"}))
    first = _running(cluster, "-R", "rusage[lic=1]")
    second = cluster.submit("-R", "rusage[lic=1]", "true")
    _pends_with(cluster, second, " Resource (lic) limit defined on user or "
                "user group has been reached;")

    def external():
        lines = cluster.run("blimits").out.splitlines()
        at = lines.index("EXTERNAL RESOURCE LIMITS:")
        return [x.split() for x in lines[at + 2:at + 4]]
    wait_for(lambda: external() == [
        ["NAME", "USERS", "QUEUES", "HOSTS", "PROJECTS", "lic"],
        ["lic_user", "root", "-", "-", "-", "1/1"]], what="blimits lic use")
    assert "lic_user" not in cluster.run("blimits").out.split(
        "EXTERNAL")[0]
    cluster.run("bkill", str(first))
    cluster.wait_stat(second, "DONE")
