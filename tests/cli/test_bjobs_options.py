"""bjobs -A, -W/-WL/-WF/-WP, -X, -m/-P/-G/-g/-app, -pe/-pi/-psum and
bsub -G/-g/-app, end to end through a real controller and agent; -sla
refused by bsub, bmod and bjobs."""

import getpass
import re
import socket

import pytest

from tests.lib.xcecluster import wait_for

ME = getpass.getuser()
HOST = socket.gethostname()

SECTIONS = f"""
user_groups:
  devs:
    members: [{ME}]
  others:
    members: [nobody_here]
host_groups:
  hg1: [{HOST}]
applications:
  fluent:
    DESCRIPTION: CFD runs
service_classes:
  gold:
    DESCRIPTION: the fast lane
"""
FILED = ("-P", "projA", "-G", "devs", "-g", "/proj/run1", "-app", "fluent")
WIDE_TIME = r"\d\d/\d\d-\d\d:\d\d:\d\d"


def _ids(out):
    """Job ids of a table, header dropped."""
    return [int(line.split()[0]) for line in out.splitlines()[1:]
            if line and line[0].isdigit()]


def _slot_taken(make_cluster, *argv):
    """A one-slot cluster whose slot a job (bsub *argv* sleep 60) holds."""
    cluster = make_cluster(mxj=1)
    job = cluster.submit(*argv, "sleep 60")
    cluster.wait_stat(job, "RUN")
    return cluster, job


@pytest.fixture
def filed(make_cluster):
    """A cluster with profiles and groups, one job filed under all of them
    (running) and one plain job (running)."""
    cluster = make_cluster(mxj=4, extra_queues=SECTIONS)
    job = cluster.submit(*FILED, "sleep 60")
    plain = cluster.submit("sleep 60")
    cluster.wait_stat(job, "RUN")
    cluster.wait_stat(plain, "RUN")
    return cluster, job, plain


def test_filters_select_the_job_filed_under_each_name(filed):
    cluster, job, plain = filed
    for argv in (("-P", "projA"), ("-G", "devs"), ("-g", "/proj/run1"),
                 ("-g", "/proj"), ("-app", "fluent")):
        r = cluster.run("bjobs", *argv)
        assert r.rc == 0 and r.err == "", (argv, r)
        assert r.out.startswith("JOBID   USER    STAT  QUEUE ")
        assert _ids(r.out) == [job], (argv, r)
    r = cluster.run("bjobs", "-P", "default")
    assert _ids(r.out) == [plain]
    for where in (HOST, "hg1", "testclu"):
        r = cluster.run("bjobs", "-m", where)
        assert r.rc == 0 and _ids(r.out) == [job, plain], (where, r)
    r = cluster.run("bjobs", "-P", "nothing_here")
    assert (r.rc, r.out, r.err) == (0, "", "No unfinished job found\n")
    r = cluster.run("bjobs", "-g", "/other")
    assert (r.rc, r.out, r.err) == (0, "", "No unfinished job found\n")
    r = cluster.run("bjobs", "-m", "hg1", "-q", "short")
    assert (r.rc, r.out, r.err) == (
        0, "", "No unfinished job found in queue <short> on host/group "
        "<hg1>\n")
    # filters combine with the layouts that read whole rows
    r = cluster.run("bjobs", "-P", "projA", "-noheader", "-o", "jobid")
    assert (r.rc, r.out, r.err) == (0, f"{job}\n", "")


@pytest.mark.parametrize("argv, message", [
    (("-m", "nohost"), "nohost: Bad host name, host group name or cluster "
                       "name"),
    (("-app", "nope"), "nope: Application profile does not exist"),
    (("-G", "nope"), "nope: Bad user group name"),
    (("-g", "nope"), "nope: Bad job group name"),
])
def test_filters_refuse_names_the_cluster_does_not_have(cluster, argv,
                                                         message):
    r = cluster.run("bjobs", *argv)
    assert (r.rc, r.out, r.err) == (255, "", message + "\n")


def test_a_filter_without_its_value_is_a_usage_error(cluster):
    r = cluster.run("bjobs", "-m")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("bjobs: option requires an argument -- m\n"
                            "Usage: bjobs ")


def test_long_and_fields_show_what_the_job_is_filed_under(filed):
    cluster, job, _ = filed
    r = cluster.run("bjobs", "-UF", str(job))
    assert r.rc == 0, r
    assert ("Project <projA>, Application <fluent>, User Group <devs>, "
            "Job Group </proj/run1>, Status <RUN>"
            in r.out)
    r = cluster.run("bjobs", "-noheader", "-o", "proj_name application "
                    "service_class user_group job_group", str(job))
    assert (r.rc, r.out.split(), r.err) == (
        0, ["projA", "fluent", "-", "devs", "/proj/run1"], "")


