"""Projects end to end as two real users: membership checked at submit
(no inheritance down the tree), defaults (the user's, the user group's,
DEFAULT_PROJECT), SLOTS, JOBS and MEM quotas of the project tree and of
limits: PER_PROJECT, rolled up the tree, with the project pend reasons
and the application profile's rusage counted; a quota that can never be
met refused at submit, blimits and bjobs -l, and a bad projects: section
refused by badmin reconfig.  Run under the real-users lock."""

import datetime

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("pj")

users = users_fixture(NAMES)

PROJECTS = """\
user_groups:
  phys: [{ann}, {bob}]
projects:
  /phys:
    MEMBERS: phys
    MANAGERS: {bob}
    DEFAULT_FOR: phys
    SLOTS: 2
  /phys/cms:
    MEMBERS: {ann}
    DEFAULT_FOR: {ann}
  chem:
    MEMBERS: {bob}
    JOBS: 1
  /store:
    MEMBERS: phys
    MEM: 100
  /lab/open:
  /lab/ann:
    MEMBERS: {ann}
applications:
  light:
    RES_REQ: rusage[mem=30]
  hungry:
    RES_REQ: rusage[mem=150]
limits:
  - NAME: lab
    PER_PROJECT: /lab
    JOBS: 1
    MEM: 50
"""


@pytest.fixture(scope="module")
def shared(users):
    ann, bob = users
    with shared_cluster("xce-pj-", mxj=4,
                        extra_params="  DEFAULT_PROJECT: general",
                        extra=PROJECTS.format(
            ann=ann.name, bob=bob.name)) as c:
        yield c


def _as(shared, user):
    def run(*argv, **kw):
        return shared.run(*argv, user=user.name, cwd=user.home, **kw)
    return run


def _jobid(r):
    assert r.rc == 0, r
    return int(r.out.split("<", 1)[1].split(">", 1)[0])


def _jobs_of(shared, user):
    r = shared.run("bjobs", "-a", "-u", user.name)
    return [l for l in r.out.splitlines()[1:] if l.strip()]


def test_membership_is_checked_at_submit_without_inheritance(shared, users):
    ann, bob = users
    bob_run = _as(shared, bob)
    r = bob_run("bsub", "-P", "/phys/cms", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "/phys/cms: User not in the specified project. Job not "
        "submitted.\n")
    r = bob_run("bsub", "-P", "/nowhere", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "/nowhere: Project does not exist. Job not submitted.\n")
    # LSB_DEFAULTPROJECT is checked as -P is.
    r = bob_run("bsub", "true", env={"LSB_DEFAULTPROJECT": "/phys/cms"})
    assert r.rc == 255 and "User not in the specified project" in r.err
    assert _jobs_of(shared, bob) == []
    # bob is a member of /phys through the group, of chem by name.
    for project in ("/phys", "chem"):
        jobid = _jobid(bob_run("bsub", "-P", project, "true"))
        shared.wait_stat(jobid, "DONE")
    # bmod -P is checked too.
    jobid = _jobid(bob_run("bsub", "-H", "-P", "/phys", "true"))
    r = bob_run("bmod", "-P", "/phys/cms", str(jobid))
    assert r.rc == 255 and "User not in the specified project" in r.err
    assert shared.stored_job(jobid)["spec"]["project"] == "/phys"
    shared.run("bkill", str(jobid))


def test_default_project_is_the_users_then_the_groups_then_the_clusters(
        shared, users):
    """A job without -P: ann's own DEFAULT_FOR (/phys/cms) wins over her
    group's; bob gets his group phys's (/phys); root, in no group, gets
    DEFAULT_PROJECT (general), which stays open to everyone;
    LSB_DEFAULTPROJECT comes before them all, -P before it."""
    ann, bob = users
    mine = _jobid(_as(shared, ann)("bsub", "true"))
    theirs = _jobid(_as(shared, bob)("bsub", "true"))
    roots = shared.submit("true")
    cluster_default = _jobid(_as(shared, bob)("bsub", "-P", "general",
                                              "true"))
    # LSB_DEFAULTPROJECT in the submission environment comes before the
    # defaults; -P before it.
    chem = {"LSB_DEFAULTPROJECT": "chem"}
    by_env = _jobid(_as(shared, bob)("bsub", "true", env=chem))
    by_option = _jobid(_as(shared, bob)("bsub", "-P", "/phys", "true",
                                        env=chem))
    for jobid, project in ((mine, "/phys/cms"), (theirs, "/phys"),
                           (roots, "general"), (cluster_default, "general"),
                           (by_env, "chem"), (by_option, "/phys")):
        shared.wait_stat(jobid, "DONE")
        assert f"Project <{project}>" in shared.long(jobid), project
        r = shared.run("bjobs", "-noheader", "-o", "proj", str(jobid))
        assert (r.rc, r.out.strip()) == (0, project), r
    r = shared.run("bjobs", "-a", "-P", "/phys/cms", "-u", "all")
    ids = [l.split()[0] for l in r.out.splitlines()[1:]]
    assert str(mine) in ids and str(theirs) not in ids
    r = shared.run("bparams", "-l")
    assert "DEFAULT_PROJECT = general" in r.out, r


