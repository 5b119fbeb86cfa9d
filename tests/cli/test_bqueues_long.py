"""bqueues -l: RES_REQ and the fairshare section (USER_SHARES,
SHARE_INFO_FOR), through a real cluster."""

import re

FAIR_QUEUE = """\
  fair:
    PRIORITY: 20
    FAIRSHARE: USER_SHARES[[root, 3] [default, 1]]
    RES_REQ: select[type==any] order[r15s]
"""
HEADER = (" USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  "
          "RUN_TIME   ADJUST")


def test_fairshare_queue_shows_shares_priorities_and_res_req(make_cluster):
    cluster = make_cluster(mxj=2, extra_queues=FAIR_QUEUE)
    job = cluster.submit("-q", "fair", "sleep 60")
    cluster.wait_stat(job, "RUN")
    r = cluster.run("bqueues", "-l", "fair")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("SCHEDULING POLICIES:  FAIRSHARE")
    assert lines[at + 1:at + 5] == [
        "USER_SHARES:  [root, 3] [default, 1]", "",
        "SHARE_INFO_FOR: fair/", HEADER]
    row = lines[at + 5]
    # 3 shares / ((1 + 1 started slot) x RUN_JOB_FACTOR 3 + run time): 0.5
    assert re.fullmatch(r" root {14}3 {5}0\.[45]\d\d {8}1 {9}0 +\d+\.\d +\d+"
                        r" {4}0\.000", row), row
    assert len(row) == len(HEADER)
    hosts = lines.index("HOSTS:  all")
    assert lines[hosts + 1] == "RES_REQ:  select[type==any] order[r15s]"


def test_a_plain_queue_has_neither(cluster):
    r = cluster.run("bqueues", "-l", "normal")
    assert r.rc == 0 and r.err == ""
    assert "USER_SHARES" not in r.out and "RES_REQ" not in r.out
    assert "FAIRSHARE" not in r.out


LIMITED_QUEUES = """\
  limited:
    PRIORITY: 20
    RUNLIMIT: 60
    TASKLIMIT: 2 3 4
    MEMLIMIT: 1024
  older:
    PRIORITY: 20
    PROCLIMIT: 4
"""


def test_tasklimit_is_shown_among_the_limits(make_cluster):
    """TASKLIMIT (minimum, default, maximum as configured) between
    RUNLIMIT and MEMLIMIT, as LSF 10.1 prints it; PROCLIMIT, its older
    name, shown as TASKLIMIT."""
    cluster = make_cluster(extra_queues=LIMITED_QUEUES)
    r = cluster.run("bqueues", "-l", "limited")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    start = lines.index("PARAMETERS/STATISTICS") + 3
    end = lines.index("SCHEDULING PARAMETERS")
    assert lines[start:end] == [
        "", " RUNLIMIT", " 60.0 min", "", " TASKLIMIT", " 2 3 4",
        "", " MEMLIMIT", "   1024 K", ""], r.out
    r = cluster.run("bqueues", "-l", "older")
    assert r.rc == 0 and r.err == "", r
    assert "\n TASKLIMIT\n 4\n" in r.out, r.out
    assert "PROCLIMIT" not in r.out, r.out
    r = cluster.run("bqueues", "-l", "normal")
    assert "TASKLIMIT" not in r.out, r.out


SPEC_QUEUES = """\
  slowspec:
    PRIORITY: 15
    DEFAULT_HOST_SPEC: slowm
    DISPATCH_WINDOW: "0:00-23:59"
"""


def test_default_host_spec_is_shown(make_cluster):
    """A queue's DEFAULT_HOST_SPEC as LSF prints it, after the
    scheduling policies and before the windows; none without one."""
    cluster = make_cluster(extra_queues=SPEC_QUEUES,
                           extra="host_models:\n  slowm: 1.0\n")
    r = cluster.run("bqueues", "-l", "slowspec")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("DEFAULT HOST SPECIFICATION:  slowm")
    assert lines[at - 1] == "" and lines[at + 1] == "", r.out
    assert lines[at + 2].startswith("DISPATCH_WINDOW: "), r.out
    r = cluster.run("bqueues", "-l", "normal")
    assert r.rc == 0 and "DEFAULT HOST SPECIFICATION" not in r.out, r.out


COMMAND_QUEUE = """\
  owned:
    PRIORITY: 20
    ADMINISTRATORS: root
    PRE_EXEC: /bin/true >> /tmp/pre.out
    POST_EXEC: /bin/true | grep -v "Hey"
    JOB_STARTER: exec
    REQUEUE_EXIT_VALUES: 55
"""


