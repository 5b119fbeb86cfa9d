"""lsb.params ENFORCE_ONE_UG_LIMITS end to end: a real user in the user
groups chem (MAX_JOBS 2), phys (MAX_JOBS 1) and bio (no limit).  With
Y, a job submitted with -G chem is held by chem's limit only (and does
not use phys's), one with -G "~chem ~phys" by neither; a job without
-G is held by every group's, as with N."""

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("o")
users = users_fixture(NAMES)
R_GROUP = "One of the user's groups has reached its job slot limit"


@pytest.fixture
def groups(users):
    u = users[0]
    with shared_cluster(
            "xce-1ug-", mxj=6,
            extra_params="  ENFORCE_ONE_UG_LIMITS: Y\n",
            extra=("user_groups:\n"
                   f"  chem:\n    members: [{u.name}]\n"
                   f"  phys:\n    members: [{u.name}]\n"
                   f"  bio:\n    members: [{u.name}]\n"
                   "users:\n  chem:\n    MAX_JOBS: 2\n"
                   "  phys:\n    MAX_JOBS: 1\n")) as cluster:
        yield cluster


def _submit(cluster, user, *args):
    r = cluster.run("bsub", *args, "sleep 60", user=user.name,
                    cwd=user.home)
    assert r.rc == 0, r
    return int(r.out.split("<")[1].split(">")[0])


def _pends_with(cluster, jobid, text):
    wait_for(lambda: text in cluster.run("bjobs", "-p", str(jobid)).out,
             what=f"pend reason {text!r} for job {jobid}")
    assert cluster.stat(jobid) == "PEND"


def test_only_the_g_groups_limits_hold_the_job(groups, users):
    u = users[0]
    chem = [_submit(groups, u, "-G", "chem") for _ in range(3)]
    for jobid in chem[:2]:
        groups.wait_stat(jobid, "RUN")
    _pends_with(groups, chem[2], R_GROUP)
    # phys (MAX_JOBS 1) holds u, but the chem jobs neither count there
    # nor are held by it: a -G phys job still starts.
    phys = _submit(groups, u, "-G", "phys")
    groups.wait_stat(phys, "RUN")
    # Excluded from both limited groups: held by neither.
    free = _submit(groups, u, "-G", "~chem ~phys")
    groups.wait_stat(free, "RUN")
    # Without -G: every group of u's holds the job (chem and phys full).
    plain = _submit(groups, u)
    _pends_with(groups, plain, R_GROUP)
    r = groups.run("bparams", "-a")
    assert "    ENFORCE_ONE_UG_LIMITS = Y" in r.out.splitlines(), r
