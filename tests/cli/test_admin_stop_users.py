"""bstop by an administrator as two real users and root, as LSF 10.1 has
it: a job its queue's administrator or root stopped is theirs to resume,
not its owner's (bresume and bkill -s CONT: User permission denied) until
lsb.params ENABLE_USER_RESUME=Y; an administrator's bstop of a job its
owner stopped keeps the owner out too.  bjobs, bhist and lsb.events say
who stopped it.  Run under the real-users lock."""

import re

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster

NAMES = user_names("as")
# lsbatch.h: SUSP_USER_RESUME, SUSP_USER_STOP, SUSP_ADMIN_STOP,
# SUSP_MBD_LOCK; PEND_USER_RESUME, PEND_ADMIN_STOP
USER_RESUME, USER_STOP, ADMIN_STOP, LOCK = 0x1, 0x2, 0x4000, 0x10000
PEND_RESUMED, PEND_ADMIN = 605, 610
PSUSP, RUN, SSUSP, USUSP, PEND = 0x2, 0x4, 0x8, 0x10, 0x1

users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    _, qadmin = users
    queue = (f"  adm:\n    PRIORITY: 20\n"
             f"    ADMINISTRATORS: [{qadmin.name}]\n")
    with shared_cluster("xce-as-", mxj=2, extra_queues=queue) as c:
        yield c


def _as(cluster, user, *argv):
    return cluster.run(*argv, user=user.name, cwd=user.home)


def _said(r, line):
    assert (r.rc, r.out, r.err) == (0, line + "\n", ""), r


def _refused(cluster, owner, jobid):
    for argv in (("bresume",), ("bkill", "-s", "CONT")):
        r = _as(cluster, owner, *argv, str(jobid))
        assert (r.rc, r.out, r.err) == (
            255, "", f"Job <{jobid}>: User permission denied\n"), (argv, r)


def _statuses(cluster, jobid, count):
    """(jStatus, reason) of the job's JOB_STATUS records, once *count*."""
    records = cluster.wait_lsb_events("JOB_STATUS", jobid,
                                      until=lambda r: len(r) >= count)
    return [(r["jStatus"], r["reason"]) for r in records]


def test_a_queue_admins_stop_is_not_the_owners_to_resume(shared, users):
    owner, qadmin = users
    jobid = shared.submit("-q", "adm", "sleep 600", user=owner.name,
                          cwd=owner.home)
    shared.wait_stat(jobid, "RUN")
    _said(_as(shared, qadmin, "bstop", str(jobid)),
          f"Job <{jobid}> is being stopped")
    assert shared.stat(jobid) == "USUSP"
    assert " SUSPENDING REASONS:\n The job was suspended by LSF admin or " \
        "root;" in shared.long(jobid, user=owner.name)
    _refused(shared, owner, jobid)
    # The owner's own bstop does not make it the owner's again.
    _said(_as(shared, owner, "bstop", str(jobid)),
          f"Job <{jobid}> is being stopped")
    _refused(shared, owner, jobid)
    assert shared.stat(jobid) == "USUSP"
    _said(_as(shared, qadmin, "bresume", str(jobid)),
          f"Job <{jobid}> is being resumed")
    # SSUSP until the system resumes it (LSF: load permitting).
    assert shared.stat(jobid) in ("SSUSP", "RUN")
    shared.wait_stat(jobid, "RUN")
    assert _statuses(shared, jobid, 3) == [
        (USUSP, ADMIN_STOP | LOCK), (SSUSP, USER_RESUME | LOCK), (RUN, 0)]
    text = shared.run("bhist", "-l", str(jobid)).joined
    assert re.search(rf": Suspended by the user or administrator "
                     rf"<{qadmin.name}>;$", text, re.M), text
    assert re.search(r": Suspended: Waiting for re-scheduling after being "
                     r"resumed by user;$", text, re.M), text
    _said(_as(shared, owner, "bkill", str(jobid)),
          f"Job <{jobid}> is being terminated")
    shared.wait_stat(jobid, "EXIT")


def test_roots_bstop_of_a_user_stopped_job_keeps_the_owner_out(shared,
                                                               users):
    owner, _ = users
    jobid = shared.submit("sleep 600", user=owner.name, cwd=owner.home)
    shared.wait_stat(jobid, "RUN")
    _said(_as(shared, owner, "bstop", str(jobid)),
          f"Job <{jobid}> is being stopped")
    assert " The job was suspended by user;" in shared.long(jobid)
    _said(shared.run("bstop", str(jobid)), f"Job <{jobid}> is being stopped")
    assert " The job was suspended by LSF admin or root;" in \
        shared.long(jobid)
    _refused(shared, owner, jobid)
    assert _statuses(shared, jobid, 2) == [
        (USUSP, USER_STOP | LOCK), (USUSP, ADMIN_STOP | LOCK)]
    _said(shared.run("bkill", "-s", "CONT", str(jobid)),
          f"Job <{jobid}> is being resumed")
    shared.wait_stat(jobid, "RUN")
    # Running again: the owner's next stop is the owner's to undo.
    _said(_as(shared, owner, "bstop", str(jobid)),
          f"Job <{jobid}> is being stopped")
    _said(_as(shared, owner, "bresume", str(jobid)),
          f"Job <{jobid}> is being resumed")
    shared.wait_stat(jobid, "RUN")
    shared.run("bkill", str(jobid))
    shared.wait_stat(jobid, "EXIT")


def test_an_admin_hold_of_a_pending_job_and_enable_user_resume(shared,
                                                               users):
    owner, qadmin = users
    jobid = shared.submit("-q", "adm", "-b", "23:59", "true",
                          user=owner.name, cwd=owner.home)
    _said(_as(shared, qadmin, "bstop", str(jobid)),
          f"Job <{jobid}> is being stopped")
    assert shared.stat(jobid) == "PSUSP"
    r = _as(shared, owner, "bjobs", "-p", str(jobid))
    assert r.out.splitlines()[2:] == [
        " Job was suspended by LSF admin or root while pending;", ""], r
    assert " Job was suspended by LSF admin or root while pending;" in \
        shared.long(jobid)
    _refused(shared, owner, jobid)
    # ENABLE_USER_RESUME=Y, in force at badmin reconfig: the owner may.
    yaml = shared.envdir / "xce.yaml"
    plain = yaml.read_text()
    # Neither Y nor N: refused, and the running configuration stays.
    yaml.write_text(plain.replace(
        "parameters:\n", "parameters:\n  ENABLE_USER_RESUME: maybe\n", 1))
    try:
        r = shared.run("badmin", "reconfig")
        assert r.rc == 255 and r.out == "" and \
            "ENABLE_USER_RESUME: 'maybe' is not Y or N" in r.err, r
        _refused(shared, owner, jobid)
        yaml.write_text(plain.replace(
            "parameters:\n", "parameters:\n  ENABLE_USER_RESUME: Y\n", 1))
        assert shared.run("badmin", "reconfig").rc == 0
        _said(_as(shared, owner, "bresume", str(jobid)),
              f"Job <{jobid}> is being resumed")
    finally:
        yaml.write_text(plain)
        assert shared.run("badmin", "reconfig").rc == 0
    assert shared.stat(jobid) == "PEND"
    assert _statuses(shared, jobid, 2) == [
        (PSUSP, PEND_ADMIN), (PEND, PEND_RESUMED)]
    shared.run("bkill", str(jobid))
    shared.wait_stat(jobid, "EXIT")