def _pends_with(shared, jobid, reason):
    wait_for(lambda: reason in shared.run("bjobs", "-p", str(jobid)).out,
             what=reason)
    assert shared.stat(jobid) == "PEND"


def test_a_project_jobs_quota_pends_until_room_frees(shared, users):
    """chem's JOBS: 1 in the project tree."""
    _, bob = users
    run = _as(shared, bob)
    first = _jobid(run("bsub", "-P", "chem", "sleep 60"))
    shared.wait_stat(first, "RUN")
    second = _jobid(run("bsub", "-P", "chem", "true"))
    _pends_with(shared, second,
                "JOBS limit defined for the project has been reached")
    r = shared.run("blimits", "-P", "chem")
    row = [l for l in r.out.splitlines() if l.startswith("chem ")]
    assert row and row[0].split()[-1] == "1/1", r.out
    assert run("bkill", str(first)).rc == 0
    shared.wait_stat(second, "DONE", timeout=30)


def test_a_per_project_limit_counts_the_subtree_over_users(shared, users):
    """limits: PER_PROJECT /lab with JOBS 1: ann's job in /lab/ann holds
    it for bob's in /lab/open; MEM 50 refuses a job asking more alone."""
    ann, bob = users
    hers = _jobid(_as(shared, ann)("bsub", "-P", "/lab/ann", "sleep 60"))
    shared.wait_stat(hers, "RUN")
    his = _jobid(_as(shared, bob)("bsub", "-P", "/lab/open", "true"))
    _pends_with(shared, his,
                "JOBS limit defined for the project has been reached")
    r = _as(shared, bob)("bsub", "-P", "/lab/ann", "true")
    assert (r.rc, r.err) == (255, "/lab/ann: User not in the specified "
                                  "project. Job not submitted.\n"), r
    r = _as(shared, bob)("bsub", "-P", "/lab/open", "-R", "rusage[mem=80]",
                         "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "Project </lab> allows at most 50 mem; the job asks for "
        "80. Job not submitted.\n")
    assert _as(shared, ann)("bkill", str(hers)).rc == 0
    shared.wait_stat(his, "DONE", timeout=30)


def test_a_project_mem_quota_pends_and_checks_the_profiles_rusage(shared,
                                                                 users):
    """/store's MEM 100 counts rusage[mem] of both users' jobs; the
    application profile's RES_REQ is the job's for the check."""
    ann, bob = users
    held = _jobid(_as(shared, ann)("bsub", "-P", "/store", "-R",
                                   "rusage[mem=60]", "sleep 60"))
    shared.wait_stat(held, "RUN")
    waits = _jobid(_as(shared, bob)("bsub", "-P", "/store", "-R",
                                    "rusage[mem=60]", "true"))
    _pends_with(shared, waits,
                "Resource (mem) limit defined on project has been reached")
    fits = _jobid(_as(shared, bob)("bsub", "-P", "/store", "-app", "light",
                                   "true"))
    shared.wait_stat(fits, "DONE")
    assert shared.stat(waits) == "PEND"
    for argv in (("-R", "rusage[mem=150]"), ("-app", "hungry")):
        r = _as(shared, bob)("bsub", "-P", "/store", *argv, "true")
        assert (r.rc, r.out, r.err) == (
            255, "", "Project </store> allows at most 100 mem; the job asks "
            "for 150. Job not submitted.\n"), (argv, r)
    assert _as(shared, ann)("bkill", str(held)).rc == 0
    shared.wait_stat(waits, "DONE", timeout=30)