@pytest.mark.parametrize("argv, message", [
    (("-app", "nope"), "Application profile does not exist"),
    (("-G", "nope"), "nope: Bad user group name"),
    (("-g", "relative"), "relative: Bad job group name"),
])
def test_bsub_refuses_unknown_profiles_and_groups(make_cluster, argv,
                                                  message):
    cluster = make_cluster(extra_queues=SECTIONS)
    r = cluster.run("bsub", *argv, "true")
    assert (r.rc, r.out, r.err) == (
        255, "", message + ". Job not submitted.\n")
    # The controller answered and goes on.
    assert cluster.run("bjobs").rc == 0
    assert cluster.proc.poll() is None


def test_sla_is_refused_whole_by_bsub_bmod_and_bjobs(make_cluster):
    """Service-level goals are not scheduled for: -sla is refused, never
    accepted and ignored, even naming a configured service class."""
    cluster = make_cluster(extra_queues=SECTIONS)
    job = cluster.submit("-H", "true")
    for argv in (("bsub", "-sla", "gold", "true"),
                 ("bmod", "-sla", "gold", str(job)),
                 ("bjobs", "-sla", "gold")):
        r = cluster.run(*argv)
        assert (r.rc, r.out, r.err) == (
            255, "", f"{argv[0]}: option -sla is not supported by xce\n"), r
    r = cluster.run("bjobs", "-noheader", "-o", "jobid")
    assert (r.rc, r.out) == (0, f"{job}\n")
    assert cluster.proc.poll() is None


# -- -A -------------------------------------------------------------------------
def test_array_summary_counts_elements_by_state(make_cluster):
    cluster = make_cluster(mxj=1)
    array = cluster.submit("-J", "arr[1-4]", "sleep 60")
    cluster.wait_stat(f"{array}[1]", "RUN")
    plain = cluster.submit("true")
    r = cluster.run("bjobs", "-A")
    header = ("JOBID    ARRAY_SPEC  OWNER   NJOBS PEND DONE  RUN EXIT SSUSP "
              "USUSP PSUSP")
    row = (f"{array:<7}  {'arr[1-4]':<8.8} {ME:>8.8}       4    3    0    1"
           f"    0     0     0     0")
    assert (r.rc, r.out, r.err) == (0, f"{header}\n{row}\n", "")
    assert cluster.run("bkill", f"{array}[4]").rc == 0
    cluster.wait_stat(f"{array}[4]", "EXIT")
    r = cluster.run("bjobs", "-A", "-noheader", str(array))
    assert r.out.split()[3:] == ["4", "2", "0", "1", "1", "0", "0", "0"]
    r = cluster.run("bjobs", "-A", str(plain))
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{plain}> is not a job array\n")


def test_u_with_an_unknown_user_says_so(cluster):
    """As LSF's bjobs (its job query's bad-user error): a name that is
    neither a user of the system nor a user group is named, exit 255; a
    known user without jobs has none found."""
    r = cluster.run("bjobs", "-u", "nosuch_xce_user")
    assert (r.rc, r.out, r.err) == (255, "", "nosuch_xce_user: Unknown user\n")
    r = cluster.run("bjobs", "-u", "nobody")
    assert (r.rc, r.out, r.err) == (0, "", "No unfinished job found\n"), r


def test_array_and_psum_refuse_the_long_format(cluster):
    """-A and -psum are tables of their own: with -l, bjobs says so
    rather than printing one layout and dropping the other."""
    for flag in ("-A", "-psum"):
        r = cluster.run("bjobs", flag, "-l")
        assert (r.rc, r.out) == (255, ""), r
        assert r.err.startswith(f"bjobs: {flag} and -l cannot be used "
                                "together\n"), r


# -- -W, -WL, -WF, -WP ------------------------------------------------------------
def test_wide_usage_layout(make_cluster):
    cluster, job = _slot_taken(make_cluster, "-W", "10", "-P", "projW")
    waiting = cluster.submit("true")

    def reported():
        """bjobs -W once the agent has said the job's process started:
        bjobs shows RUN from the dispatch, its PIDS from that report."""
        r = cluster.run("bjobs", "-W")
        assert r.rc == 0 and r.err == "", r
        lines = r.out.splitlines()
        return len(lines) > 1 and lines[1].split()[13:14] != ["-"] and lines
    lines = wait_for(reported, what="the running job's PIDS")
    assert lines[0] == (
        "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   "
        "SUBMIT_TIME  PROJ_NAME CPU_USED MEM SWAP PIDS START_TIME "
        "FINISH_TIME")
    run = lines[1].split()
    assert run[:3] == [str(job), ME, "RUN"] and run[5] == HOST
    assert re.fullmatch(WIDE_TIME, run[8]) and run[9] == "projW"
    assert re.fullmatch(r"\d{3}:\d\d:\d\d\.\d\d", run[10])
    assert run[12] == "0" and re.fullmatch(r"\d+(,\d+)*", run[13])
    assert re.fullmatch(WIDE_TIME, run[14]) and run[15] == "-"
    pend = lines[2].split()
    assert pend[:3] == [str(waiting), ME, "PEND"] and pend[5] == "-"
    assert pend[-3:] == ["-", "-", "-"]


