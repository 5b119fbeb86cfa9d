"""bqueues, bhosts, lsid, lsclusters, bparams and badmin against a real cluster."""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile

import pytest

from tests.lib.xcecluster import BIN, Cluster, wait_for

HOST = socket.gethostname()
# Reference section 4.1 / 4.2 headers, byte for byte.
BQUEUES_HEADER = ("QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H "
                  "NJOBS  PEND   RUN  SUSP")
BHOSTS_HEADER = ("HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  "
                 "SSUSP  USUSP    RSV")
LONG_QUEUE = "averyveryverylongqueuename"


def _row(out, first):
    return next(line for line in out.splitlines()
                if line.split() and line.split()[0] == first)


def _pend_reason(cluster, jobid):
    r = cluster.run("bjobs", "-p", str(jobid))
    return r.out if r.rc == 0 else ""


# -- bqueues ----------------------------------------------------------------
def test_bqueues_default_table_matches_lsf_columns(cluster):
    r = cluster.run("bqueues")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0] == BQUEUES_HEADER
    # Highest priority first, as LSF lists them.
    assert [line.split()[0] for line in lines[1:]] == ["short", "normal"]
    normal = _row(r.out, "normal")
    assert normal == ("normal           30  Open:Active       -    -    -    -"
                      "     0     0     0     0")
    for line in lines:
        assert len(line) == len(BQUEUES_HEADER)


def test_bqueues_counts_slots_of_pending_running_and_suspended_jobs(
        make_cluster):
    c = make_cluster(mxj=2)
    running = c.submit("-n", "2", "sleep 60")
    c.wait_stat(running, "RUN")
    pending = c.submit("-n", "2", "sleep 1")
    r = c.run("bqueues", "normal")
    assert r.rc == 0
    assert _row(r.out, "normal").split()[-4:] == ["4", "2", "2", "0"]
    assert c.run("bstop", str(running)).rc == 0
    c.wait_stat(running, "USUSP")
    assert _row(c.run("bqueues").out, "normal").split()[-4:] == \
        ["4", "2", "0", "2"]
    long = c.run("bqueues", "-l", "normal").out
    stats = long.splitlines()[long.splitlines().index(
        "PARAMETERS/STATISTICS") + 2]
    assert stats.split()[-6:] == ["4", "2", "0", "0", "2", "0"]
    host = c.run("bhosts", "-w").out.splitlines()[1].split()
    assert host[1:] == ["closed_Full", "-", "2", "2", "0", "0", "2", "0"]
    assert c.stat(pending) == "PEND"


def test_bqueues_truncates_long_names_unless_wide(make_cluster):
    c = make_cluster(extra_queues=f"  {LONG_QUEUE}:\n    PRIORITY: 10\n")
    row = _row(c.run("bqueues").out, "*" + LONG_QUEUE[-14:])
    assert row.startswith("*" + LONG_QUEUE[-14:] + " ")
    wide = c.run("bqueues", "-w").out
    assert _row(wide, LONG_QUEUE).startswith(LONG_QUEUE + " ")


def test_bqueues_long_blocks(cluster):
    r = cluster.run("bqueues", "-l")
    assert r.rc == 0 and r.err == ""
    out = r.out
    assert "QUEUE: normal\n  -- the default queue  This is the default " \
        "queue.\n\nPARAMETERS/STATISTICS\n" in out
    assert "PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN " \
        "SSUSP USUSP  RSV\n" in out
    assert "\n" + "-" * 79 + "\n\n" in out
    short = out.split("QUEUE: short")[1].split("QUEUE:")[0]
    assert " RUNLIMIT\n 60.0 min\n" in short
    assert "SCHEDULING PARAMETERS\n" in out
    assert "USERS:  all\nHOSTS:  all\n" in out


def test_bqueues_names_select_and_unknown_queue_fails(cluster):
    r = cluster.run("bqueues", "short")
    assert r.rc == 0
    assert [line.split()[0] for line in r.out.splitlines()[1:]] == ["short"]
    r = cluster.run("bqueues", "nosuch")
    assert (r.rc, r.out, r.err) == (255, "", "nosuch: No such queue\n")
    r = cluster.run("bqueues", "normal", "nosuch")
    assert r.rc == 255 and r.err == "nosuch: No such queue\n"


