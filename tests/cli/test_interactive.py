"""bsub -I, -Ip, -Is through a real pseudo-terminal (pexpect): typed input
reaches the job, its output and exit status come back, a window-size
change and Ctrl-C reach it, bkill ends it and bsub says so."""

import os
import pwd
import re

import pexpect

from tests.cluster._procs import descendants
from tests.lib.xcecluster import (BIN, _cmdline, group_stopped, proc_state,
                                  wait_for)

TIMEOUT = 30


def spawn(cluster, *argv, rows=24, cols=80):
    """bsub ARGV on a fresh pseudo-terminal of its own."""
    child = pexpect.spawn(str(BIN / "bsub"), list(argv), env=cluster.env,
                          cwd=str(cluster.root), timeout=TIMEOUT,
                          encoding="utf-8", dimensions=(rows, cols))
    child.expect(r"Job <(\d+)> is submitted to default queue <normal>\.")
    jobid = int(child.match.group(1))
    child.expect_exact("<<Waiting for dispatch ...>>")
    child.expect(r"<<Starting on (\S+)>>")
    return child, jobid


def finish(child):
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.signalstatus


def test_interactive_output_input_and_exit_status(cluster):
    child, jobid = spawn(cluster, "-I", "read x; echo got=$x; "
                                        "echo oops >&2; exit 3")
    child.sendline("hello")
    child.expect_exact("got=hello")
    child.expect_exact("oops")
    assert finish(child) == (3, None)
    cluster.wait_stat(jobid, "EXIT")
    job = cluster.stored_job(jobid)
    assert job["exit_code"] == 3
    assert job["spec"]["interactive"] == "I"
    assert "interactive_key" not in job["spec"]


def test_pty_job_sees_a_terminal_and_its_size(cluster):
    child, _ = spawn(cluster, "-Ip", "tty -s && echo is-a-tty; stty size; "
                                     "read x; stty size", rows=33, cols=101)
    child.expect_exact("is-a-tty")
    child.expect_exact("33 101")
    child.setwinsize(40, 120)
    child.sendline("")
    child.expect_exact("40 120")
    assert finish(child) == (0, None)


def test_ctrl_c_interrupts_a_pty_shell_job(cluster):
    child, jobid = spawn(cluster, "-Is", "/bin/sh")
    child.sendline("echo $((6*7))")
    child.expect_exact("42")
    # Ctrl-C once the list runs (its first word printed, not just echoed
    # back by the terminal): sent earlier, it could be spent before the
    # shell reads the line and the test would sit out the sleep.
    child.sendline("echo list-$((2+2)); sleep 30; echo not-interrupted")
    child.expect_exact("list-4")
    child.sendcontrol("c")
    child.sendline("echo back-$((1+1))")
    child.expect_exact("back-2")
    assert "not-interrupted" not in child.before     # what came before it
    child.sendline("exit 5")
    assert finish(child) == (5, None)


def test_ctrl_c_reaches_a_plain_interactive_job(cluster):
    child, jobid = spawn(cluster, "-I",
                         "trap 'echo caught-int; exit 9' INT; echo ready; "
                         "while :; do sleep 0.1; done")
    child.expect_exact("ready")
    child.sendintr()
    child.expect_exact("caught-int")
    assert finish(child) == (9, None)


def test_bkill_ends_an_interactive_job_and_bsub_says_so(cluster):
    child, jobid = spawn(cluster, "-I", "echo running; sleep 60")
    child.expect_exact("running")
    r = cluster.run("bkill", str(jobid))
    assert r.rc == 0, r
    child.expect_exact(f"Job <{jobid}> has been terminated by user or "
                       "administrator")
    status, _ = finish(child)
    assert status == 130        # the job's status: SIGINT, bkill's first
    cluster.wait_stat(jobid, "EXIT")


def test_options_that_make_no_sense_together_are_refused(cluster):
    for argv, first, second in ((("-I", "-K"), "-I", "-K"),
                                (("-Is", "-I"), "-I", "-Is"),
                                (("-Ip", "-r"), "-Ip", "-r")):
        r = cluster.run("bsub", *argv, "true")
        assert (r.rc, r.out) == (255, ""), r
        assert r.err.splitlines()[0] == \
            f"bsub: {first} and {second} cannot be used together"
    r = cluster.run("bsub", "-I", "-J", "arr[1-2]", "true")
    assert (r.rc, r.out) == (255, "")
    assert r.err == ("Interactive job not supported for job arrays. "
                     "Job not submitted.\n")
    # The daemons are still there: a batch job runs.
    job = cluster.submit("true")
    cluster.wait_stat(job, "DONE")