def test_quota_rolls_up_the_tree_and_pends_with_the_project_reason(
        shared, users):
    ann, _ = users
    run = _as(shared, ann)
    first = _jobid(run("bsub", "-P", "/phys/cms", "sleep 60"))
    second = _jobid(run("bsub", "-P", "/phys", "sleep 60"))
    shared.wait_stat(first, "RUN")
    shared.wait_stat(second, "RUN")
    third = _jobid(run("bsub", "-P", "/phys/cms", "true"))
    wait_for(lambda: "limit defined on project has been reached" in
             shared.run("bjobs", "-p", str(third)).out,
             what="the project pend reason")
    assert shared.stat(third) == "PEND"
    r = shared.run("blimits", "-P", "/phys/cms")
    assert r.rc == 0, r
    row = [l for l in r.out.splitlines() if l.startswith("/phys ")]
    assert row and row[0].split()[-5] == "2/2", r.out
    shared.run("bkill", str(first))
    shared.wait_stat(third, "DONE", timeout=30)
    shared.run("bkill", str(second))


def test_a_quota_that_can_never_be_met_is_refused(shared, users):
    ann, _ = users
    r = _as(shared, ann)("bsub", "-n", "3", "-P", "/phys/cms", "true")
    assert (r.rc, r.out, r.err) == (
        255, "", "Project </phys> allows at most 2 slots; the job asks for "
        "3. Job not submitted.\n")


def test_bad_projects_section_is_refused_by_reconfig(shared):
    assert_reconfig_refuses(shared, "  chem:\n", "  che m:\n",
                            r"che m: bad project name")
    yaml = shared.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("  che m:\n", "  chem:\n"))
    assert shared.run("badmin", "reconfig").rc == 0
    assert shared.run("bjobs", "-u", "all").rc in (0, 255)


def _held_job_pends_after_edit(shared, user, project, old, new, reason,
                               then=None):
    """A held job of *user* in *project* pends with *reason* once a
    reconfig replaces *old* by *new* in xce.yaml (put back after); *then*
    runs while the edit holds."""
    later = (datetime.datetime.now() + datetime.timedelta(hours=2)).strftime(
        "%Y:%m:%d:%H:%M")
    jobid = _jobid(_as(shared, user)("bsub", "-b", later, "-P", project,
                                     "true"))
    yaml = shared.envdir / "xce.yaml"
    before = yaml.read_text()
    assert old in before
    yaml.write_text(before.replace(old, new))
    try:
        assert shared.run("badmin", "reconfig").rc == 0
        wait_for(lambda: reason in shared.run("bjobs", "-p", str(jobid)).out,
                 what=reason)
        assert shared.stat(jobid) == "PEND"
        if then is not None:
            then()
    finally:
        yaml.write_text(before)
        assert shared.run("badmin", "reconfig").rc == 0
    shared.run("bkill", str(jobid))


def test_a_pending_job_whose_project_drops_its_owner_pends_with_why(
        shared, users):
    ann, bob = users

    def bob_refused():
        r = _as(shared, bob)("bsub", "-P", "/phys", "true")
        assert r.rc == 255 and "User not in the specified project" in r.err

    _held_job_pends_after_edit(
        shared, bob, "/phys", f"phys: [{ann.name}, {bob.name}]",
        f"phys: [{ann.name}]",
        "The job's owner is no longer a member of project </phys>",
        then=bob_refused)


def test_a_pending_job_whose_project_is_removed_pends_with_why(shared,
                                                              users):
    _, bob = users
    _held_job_pends_after_edit(
        shared, bob, "chem", f"  chem:\n    MEMBERS: {bob.name}\n"
        "    JOBS: 1\n", "", "The job's project <chem> is no longer defined")


def test_a_project_manager_controls_the_subtrees_jobs_only(shared, users):
    ann, bob = users
    run = _as(shared, ann)
    later = (datetime.datetime.now() + datetime.timedelta(hours=2)).strftime(
        "%Y:%m:%d:%H:%M")
    inside = _jobid(run("bsub", "-b", later, "-P", "/phys/cms", "true"))
    outside = _jobid(run("bsub", "-b", later, "-P", "general", "true"))
    r = _as(shared, bob)("bkill", str(outside))
    assert (r.rc, r.err) == (255, f"Job <{outside}>: User permission "
                                  "denied\n"), r
    # bmod too: the manager's reach is the subtree's jobs, whatever the
    # action.
    r = _as(shared, bob)("bmod", "-J", "moved", str(outside))
    assert (r.rc, r.err) == (255, f"Job <{outside}>: User permission "
                                  "denied. Job not modified.\n"), r
    r = _as(shared, bob)("bmod", "-J", "renamed", str(inside))
    assert r.rc == 0, r
    assert shared.stored_job(inside)["name"] == "renamed"
    r = _as(shared, bob)("bkill", str(inside))
    assert r.rc == 0, r
    shared.wait_stat(inside, "EXIT")
    shared.run("bkill", str(outside))