def test_an_empty_queue_or_host_name_is_one_clear_line(cluster):
    """bqueues "", bhosts "", badmin qclose "" (an unset variable's):
    one line naming the command and what is empty, exit 255, nothing
    changed; the controller runs on."""
    for argv, what in ((("bqueues", ""), "bqueues: Bad argument: the queue "
                        "name is empty"),
                       (("bqueues", "normal", ""), "bqueues: Bad argument: "
                        "the queue name is empty"),
                       (("bhosts", ""), "bhosts: Bad argument: the host "
                        "name is empty"),
                       (("badmin", "qclose", ""), "badmin qclose: Bad "
                        "argument: the queue name is empty"),
                       (("badmin", "hclose", ""), "badmin hclose: Bad "
                        "argument: the host name is empty")):
        r = cluster.run(*argv)
        assert (r.rc, r.out, r.err) == (255, "", what + "\n"), (argv, r)
    r = cluster.run("bqueues", "normal")
    assert r.out.splitlines()[1].split()[2] == "Open:Active", r
    r = cluster.run("bhosts")
    assert r.out.splitlines()[1].split()[1] == "ok", r
    assert cluster.proc.poll() is None


# -- bhosts -----------------------------------------------------------------
def test_bhosts_default_table(make_cluster):
    c = make_cluster(mxj=3)
    r = c.run("bhosts")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0] == BHOSTS_HEADER
    assert lines[1].split() == [HOST, "ok", "-", "3", "0", "0", "0", "0", "0"]
    assert lines[1][19:30] == "ok         "
    assert len(lines[1]) == len(BHOSTS_HEADER)


def test_bhosts_full_host_is_closed_full_in_wide_view(make_cluster):
    c = make_cluster(mxj=1)
    jobid = c.submit("sleep 60")
    c.wait_stat(jobid, "RUN")
    assert c.run("bhosts").out.splitlines()[1].split()[1:5] == \
        ["closed", "-", "1", "1"]
    wide = c.run("bhosts", "-w").out.splitlines()
    assert wide[0].split()[1] == "STATUS" and wide[0][19:34] == \
        "STATUS         "
    assert wide[1].split()[1] == "closed_Full"
    assert "closed_Full" in c.run("bhosts", "-l").out
    assert c.run("badmin", "hclose").rc == 0
    assert c.run("bhosts", "-w").out.splitlines()[1].split()[1] == \
        "closed_Adm"
    r = c.run("badmin", "hopen")
    assert (r.rc, r.err) == (0, f"Open <{HOST}> ...... done : host remains "
                             "closed due to job limit;  \n")
    assert c.run("bhosts", "-w").out.splitlines()[1].split()[1] == \
        "closed_Full"


def test_bhosts_long_block(cluster):
    r = cluster.run("bhosts", "-l", HOST)
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0] == f"HOST  {HOST}"
    assert lines[1] == ("STATUS           CPUF  JL/U    MAX  NJOBS    RUN  "
                        "SSUSP  USUSP    RSV DISPATCH_WINDOW")
    assert lines[2].split()[0] == "ok"
    assert " CURRENT LOAD USED FOR SCHEDULING:" in lines
    assert " LOAD THRESHOLD USED FOR SCHEDULING:" in lines


def test_bhosts_unknown_host_fails(cluster):
    r = cluster.run("bhosts", "nosuchhost")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("nosuchhost: Bad host name, host group name or cluster "
                     "name\n")


# -- lsid, lsclusters ---------------------------------------------------------
def test_lsid_first_line_keeps_the_shape_toil_parses(cluster):
    r = cluster.run("lsid")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    m = re.search(r"IBM Spectrum LSF Standard (.*),", r.out)
    assert m and m.group(1) == "10.1.0.13"
    assert lines[0].startswith("IBM Spectrum LSF Standard 10.1.0.13, xce ")
    assert lines[-2:] == ["My cluster name is testclu",
                          f"My master name is {HOST}"]


