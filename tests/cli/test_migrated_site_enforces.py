"""A one-host site written in LSF's own files is migrated with xce-migrate,
started, and the LSF commands show and enforce what those files say: host
model, type and RESOURCES and lsf.shared resources in lshosts, select[] and
rusage[] (a consumable); an lsb.hosts row keyed by host model winning over
the type's and default's rows; queue RUN_WINDOW and DISPATCH_WINDOW (jobs
pend, a running job switched in is suspended), NICE, INTERACTIVE,
EXCLUSIVE, and mem thresholds (jobs pend, a running job switched in is
suspended); lsb.users MAX_PEND_JOBS, JL/P (busers) and USER_SHARES;
MAX_JOB_ARRAY_SIZE; a time-based (#if time()) limit; an application's
RUNLIMIT and ENV_VARS.  One migrated cluster serves the module; each test
kills the jobs it leaves."""

import getpass
import socket
import subprocess
import time

import pytest

from tests.lib.xcecluster import BIN, Cluster, wait_for

ME = getpass.getuser()
HOST = socket.gethostname()


def _windows():
    """(a window closed now and for the next hour, one open now and for the
    next hour), in LSF's hh:mm-hh:mm form of the local time."""
    hour = time.localtime().tm_hour
    return (f"{(hour + 2) % 24}:00-{(hour + 3) % 24}:00",
            f"{(hour - 1) % 24}:00-{(hour + 2) % 24}:00")