def test_output_file_takes_the_output_of_an_interactive_job(cluster):
    out = cluster.root / "o.txt"
    r = cluster.run("bsub", "-I", "-o", str(out), "echo to-file; "
                    "echo to-file-too >&2", input="")
    assert r.rc == 0, r
    assert "to-file" not in r.out + r.err
    # The job report follows, as with any -o (the agent appends it once
    # the job has ended, which may be just after bsub has returned).
    wait_for(lambda: "Sender: LSF System" in out.read_text(), timeout=20,
             what="the job report")
    assert out.read_text().startswith("to-file\nto-file-too\n")


def test_bjobs_bhist_and_lsb_acct_show_the_job_as_interactive(cluster):
    from tests.lib.lsbacct_reader import read_record
    child, jobid = spawn(cluster, "-Is", "exit 0")
    assert finish(child) == (0, None)
    cluster.wait_stat(jobid, "DONE")
    r = cluster.run("bjobs", "-l", str(jobid))
    assert "Interactive pseudo-terminal shell mode" in r.joined, r
    r = cluster.run("bjobs", "-o", "jobid interactive", "-noheader",
                    str(jobid))
    assert r.out.split() == [str(jobid), "Y"], r
    r = cluster.run("bhist", "-l", str(jobid))
    assert "Interactive pseudo-terminal shell mode" in r.joined, r
    cluster.wait_lsb_records("lsb.acct", "JOB_FINISH", jobid)
    acct = cluster.logdir / "lsb.acct"
    rec = read_record(acct.read_text().splitlines()[-1])
    # LSF's SUB_INTERACTIVE | SUB_PTY | SUB_PTY_SHELL
    assert rec["options"] == 0x4000000 | 0x8000000 | 0x10000000


def test_losing_the_terminal_ends_the_job(cluster):
    child, jobid = spawn(cluster, "-Is", "echo started; sleep 60")
    child.expect_exact("started")
    child.close(force=True)         # the terminal goes away: SIGHUP
    cluster.wait_stat(jobid, "EXIT", timeout=20)
    assert cluster.stored_job(jobid)["exit_code"] == 129    # hung up
    # The daemons go on.
    job = cluster.submit("true")
    cluster.wait_stat(job, "DONE")


def test_a_controller_restart_leaves_an_interactive_job_running(cluster):
    child, jobid = spawn(cluster, "-Is", "cat")
    child.sendline("before")
    child.expect_exact("before\r\nbefore")       # the terminal's echo, cat's
    cluster.kill_controller()
    cluster.start()
    child.sendline("after")
    child.expect_exact("after\r\nafter")
    child.sendeof()
    assert finish(child) == (0, None)
    cluster.wait_stat(jobid, "DONE")


def test_ctrl_z_and_job_control_work_in_a_shell_job(cluster):
    child, _ = spawn(cluster, "-Is", "/bin/bash --norc --noprofile -i")
    # Typed only once bash reads: setting up its terminal drops typeahead.
    child.expect(r"[#$] ")
    child.sendline("echo up-$((1+2))")
    child.expect_exact("up-3")
    # Once it has printed, the command leads the terminal's foreground.
    child.sendline("sh -c 'echo in-$((0+1)); exec sleep 30'")
    child.expect_exact("in-1")
    child.sendcontrol("z")
    child.expect(r"\[1\]\+ +Stopped +sh -c")
    child.sendline("bg; kill %1; wait %1; jobs; echo back-$((2+2))")
    child.expect_exact("back-4")
    assert "Stopped" not in child.before
    child.sendline("exit")
    assert finish(child) == (0, None)


def test_ctrl_backslash_quits_a_pty_job(cluster):
    child, _ = spawn(cluster, "-Ip", "trap 'echo got-quit; exit 6' QUIT; "
                                     "echo ready; while :; do sleep 0.1; done")
    child.expect_exact("ready")
    child.sendcontrol("\\")
    child.expect_exact("got-quit")
    assert finish(child) == (6, None)


