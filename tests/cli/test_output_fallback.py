"""Output is never silently lost: an -o/-e file the job's user cannot open.

LSF: "Sends the output by mail if the file does not exist, or the system
has trouble writing to it" (bsub -o), and the job's exit status is not
changed by it.  xce's mail is the file where output goes without -o
(spool/output/<user>/<jobid>.out); the job report, bjobs -l and bhist -l
say which file could not be opened and where the output went.  Run as a
real unprivileged user, under the real-users lock.
"""

import os
from pathlib import Path

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("of")
FORBIDDEN = "/root/xce-output-fallback-test"


users = users_fixture(NAMES[:1])


@pytest.fixture(scope="module")
def user(users):
    return users[0]


@pytest.fixture(scope="module")
def shared(user):
    with shared_cluster("xce-of-") as c:
        yield c


def _submit(shared, user, *argv):
    r = shared.run("bsub", *argv, user=user.name, cwd=user.home)
    assert (r.rc, r.err) == (0, ""), r
    return int(r.out.split("<", 1)[1].split(">", 1)[0])


def _fallback_file(shared, user, jobid):
    return shared.spool / "output" / user.name / f"{jobid}.out"


def _long(shared, user, cmd, jobid):
    r = shared.run(cmd, "-l", str(jobid), user=user.name, cwd=user.home)
    assert (r.rc, r.err) == (0, ""), r
    return r.joined


def _report_in(path):
    wait_for(lambda: path.exists() and
             "Resource usage summary:" in path.read_text(),
             what=f"the job report in {path}")
    return path.read_text()


def test_unwritable_output_file_goes_to_the_fallback_file(shared, user):
    target = FORBIDDEN + ".out"
    jobid = _submit(shared, user, "-o", target,
                    "echo to-stdout; echo to-stderr >&2")
    shared.wait_stat(jobid, "DONE")         # LSF: exit status unchanged
    assert not os.path.exists(target)
    fallback = _fallback_file(shared, user, jobid)
    text = _report_in(fallback)
    assert text.startswith("to-stdout\nto-stderr\n")
    assert "Successfully completed." in text
    said = (f"Output file <{target}> could not be opened (Permission "
            f"denied); the job's output was written to <{fallback}> "
            f"instead.")
    assert said in " ".join(text.split())
    for cmd in ("bjobs", "bhist"):
        assert said in _long(shared, user, cmd, jobid), cmd
    st = os.stat(fallback.parent)           # the user's alone
    assert (st.st_uid, st.st_mode & 0o777) == (user.uid, 0o700)
    assert os.stat(fallback).st_uid == user.uid


def test_unwritable_error_file_goes_to_the_fallback_file(shared, user):
    target = FORBIDDEN + ".err"
    jobid = _submit(shared, user, "-o", "fb.out", "-e", target,
                    "echo to-stdout; echo to-stderr >&2; exit 3")
    shared.wait_stat(jobid, "EXIT")
    assert not os.path.exists(target)
    fallback = _fallback_file(shared, user, jobid)
    wait_for(lambda: fallback.exists() and
             fallback.read_text() == "to-stderr\n",
             what="stderr in the fallback file")
    report = _report_in(Path(user.home, "fb.out"))
    assert report.startswith("to-stdout\n")
    said = (f"Error file <{target}> could not be opened (Permission "
            f"denied); the job's standard error was written to "
            f"<{fallback}> instead.")
    assert said in " ".join(report.split())
    assert f"Read file <{fallback}> for stderr output of this job." in \
        report
    for cmd in ("bjobs", "bhist"):
        assert said in _long(shared, user, cmd, jobid), cmd


def test_output_files_the_user_can_open_say_nothing_of_a_fallback(
        shared, user):
    """Nor does the wrapper leave a note file (.oerr/.eerr) beside the
    job's other files (.pid, .hosts) when the files opened."""
    jobid = _submit(shared, user, "-o", "ok.out", "-e", "ok.err",
                    'echo fine; p=${LSB_DJOB_HOSTFILE%.hosts}; '
                    'for n in pid oerr eerr; do [ -e "$p.$n" ] && '
                    'echo "file $n"; done; true')
    shared.wait_stat(jobid, "DONE")
    report = _report_in(Path(user.home, "ok.out"))
    assert report.startswith("fine\nfile pid\n"), report
    assert "file oerr" not in report and "file eerr" not in report
    assert "could not be opened" not in report
    assert not _fallback_file(shared, user, jobid).exists()
    for cmd in ("bjobs", "bhist"):
        assert "could not be opened" not in _long(shared, user, cmd, jobid)


def test_bpeek_shows_output_that_went_to_the_fallback_file(shared, user):
    jobid = _submit(shared, user, "-o", FORBIDDEN + ".peek",
                    "echo early; sleep 60")
    shared.wait_stat(jobid, "RUN")
    fallback = _fallback_file(shared, user, jobid)
    wait_for(lambda: fallback.exists() and fallback.read_text() == "early\n",
             what="output in the fallback file")
    r = shared.run("bpeek", str(jobid), user=user.name, cwd=user.home)
    assert (r.rc, r.out, r.err) == \
        (0, "<< output from stdout >>\nearly\n", ""), r
    r = shared.run("bkill", str(jobid), user=user.name, cwd=user.home)
    assert r.rc == 0, r
    shared.wait_stat(jobid, "EXIT")


def test_a_running_job_says_its_output_went_to_the_fallback_file(
        shared, user):
    target = FORBIDDEN + ".running"
    jobid = _submit(shared, user, "-o", target, "sleep 60")
    shared.wait_stat(jobid, "RUN")
    fallback = _fallback_file(shared, user, jobid)
    said = (f"Output file <{target}> could not be opened (Permission "
            f"denied); the job's output was written to <{fallback}> "
            f"instead.")
    wait_for(lambda: said in _long(shared, user, "bjobs", jobid),
             what="bjobs -l to say where the output went")
    assert shared.stat(jobid) == "RUN"
    assert said in _long(shared, user, "bhist", jobid)
    r = shared.run("bkill", str(jobid), user=user.name, cwd=user.home)
    assert r.rc == 0, r
    shared.wait_stat(jobid, "EXIT")
    text = _long(shared, user, "bhist", jobid)
    assert text.count(said) == 1, text      # said once, when learnt