def test_lsclusters_puts_the_cluster_name_first_on_line_two(cluster):
    r = cluster.run(sys.executable, "-m", "xce.cli.lsclusters", "-w")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0].split() == ["CLUSTER_NAME", "STATUS", "MASTER_HOST",
                                "ADMIN", "HOSTS", "SERVERS"]
    assert lines[1].split() == ["testclu", "ok", HOST, "root", "1", "1"]


# -- bparams ----------------------------------------------------------------
def test_bparams_summary_and_long(cluster):
    r = cluster.run("bparams")
    assert r.rc == 0 and r.err == ""
    assert r.out.splitlines()[0] == "Default Queues:  normal"
    assert "MBD_SLEEP_TIME used for calculations:  " in r.out
    long = cluster.run("bparams", "-l").out
    assert "    DEFAULT_QUEUE = normal\n" in long
    assert "    JOB_TERMINATE_INTERVAL = 2\n" in long


def _unit_as_toil_reads_it(out):
    for line in out.splitlines():
        if "LSF_UNIT_FOR_LIMITS" in line:
            return line.split("=")[1].strip()
    return None


def test_bparams_all_lists_every_parameter_with_the_unit(make_cluster):
    c = make_cluster(extra_params="  LSF_UNIT_FOR_LIMITS: MB")
    r = c.run("bparams", "-a")
    assert r.rc == 0 and r.err == ""
    for line in r.out.splitlines():
        assert re.fullmatch(r"    [A-Z_][A-Z0-9_]* = .*", line), line
    assert _unit_as_toil_reads_it(r.out) == "MB"
    assert "    DEFAULT_QUEUE = normal" in r.out.splitlines()


# -- badmin: queues -----------------------------------------------------------
def test_qclose_refuses_submission_and_qopen_restores_it(cluster):
    r = cluster.run("badmin", "qclose", "normal")
    assert (r.rc, r.out, r.err) == (0, "Queue <normal> is closed\n", "")
    assert "Closed:Active" in _row(cluster.run("bqueues").out, "normal")
    r = cluster.run("bsub", "true")
    assert r.rc == 255
    assert "normal: Queue has been closed. Job not submitted." in r.err
    r = cluster.run("badmin", "qopen")          # no name: the default queue
    assert (r.rc, r.out) == (0, "Queue <normal> is opened\n")
    cluster.submit("true")


def test_bqueues_l_shows_the_comment_of_the_last_queue_control(cluster):
    r = cluster.run("badmin", "qclose", "-C", "disk full on /scratch",
                    "normal")
    assert (r.rc, r.out, r.err) == (0, "Queue <normal> is closed\n", "")
    comment = "ADMIN ACTION COMMENT: disk full on /scratch"
    assert comment in cluster.run("bqueues", "-l", "normal").out.splitlines()
    assert "ADMIN ACTION COMMENT" not in cluster.run("bqueues", "-l",
                                                     "short").out
    # Kept by the controller across a restart, as the queue's state is.
    cluster.stop()
    cluster.start()
    assert comment in cluster.run("bqueues", "-l", "normal").out.splitlines()
    # The next control replaces it; one without -C leaves none.
    assert cluster.run("badmin", "qopen", "normal").rc == 0
    assert "ADMIN ACTION COMMENT" not in cluster.run("bqueues", "-l",
                                                     "normal").out


def test_qinact_keeps_jobs_pending_and_qact_runs_them(cluster):
    r = cluster.run("badmin", "qinact", "normal")
    assert (r.rc, r.out) == (0, "Queue <normal> is inactivated\n")
    assert "Open:Inact " in _row(cluster.run("bqueues").out, "normal")
    assert "Open:Inact_Adm" in cluster.run("bqueues", "-l", "normal").out
    jobid = cluster.submit("true")
    wait_for(lambda: "The queue is inactivated by the administrator"
             in _pend_reason(cluster, jobid), what="the inactive reason")
    assert cluster.stat(jobid) == "PEND"
    r = cluster.run("badmin", "qact", "normal")
    assert (r.rc, r.out) == (0, "Queue <normal> is activated\n")
    cluster.wait_stat(jobid, "DONE")