def test_administrators_and_commands_are_shown_after_the_hosts(make_cluster):
    """ADMINISTRATORS, PRE_EXEC, POST_EXEC and JOB_STARTER as configured,
    in LSF's order around HOSTS and REQUEUE_EXIT_VALUES: an administrator
    checks a migrated queue's commands with bqueues -l."""
    cluster = make_cluster(extra_queues=COMMAND_QUEUE)
    r = cluster.run("bqueues", "-l", "owned")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("HOSTS:  all")
    assert lines[at + 1:at + 5] == [
        "ADMINISTRATORS:  root",
        "PRE_EXEC:  /bin/true >> /tmp/pre.out",
        'POST_EXEC:  /bin/true | grep -v "Hey"',
        "REQUEUE_EXIT_VALUES:  55"], r.out
    assert "JOB_STARTER:  exec" in lines[at + 5:], r.out
    r = cluster.run("bqueues", "-l", "normal")
    assert r.rc == 0 and "ADMINISTRATORS" not in r.out, r
    assert "PRE_EXEC" not in r.out and "JOB_STARTER" not in r.out, r


def test_one_of_two_default_queues_says_so_when_shown_alone(make_cluster):
    """With DEFAULT_QUEUE = normal short, bqueues -l normal says it is one
    of the default queues (it said "the default queue" when the other
    was not on the command line)."""
    cluster = make_cluster(start=False)
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        "DEFAULT_QUEUE: normal\n", "DEFAULT_QUEUE: normal short\n", 1))
    cluster.start()
    for name in ("normal", "short"):
        r = cluster.run("bqueues", "-l", name)
        assert r.rc == 0 and r.err == "", r
        assert r.out.splitlines()[2].endswith(
            "  This is one of the default queues."), r.out


def test_memlimit_is_shown_in_the_unit_for_limits(make_cluster):
    """LSF_UNIT_FOR_LIMITS is the unit of the display too (lsf.conf(5)):
    MEMLIMIT = 2048 with MB reads 2048 M, as configured (it read
    2097152 K)."""
    cluster = make_cluster(extra_params="  LSF_UNIT_FOR_LIMITS: MB\n",
                           extra_queues="  big:\n    MEMLIMIT: 512 2048\n")
    r = cluster.run("bqueues", "-l", "big")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("DEFAULT LIMITS:")
    assert lines[at:at + 4] == ["DEFAULT LIMITS:", "", " MEMLIMIT",
                                "    512 M"], r.out
    at = lines.index("MAXIMUM LIMITS:")
    assert lines[at:at + 4] == ["MAXIMUM LIMITS:", "", " MEMLIMIT",
                                "   2048 M"], r.out


def test_size_limits_are_shown_in_the_unit_for_limits(make_cluster):
    """FILELIMIT, DATALIMIT, STACKLIMIT, CORELIMIT and SWAPLIMIT follow
    LSF_UNIT_FOR_LIMITS as MEMLIMIT does (KB by default): 20000 reads
    20000 K as configured (it read 19.5 M); a count stays a count."""
    cluster = make_cluster(extra_queues=(
        "  sized:\n    FILELIMIT: 20000\n    DATALIMIT: 2048\n"
        "    STACKLIMIT: 8192\n    CORELIMIT: 0\n    PROCESSLIMIT: 30\n"))
    r = cluster.run("bqueues", "-l", "sized")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index(" FILELIMIT DATALIMIT STACKLIMIT CORELIMIT "
                     "PROCESSLIMIT")
    assert lines[at + 1].split() == ["20000", "K", "2048", "K", "8192",
                                     "K", "0", "K", "30"], r.out
    assert "M" not in lines[at + 1], r.out


AS_CONFIGURED = """\
user_groups:
  devs:
    members: [alice, bob, carol]
host_groups:
  nodes: [vh001]
"""
AS_CONFIGURED_QUEUES = """\
  grouped:
    PRIORITY: 20
    USERS: devs ~bob dave
    HOSTS: nodes+2 vh000
  allbut:
    PRIORITY: 20
    USERS: all ~devs
    HOSTS: all ~nodes
"""


def test_users_and_hosts_are_shown_as_configured(make_cluster):
    """USERS and HOSTS as written, a group's name followed by '/' (before
    its +N preference), exclusions with '~', as LSF prints them; they
    showed the expanded members (alice carol dave; vh001 vh000)."""
    cluster = make_cluster(virtual_hosts=["vh000", "vh001"],
                           extra=AS_CONFIGURED,
                           extra_queues=AS_CONFIGURED_QUEUES)
    r = cluster.run("bqueues", "-l", "grouped")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    at = lines.index("USERS:  devs/ ~bob dave")
    assert lines[at + 1] == "HOSTS:  nodes/+2 vh000", r.out
    r = cluster.run("bqueues", "-l", "allbut")
    assert r.rc == 0 and r.err == "", r
    assert "\nUSERS:  all ~devs/\nHOSTS:  all ~nodes/\n" in r.out, r.out
    # -m still goes by the members: nodes is vh001.
    r = cluster.run("bqueues", "-m", "vh001")
    assert r.rc == 0 and r.err == "", r
    names = [line.split()[0] for line in r.out.splitlines()[1:]]
    assert "grouped" in names and "allbut" not in names, r.out