def test_time_left_finish_and_percent_columns(make_cluster):
    cluster, job = _slot_taken(make_cluster, "-W", "10")
    waiting = cluster.submit("true")
    r = cluster.run("bjobs", "-WL", "-WF", "-WP")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    header = lines[0]
    assert header.endswith("SUBMIT_TIME  TIME_LEFT   FINISH_TIME      "
                           "%COMPLETE")
    assert re.search(r" 0:(09|10) L +\w{3} [ \d]\d \d\d:\d\d L +\d+% L$",
                     lines[1]), lines[1]
    assert lines[2].startswith(str(waiting))
    # each value starts under its header word
    for word, running, pending in (("TIME_LEFT", r"0:\d\d L", "-"),
                                   ("FINISH_TIME", r"\w{3} ", "-"),
                                   ("%COMPLETE", r"\d+% L", "-")):
        at = header.index(word)
        assert re.match(running, lines[1][at:]), (word, lines[1])
        assert lines[2][at:].startswith(pending) and \
            lines[2][at - 1] == " ", (word, lines[2])
    r = cluster.run("bjobs", "-WP", "-noheader", str(job))
    assert re.search(r" \d+% L$", r.out.rstrip("\n")), r
    assert cluster.run("bkill", str(job)).rc == 0
    cluster.wait_stat(job, "EXIT")
    r = cluster.run("bjobs", "-WF", "-noheader", str(job))
    # A finished job shows when it finished, not an estimate.
    assert re.search(r" \w{3} [ \d]\d \d\d:\d\d$", r.out.rstrip("\n")), r


# -- -X -------------------------------------------------------------------------
def test_short_hostlist_condenses_and_X_does_not(make_cluster):
    cluster = make_cluster(mxj=2)
    job = cluster.submit("-n", "2", "sleep 60")
    cluster.wait_stat(job, "RUN")
    short = {"LSB_SHORT_HOSTLIST": "1"}
    r = cluster.run("bjobs", "-noheader", str(job), env=short)
    assert r.rc == 0 and r.out.splitlines()[0].split()[5] == f"2*{HOST}"[:11]
    assert len(r.out.splitlines()) == 1
    r = cluster.run("bjobs", "-noheader", "-X", str(job), env=short)
    lines = r.out.splitlines()
    assert len(lines) == 2 and lines[1] == " " * 45 + HOST[:11]
    r = cluster.run("bjobs", "-noheader", "-w", str(job), env=short)
    assert r.out.split()[5] == f"2*{HOST}"
    r = cluster.run("bjobs", "-noheader", "-w", "-X", str(job), env=short)
    assert r.out.split()[5] == f"{HOST}:{HOST}"


# -- -pe, -pi, -psum --------------------------------------------------------------
def test_eligible_ineligible_and_summary(make_cluster):
    cluster, blocker = _slot_taken(make_cluster)
    waiting = cluster.submit("true")
    held = cluster.submit("-H", "true")
    after = cluster.submit("-w", f"done({blocker})", "true")
    wait_for(lambda: "Job dependency condition not satisfied" in
             cluster.run("bjobs", "-p", str(after)).out and
             "Not enough job slot(s)" in
             cluster.run("bjobs", "-p", str(waiting)).out,
             what="the pending reasons")
    pend_header = ("JOBID   USER    STAT  QUEUE       FROM_HOST      "
                   "JOB_NAME           SUBMIT_TIME")
    r = cluster.run("bjobs", "-pe")
    assert r.rc == 0 and r.err == "" and r.out.startswith(pend_header + "\n")
    assert _ids(r.out) == [waiting]
    assert " Not enough job slot(s): 1 host;" in r.out
    r = cluster.run("bjobs", "-pi")
    assert r.rc == 0 and _ids(r.out) == [held, after]
    r = cluster.run("bjobs", "-psum")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    assert lines[0].startswith("Pending reason summary: published ")
    assert lines[1] == "Summarizing 3 pending jobs in cluster (testclu):"
    text = "\n".join(re.sub(r" {2,}", " ", line) for line in lines[2:])
    assert "Job dependency condition not satisfied: 1 job" in text
    assert "The job was suspended by the user while pending: 1 job" in text
    assert "Individual host based reasons: 1 job\n Not enough job " \
        "slot(s): 1" in text
    r = cluster.run("bjobs", "-psum", "-q", "short")
    assert (r.rc, r.out, r.err) == (
        0, "", "No pending job found in queue <short>\n")


def test_short_hostlist_from_the_cluster_configuration(make_cluster):
    # Set in xce.yaml (as xce-migrate carries it from lsf.conf), it
    # reaches bjobs through the lsf.conf the controller writes.
    cluster = make_cluster(mxj=2, extra_params="  LSB_SHORT_HOSTLIST: 1\n")
    job = cluster.submit("-n", "2", "sleep 60")
    cluster.wait_stat(job, "RUN")
    r = cluster.run("bjobs", "-noheader", "-w", str(job))
    assert r.rc == 0 and r.out.split()[5] == f"2*{HOST}", r