def test_queue_ops_on_a_fairshare_queue_that_has_scheduled(make_cluster):
    """A FAIRSHARE queue's policy, worked out by a scheduling pass, is not
    part of the row bqueues reads: qclose/qopen/qact/qinact of it were
    refused ("Request failed: TypeError: Object of type Config is not
    JSON serializable")."""
    cluster = make_cluster(mxj=1, extra_queues=(
        "  fair:\n    PRIORITY: 20\n"
        "    FAIRSHARE: USER_SHARES[[default, 1]]\n"))
    job = cluster.submit("-q", "fair", "true")
    cluster.wait_stat(job, "DONE")
    for op, word in (("qclose", "closed"), ("qinact", "inactivated"),
                     ("qact", "activated"), ("qopen", "opened")):
        r = cluster.run("badmin", op, "fair")
        assert (r.rc, r.out, r.err) == (0, f"Queue <fair> is {word}\n", ""), r
    r = cluster.run("bqueues", "-l", "fair")
    assert r.rc == 0 and "SCHEDULING POLICIES:  FAIRSHARE" in r.out, r


def test_queue_ops_with_all_and_bad_names(cluster):
    r = cluster.run("badmin", "qclose", "all")
    assert r.rc == 0 and sorted(r.out.splitlines()) == [
        "Queue <normal> is closed", "Queue <short> is closed"]
    r = cluster.run("badmin", "qopen", "normal", "nosuch")
    assert (r.rc, r.out, r.err) == (255, "", "nosuch: No such queue\n")
    # Nothing changed: one bad name stops the whole command.
    assert "Closed:" in _row(cluster.run("bqueues").out, "normal")
    assert cluster.run("badmin", "qopen", "all").rc == 0


# -- badmin: hosts --------------------------------------------------------------
def test_hclose_closes_the_host_and_jobs_pend_until_hopen(cluster):
    r = cluster.run("badmin", "hclose")         # no name: this host
    assert (r.rc, r.out, r.err) == (0, "", f"Close <{HOST}> ...... done\n")
    assert cluster.run("bhosts").out.splitlines()[1].split()[1] == "closed"
    assert cluster.run("bhosts", "-w").out.splitlines()[1].split()[1] == \
        "closed_Adm"
    jobid = cluster.submit("true")
    wait_for(lambda: "Closed by LSF administrator"
             in _pend_reason(cluster, jobid), what="the closed-host reason")
    assert cluster.stat(jobid) == "PEND"
    r = cluster.run("badmin", "hopen", HOST)
    assert (r.rc, r.err) == (0, f"Open <{HOST}> ...... done\n")
    cluster.wait_stat(jobid, "DONE")
    assert cluster.run("bhosts", "-w").out.splitlines()[1].split()[1] == "ok"


def test_host_ops_with_bad_names_and_unknown_subcommand(cluster):
    r = cluster.run("badmin", "hclose", "nosuchhost")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("nosuchhost: Bad host name, host group name or cluster "
                     "name\n")
    assert cluster.run("bhosts", "-w").out.splitlines()[1].split()[1] == "ok"
    r = cluster.run("badmin", "frobnicate")
    assert (r.rc, r.err) == (255, "Invalid command <frobnicate>\n")
    r = cluster.run("badmin", "qopen", "-Z")
    assert r.rc == 255 and r.err.startswith("badmin: illegal option -- Z")


# -- badmin: configuration ------------------------------------------------------
def test_ckconfig_and_reconfig_with_a_good_configuration(cluster):
    r = cluster.run("badmin", "ckconfig")
    assert (r.rc, r.out) == (0, "")
    assert r.err == "\nChecking configuration files ...\n\nNo errors found.\n\n"
    # The job runs until the test is done looking, not for a guessed 3 s.
    go = cluster.root / "keep.go"
    running = cluster.submit("-o", "keep.out", "echo start; while [ ! -e "
                             f"{go} ]; do sleep 0.1; done; echo end")
    cluster.wait_stat(running, "RUN")
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text() + "  night:\n    PRIORITY: 5\n")
    r = cluster.run("badmin", "reconfig")
    assert (r.rc, r.out) == (0, "Reconfiguration initiated\n")
    assert "No errors found." in r.err
    assert "night" in cluster.run("bqueues").out
    # The running job was neither killed nor restarted by the reconfig.
    assert cluster.stat(running) == "RUN"
    go.write_text("")
    cluster.wait_stat(running, "DONE")
    lines = (cluster.root / "keep.out").read_text().splitlines()
    assert lines[:2] == ["start", "end"] and lines.count("start") == 1


