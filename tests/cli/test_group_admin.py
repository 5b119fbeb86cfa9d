"""lsb.users GROUP_ADMIN as two real users: the administrator of a user
group stops, resumes, modifies and kills the jobs of the group's
members, as LSF 10.1 allows; a member gets no rights over its
administrator's jobs; with STRICT_UG_CONTROL a job submitted with -G to
another group is out of its reach; bugroup shows the administrators.
Run under the real-users lock."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster

NAMES = user_names("ga")

users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def shared(users):
    member, admin = users
    groups = (f"user_groups:\n  lab:\n    members: [{member.name}]\n"
              f"    GROUP_ADMIN: [{admin.name}]\n"
              f"  other:\n    members: [{member.name}]\n")
    with shared_cluster("xce-ga-", mxj=4, extra=groups,
                        extra_params="  STRICT_UG_CONTROL: Y") as c:
        yield c


def _as(cluster, user, *argv):
    return cluster.run(*argv, user=user.name, cwd=user.home)


def _refused_then_killed_by_owner(cluster, jobid, other, owner):
    """*other* may not kill the job; it lives on until *owner* kills it."""
    r = _as(cluster, other, "bkill", str(jobid))
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{jobid}>: User permission denied\n"), r
    assert cluster.stat(jobid) in ("PEND", "RUN")
    r = _as(cluster, owner, "bkill", str(jobid))
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "EXIT")


def test_a_group_admin_controls_a_members_job(shared, users):
    member, admin = users
    jobid = shared.submit("sleep 600", user=member.name, cwd=member.home)
    shared.wait_stat(jobid, "RUN")
    r = _as(shared, admin, "bstop", str(jobid))
    assert (r.rc, r.out, r.err) == (0, f"Job <{jobid}> is being stopped\n",
                                    ""), r
    shared.wait_stat(jobid, "USUSP")
    r = _as(shared, admin, "bresume", str(jobid))
    assert (r.rc, r.out, r.err) == (0, f"Job <{jobid}> is being resumed\n",
                                    ""), r
    shared.wait_stat(jobid, "RUN")
    r = _as(shared, admin, "bmod", "-W", "100", str(jobid))
    assert (r.rc, r.out) == (
        0, f"Parameters of job <{jobid}> are being changed\n"), r
    r = _as(shared, admin, "bkill", str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{jobid}> is being terminated\n", ""), r
    shared.wait_stat(jobid, "EXIT")


def test_a_member_may_not_control_its_group_admins_job(shared, users):
    member, admin = users
    jobid = shared.submit("sleep 600", user=admin.name, cwd=admin.home)
    _refused_then_killed_by_owner(shared, jobid, member, admin)


def test_strict_ug_control_keeps_a_job_of_another_group_from_the_admin(
        shared, users):
    member, admin = users
    jobid = shared.submit("-G", "other", "sleep 600", user=member.name,
                          cwd=member.home)
    _refused_then_killed_by_owner(shared, jobid, admin, member)


def test_bugroup_shows_the_group_admins(shared, users):
    member, admin = users
    r = _as(shared, member, "bugroup", "-w", "lab")
    assert r.rc == 0, r
    head, row = r.out.splitlines()
    assert head.split() == ["GROUP_NAME", "USERS", "GROUP_ADMIN"]
    assert row.split() == ["lab", member.name, admin.name]