def test_ctrl_z_stops_a_plain_interactive_job_and_bsub(cluster):
    child, jobid = spawn(cluster, "-I", "echo ready; sleep 30")
    child.expect_exact("ready")
    child.sendcontrol("z")      # bsub stops itself once it passed TSTP
    wait_for(lambda: proc_state(child.pid) == "T", what="bsub stopped")
    child.kill(9)
    child.close(force=True)
    cluster.wait_stat(jobid, "EXIT", timeout=20)


def test_ctrl_c_while_pending_kills_the_job(cluster):
    child = pexpect.spawn(str(BIN / "bsub"), ["-I", "-H", "echo never"],
                          env=cluster.env, cwd=str(cluster.root),
                          timeout=TIMEOUT, encoding="utf-8")
    child.expect(r"Job <(\d+)> is submitted")
    jobid = int(child.match.group(1))
    child.expect_exact("<<Waiting for dispatch ...>>")
    child.sendintr()
    child.expect_exact("<<Terminated while pending>>")
    assert finish(child) == (246, None)
    assert cluster.stat(jobid) == "EXIT"
    assert not (cluster.spool / "interactive" / str(jobid)).exists()


def test_bstop_and_bresume_stop_and_continue_a_pty_job(cluster):
    child, jobid = spawn(cluster, "-Ip", "i=0; while [ $i -lt 600 ]; do "
                                         "i=$((i+1)); echo tick-$i; "
                                         "sleep 0.1; done")
    child.expect(r"tick-(\d+)")
    assert cluster.run("bstop", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "USUSP")
    # bjobs shows USUSP once the controller committed it, before the
    # agent has stopped the job: its command is watched once stopped.
    wait_for(lambda: _ticker_stopped(cluster, jobid),
             what="the job's command to be stopped")
    # Stopped: once what was on its way has come, no tick follows.
    child.expect(pexpect.TIMEOUT, timeout=1.5)
    last = _last_tick(child.before)
    child.expect(pexpect.TIMEOUT, timeout=1.5)
    assert _last_tick(child.before) == last, child.before[-200:]
    assert cluster.run("bresume", str(jobid)).rc == 0
    child.expect(r"tick-\d+")
    assert cluster.run("bkill", str(jobid)).rc == 0
    child.expect(pexpect.EOF)


def _ticker_stopped(cluster, jobid):
    """Whether the job's command (the shell that prints the ticks, in a
    session of its own under the terminal relay) is stopped, all of its
    process group."""
    leader = cluster.job_pid(jobid)
    shells = [p for p in descendants(leader) if "tick-" in _cmdline(p)] \
        if leader else []
    try:
        return bool(shells) and all(group_stopped(os.getpgid(p))
                                    for p in shells)
    except ProcessLookupError:
        return False


def _last_tick(text):
    found = re.findall(r"tick-(\d+)", text)
    return int(found[-1]) if found else None


def test_the_job_sees_lsb_interactive_and_never_its_key(cluster):
    r = cluster.run("bsub", "-I", "echo mode=$LSB_INTERACTIVE; "
                    "env | grep -c '^XCE_TERM'", input="")
    assert r.rc == 1, r         # grep -c found nothing
    assert r.out.splitlines()[1:] == ["mode=Y", "0"], r


def test_a_job_whose_bsub_is_gone_when_it_starts_ends_at_once(cluster):
    child = pexpect.spawn(str(BIN / "bsub"), ["-I", "-H", "echo never"],
                          env=cluster.env, cwd=str(cluster.root),
                          timeout=TIMEOUT, encoding="utf-8")
    child.expect(r"Job <(\d+)> is submitted")
    jobid = int(child.match.group(1))
    child.expect_exact("<<Waiting for dispatch ...>>")
    child.kill(9)           # no chance to kill the job on its way out
    child.close(force=True)
    assert cluster.run("bresume", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "EXIT", timeout=30)
    assert cluster.stored_job(jobid)["exit_code"] == 1
    me = pwd.getpwuid(os.getuid()).pw_name
    out = cluster.spool / "output" / me / f"{jobid}.out"
    assert "cannot reach the submitting bsub" in out.read_text()
    assert cluster.proc.poll() is None


def test_bpeek_refuses_an_interactive_job_whose_output_is_the_terminal(
        cluster):
    child, jobid = spawn(cluster, "-I", "read x")
    r = cluster.run("bpeek", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err == f"Job <{jobid}> : Cannot bpeek an interactive job.\n"
    child.sendline("done")
    assert finish(child) == (0, None)