def _site(source):
    closed, open_now = _windows()
    files = {
        "lsf.shared": """\
Begin Cluster
ClusterName
enf
End Cluster

Begin HostType
TYPENAME
LINUX64
End HostType

Begin HostModel
MODELNAME  CPUFACTOR  ARCHITECTURE
XEONE5     10.0       ()
End HostModel

Begin Resource
RESOURCENAME  TYPE     INTERVAL INCREASING CONSUMABLE DESCRIPTION
fastdisk      Boolean  ()       ()         ()         (A fast local disk)
slowdisk      Boolean  ()       ()         ()         (A slow local disk)
licx          Numeric  ()       N          Y          (Licences of x)
End Resource
""",
        "lsf.cluster.enf": f"""\
Begin ClusterAdmins
Administrators = root
End ClusterAdmins

Begin Host
HOSTNAME  model   type     server  RESOURCES
{HOST}    XEONE5  LINUX64  1       (fastdisk)
End Host

Begin ResourceMap
RESOURCENAME  LOCATION
licx          (2@[{HOST}])
End ResourceMap
""",
        "lsb.params": """\
Begin Parameters
DEFAULT_QUEUE = normal
MAX_JOB_ARRAY_SIZE = 5
End Parameters
""",
        # The model's row wins over the type's and default's (LSF's
        # precedence), whatever their order in the file.
        "lsb.hosts": """\
Begin Host
HOST_NAME  MXJ  r1m
LINUX64    3    ()
XEONE5     2    ()
default    5    ()
End Host
""",
        "lsb.users": f"""\
Begin UserGroup
GROUP_NAME  GROUP_MEMBER  USER_SHARES
big         ({ME} daemon)  ([{ME}, 3] [daemon, 1])
End UserGroup

Begin User
USER_NAME  MAX_PEND_JOBS  JL/P
{ME}       5              4
End User
""",
        "lsb.queues": f"""\
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[big, 3] [default, 1]]
End Queue

Begin Queue
QUEUE_NAME = nicer
PRIORITY   = 20
NICE       = 7
INTERACTIVE = NO
EXCLUSIVE  = Y
End Queue

Begin Queue
QUEUE_NAME = night
PRIORITY   = 10
RUN_WINDOW = {closed}
End Queue

Begin Queue
QUEUE_NAME = later
PRIORITY   = 10
DISPATCH_WINDOW = {closed}
End Queue

Begin Queue
QUEUE_NAME = busy
PRIORITY   = 10
mem        = 999999999/999999999
End Queue
""",
        "lsb.resources": f"""\
Begin Limit
NAME  = shifts
USERS = all
#if time({open_now})
SLOTS = 9
#else
SLOTS = 7
#endif
End Limit
""",
        "lsb.applications": """\
Begin Application
NAME     = quick
RUNLIMIT = 10
ENV_VARS = "ENF_FRUIT='apple'"
End Application
""",
    }
    source.mkdir()
    for name, text in files.items():
        (source / name).write_text(text)
    return source


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("enf")
    c = Cluster(root / "cluster")
    r = subprocess.run([str(BIN / "xce-migrate"), "--from",
                        str(_site(root / "lsf")), "--to", str(c.envdir)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    c.spool = c.envdir / "spool"
    c.report = r.stdout
    c.start()
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture
def cluster(site):
    yield site
    site.run("bkill", "0")
    wait_for(lambda: site.run("bjobs").err == "No unfinished job found\n",
             what="the test's jobs to end")


def _pend_reasons(c, jobid):
    """The PENDING REASONS lines of bjobs -l, once the job has one."""
    def reasons():
        text = c.long(jobid)
        if "PENDING REASONS:" not in text:
            return None
        return text.split("PENDING REASONS:", 1)[1].strip().split("\n\n")[0]
    return wait_for(reasons, what=f"pending reasons of job {jobid}")


def _wait_reason(c, jobid, reason):
    wait_for(lambda: reason in _pend_reasons(c, jobid),
             what=f"job {jobid} to pend with {reason!r}")
    assert c.stat(jobid) == "PEND"


def test_every_key_of_the_site_is_carried(site):
    assert "Not carried (0)" in site.report, site.report
    assert "Accepted, not enforced (0)" in site.report, site.report


def test_lshosts_shows_the_host_s_type_model_and_resources(cluster):
    r = cluster.run("lshosts", "-w")
    row = r.out.splitlines()[1].split()
    assert row[:4] == [HOST, "LINUX64", "XEONE5", "10.0"], r
    assert row[-1] == "(fastdisk)", r


def test_host_resources_are_matched_by_select(cluster):
    job = cluster.submit("-R", "select[fastdisk && type==LINUX64 && "
                         "model==XEONE5]", "true")
    cluster.wait_stat(job, "DONE")
    job = cluster.submit("-R", "select[slowdisk]", "true")
    _wait_reason(cluster, job, "Job's resource requirements not satisfied")


def test_a_consumable_host_resource_is_reserved_by_rusage(cluster):
    first = cluster.submit("-R", "rusage[licx=2]", "sleep 60")
    cluster.wait_stat(first, "RUN")
    second = cluster.submit("-R", "rusage[licx=1]", "true")
    _wait_reason(cluster, second, "Job's requirements for reserving "
                 "resource (licx) not satisfied")
    cluster.run("bkill", str(first))
    cluster.wait_stat(second, "DONE")


def test_the_model_row_of_lsb_hosts_sets_the_job_slots(cluster):
    r = cluster.run("bhosts", "-w")
    assert r.out.splitlines()[1].split()[:4] == [HOST, "ok", "-", "2"], r
    running = [cluster.submit("sleep 60") for _ in range(2)]
    for job in running:
        cluster.wait_stat(job, "RUN")
    third = cluster.submit("true")
    _wait_reason(cluster, third, "Not enough job slot(s)")
    cluster.run("bkill", str(running[0]))
    cluster.wait_stat(third, "DONE")


@pytest.mark.parametrize("queue", ["night", "later"])
def test_a_queue_whose_window_is_closed_keeps_its_jobs_pending(cluster,
                                                               queue):
    r = cluster.run("bqueues", queue)
    assert r.out.splitlines()[1].split()[2] == "Open:Inact_Win", r
    job = cluster.submit("-q", queue, "true")
    _wait_reason(cluster, job, "The queue is inactivated by its time windows")


def test_queue_nice_is_the_job_s_nice_value(cluster):
    out = cluster.root / "nice.out"
    job = cluster.submit("-q", "nicer", f"nice > {out}")
    cluster.wait_stat(job, "DONE")
    assert out.read_text() == "7\n"


def test_queue_interactive_and_exclusive_are_enforced_at_submit(cluster):
    r = cluster.run("bsub", "-q", "nicer", "-I", "true")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == "nicer: Queue does not accept interactive jobs. " \
        "Job not submitted.\n", r
    r = cluster.run("bsub", "-q", "normal", "-x", "true")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == "normal: Queue does not accept EXCLUSIVE jobs. " \
        "Job not submitted.\n", r
    job = cluster.submit("-q", "nicer", "-x", "true")
    cluster.wait_stat(job, "DONE")


def test_a_queue_load_threshold_beyond_the_host_s_load_keeps_jobs_pending(
        cluster):
    job = cluster.submit("-q", "busy", "true")
    _wait_reason(cluster, job, "The available memory (mem) is low")


def test_a_user_s_max_pend_jobs_refuses_the_next_submission(cluster):
    for _ in range(5):
        cluster.submit("-q", "night", "true")
    r = cluster.run("bsub", "-q", "night", "true")
    assert (r.rc, r.out) == (255, ""), r
    assert r.err == f"User <{ME}>: Pending job threshold reached. Job not " \
        "submitted.\n", r


def test_an_array_larger_than_max_job_array_size_is_refused(cluster):
    r = cluster.run("bsub", "-J", "arr[1-6]", "true")
    assert (r.rc, r.out) == (255, ""), r
    assert "Job array index too large" in r.err, r
    cluster.submit("-J", "arr[1-5]", "true")


def test_jl_p_of_the_user_is_shown_by_busers(cluster):
    r = cluster.run("busers", ME)
    head, row = r.out.splitlines()[:2]
    assert dict(zip(head.split(), row.split()))["JL/P"] == "4.0", r


def test_blimits_shows_the_time_based_value_in_force(cluster):
    job = cluster.submit("sleep 60")
    cluster.wait_stat(job, "RUN")
    r = cluster.run("blimits")
    assert "shifts" in r.out and "1/9" in r.out, r


def _share_rows(text, head):
    """{account: shares} of one SHARE_INFO_FOR table of bqueues."""
    block = text.split(f"SHARE_INFO_FOR: {head}\n", 1)[1].split("\n\n")[0]
    return {line.split()[0]: line.split()[1]
            for line in block.splitlines()[1:]}


def test_bqueues_shows_the_share_tree_of_user_shares(cluster):
    r = cluster.run("bqueues", "-l", "normal")
    assert "USER_SHARES:  [big, 3] [default, 1]" in r.out.splitlines(), r
    assert _share_rows(r.out, "normal/") == {"big": "3"}, r
    r = cluster.run("bqueues", "-r", "normal")
    assert _share_rows(r.out, "normal/big/") == {ME: "3", "daemon": "1"}, r


def test_the_application_profile_s_env_vars_are_in_the_job_s_environment(
        cluster):
    out = cluster.root / "fruit.out"
    job = cluster.submit("-app", "quick", f"echo $ENF_FRUIT > {out}")
    cluster.wait_stat(job, "DONE")
    assert out.read_text() == "apple\n"


def test_the_application_profile_s_runlimit_is_the_job_s(cluster):
    job = cluster.submit("-app", "quick", "sleep 60")
    cluster.wait_stat(job, "RUN")
    lines = [line.strip() for line in cluster.long(job).splitlines()]
    assert lines[lines.index("RUNLIMIT") + 1] == "10.0 min", lines



def _susp_reasons(c, jobid):
    """The SUSPENDING REASONS lines of bjobs -l."""
    text = c.long(jobid)
    return text.split("SUSPENDING REASONS:", 1)[1].strip().split("\n\n")[0]


def test_a_running_job_switched_to_a_closed_run_window_is_suspended(
        cluster):
    job = cluster.submit("sleep 60")
    cluster.wait_stat(job, "RUN")
    r = cluster.run("bswitch", "night", str(job))
    assert r.rc == 0, r
    cluster.wait_stat(job, "SSUSP")
    assert _susp_reasons(cluster, job) == \
        "The run windows of the queue are closed;"


def test_a_queue_stop_threshold_suspends_a_job_switched_to_it(cluster):
    """Of two running jobs, the one switched to the queue whose loadStop
    of mem the host is surely beyond is suspended (the other keeps the
    host from being one with a lone job, which LSF leaves alone), and is
    not resumed: the host is beyond the queue's loadSched too."""
    jobs = [cluster.submit("sleep 60") for _ in range(2)]
    for job in jobs:
        cluster.wait_stat(job, "RUN")
    r = cluster.run("bswitch", "busy", str(jobs[0]))
    assert r.rc == 0, r
    cluster.wait_stat(jobs[0], "SSUSP")
    assert _susp_reasons(cluster, jobs[0]) == \
        "Host load exceeded threshold: Available memory (mem)"
    assert cluster.stat(jobs[1]) == "RUN"