def test_reconfig_with_errors_names_file_and_line_and_changes_nothing(
        cluster):
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text() +
                    "  broken:\n    PRIORITY: high\n")
    r = cluster.run("badmin", "ckconfig")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("\nChecking configuration files ...\n\n"
                            "There are fatal errors.\n\n")
    assert re.search(r"xce\.yaml:\d+: .*PRIORITY", r.err), r.err
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 255 and r.out == ""
    assert r.err.endswith("Reconfiguration aborted.\n")
    assert "broken" not in cluster.run("bqueues").out


def test_showconf_mbd_prints_one_header_then_key_value_lines(cluster):
    r = cluster.run("badmin", "showconf", "mbd")
    assert r.rc == 0 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0].startswith("MBD configuration at ")
    keys = {}
    for line in lines[1:]:
        m = re.fullmatch(r"    ([A-Z_][A-Z0-9_]*) = (.*)", line)
        assert m, line
        keys[m.group(1)] = m.group(2)
    assert keys["LSF_UNIT_FOR_LIMITS"] == "KB"
    assert keys["LSF_CONFDIR"] == str(cluster.envdir)
    assert "LSB_SHAREDIR" in keys


# -- help -----------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ("bqueues", "-h"), ("bhosts", "-h"), ("lsid", "-h"), ("bparams", "-h"),
    ("badmin", "-h"), ("badmin", "qclose", "-h"), ("badmin", "reconfig", "-h"),
    (sys.executable, "-m", "xce.cli.lsclusters", "-h")])
def test_every_command_has_help(cluster, argv):
    r = cluster.run(*argv)
    assert r.rc == 0 and r.out.startswith("Usage: ")


def test_wide_and_long_together_is_a_usage_error(cluster):
    r = cluster.run("bqueues", "-w", "-l")
    assert r.rc == 255 and r.out == ""
    assert r.err.startswith("bqueues: ") and "Usage: " in r.err


# -- a user who is not an administrator -------------------------------------------
NAME = f"xci{os.getpid() % 100000}a"


@pytest.fixture(scope="module")
def plain_user():
    if os.geteuid() != 0:
        pytest.skip("creating users needs root")
    from tests.cluster.users import make_users, remove_users
    made = make_users([NAME])
    try:
        probe = subprocess.run(
            ["/usr/bin/setpriv", f"--reuid={NAME}", f"--regid={NAME}",
             "--init-groups", "--", str(BIN / "python"), "-c",
             "import xce, click"], capture_output=True)
        if probe.returncode != 0:
            pytest.skip("the installed Python is not reachable by other users")
        yield made[0]
    finally:
        remove_users([NAME])


@pytest.fixture
def shared(plain_user):
    """A cluster the user can reach (pytest's tmp dirs are private)."""
    root = tempfile.mkdtemp(prefix="xce-info-")
    os.chmod(root, 0o755)
    c = Cluster(root).start()
    try:
        yield c
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_non_admin_can_look_but_not_control(shared, plain_user):
    def as_user(*argv):
        return shared.run(*argv, user=plain_user.name, cwd=plain_user.home)
    assert as_user("bqueues").rc == 0
    assert as_user("bhosts").rc == 0
    assert as_user("bparams", "-a").rc == 0
    r = as_user("badmin", "qclose", "normal")
    assert (r.rc, r.out, r.err) == (255, "", "normal: User permission denied\n")
    r = as_user("badmin", "hclose", HOST)
    assert r.rc == 255
    assert r.err == (f"Close <{HOST}> ...... Host control failed: "
                     "User permission denied\n")
    r = as_user("badmin", "hrestart", HOST)
    assert (r.rc, r.err) == (255, f"Restart slave batch daemon on <{HOST}> "
                             "...... Host control failed: User permission "
                             "denied\n")
    r = as_user("badmin", "reconfig")
    assert r.rc == 255 and r.err.endswith(
        "User permission denied\n\nReconfiguration aborted.\n"), r.err
    assert "Open:Active" in _row(shared.run("bqueues").out, "normal")
    assert shared.run("bhosts").out.splitlines()[1].split()[1] == "ok"
