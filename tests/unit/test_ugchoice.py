"""lsb.params ENFORCE_ONE_UG_LIMITS: with Y a job associated with a user
group is under that group's limits (and its holders') only, a bsub -G
"~group" job is not under the excluded groups' limits; limits on the
user by name still hold.  With N (the default) the strictest group
limit holds the job, as before."""

import pytest

from xce.controller import limitconf
from xce.scheduler import ugchoice
from xce.scheduler.limits import Limits

from tests.lib.builders import host, one_pass, pending
from tests.unit.test_limits import _cfg

R_GROUP = "One of the user's groups has reached its job slot limit"


def _site(enforce, users=None, limits=None, groups=None):
    if users is None:
        users = {"chem": {"MAX_JOBS": 2}, "phys": {"MAX_JOBS": 1}}
    cfg = _cfg({"users": users,
                "limits": limits or []},
               groups=groups or {"chem": ["alice", "bob"],
                                 "phys": ["alice"]})
    if enforce is not None:
        cfg.params["ENFORCE_ONE_UG_LIMITS"] = enforce
    return cfg


def _started(cfg, spec, n=3):
    """Jobs 1..n of alice submitted with SPEC: those that start, and the
    reason the last one waits (None if it starts)."""
    choice = limitconf.limit_groups(cfg, spec)
    jobs = [pending(i, user="alice", user_group=spec.get("user_group"),
                    limit_groups=choice) for i in range(1, n + 1)]
    out = one_pass([host("a", 8)], jobs,
                   limits=Limits(limitconf.limits(cfg)))
    started = sorted(key[0] for key, _ in out.dispatch)
    why = out.reasons.get((n, 0))
    return started, why[0][0] if why else None


def test_choice_follows_the_key_and_the_jobs_group():
    assert ugchoice.choice(False, "chem") is None
    assert ugchoice.choice(True) is None        # no -G: every group
    only = ugchoice.choice(True, "chem", holders=("sci",))
    assert only.allows("chem") and only.allows("sci")
    assert not only.allows("phys")
    but = ugchoice.choice(True, None, ("phys",))
    assert but.allows("chem") and not but.allows("phys")


@pytest.mark.parametrize("enforce", [None, "N", False])
def test_by_default_the_strictest_group_limit_holds_the_job(enforce):
    assert _started(_site(enforce), {"user_group": "chem"}) == \
        ([1], R_GROUP)


@pytest.mark.parametrize("enforce", ["Y", "yes", True])
def test_with_y_only_the_g_groups_limits_hold_the_job(enforce):
    assert _started(_site(enforce), {"user_group": "chem"}) == \
        ([1, 2], R_GROUP)


def test_with_y_excluded_groups_limits_do_not_hold_the_job():
    cfg = _site("Y")
    assert _started(cfg, {"user_group_exclude": ["phys"]}) == \
        ([1, 2], R_GROUP)
    assert _started(cfg, {"user_group_exclude": ["chem", "phys"]}) == \
        ([1, 2, 3], None)


def test_with_y_a_job_without_g_is_under_every_group():
    assert _started(_site("Y"), {}) == ([1], R_GROUP)


def test_with_y_the_users_own_limits_still_hold():
    cfg = _site("Y", limits=[{"NAME": "own", "USERS": "alice",
                              "SLOTS": 1}])
    started, why = _started(cfg, {"user_group": "chem"})
    assert started == [1] and why.startswith("Resource (slot) limit")
    # A section naming the user and a group holds the job for the user.
    cfg = _site("Y", users={}, limits=[{"NAME": "mix",
                                        "USERS": "alice phys", "SLOTS": 1}])
    assert _started(cfg, {"user_group": "chem"})[0] == [1]
    # One naming a group only does not, once the job is in another.
    cfg = _site("Y", users={}, limits=[{"NAME": "ph", "USERS": "phys",
                                        "SLOTS": 1}])
    assert _started(cfg, {"user_group": "chem"}) == ([1, 2, 3], None)
    assert _started(cfg, {"user_group": "phys"})[0] == [1]


def test_with_y_the_limits_of_groups_holding_the_g_group_hold_too():
    groups = {"chem": ["alice"], "phys": ["alice"], "sci": ["chem"]}
    users = {"sci": {"MAX_JOBS": 1}, "phys": {"MAX_JOBS": 1}}
    cfg = _site("Y", users=users, groups=groups)
    assert _started(cfg, {"user_group": "chem"}) == ([1], R_GROUP)
    assert _started(cfg, {"user_group": "phys"}) == ([1], R_GROUP)
    users = {"chem": {"MAX_JOBS": 1}}
    cfg = _site("Y", users=users, groups=groups)
    # A subgroup's limit is not the -G group's.
    assert _started(cfg, {"user_group": "sci"}) == ([1, 2, 3], None)


def test_with_y_a_per_user_group_limit_is_the_groups():
    cfg = _site("Y", users={"phys@": {"MAX_JOBS": 1}})
    assert _started(cfg, {"user_group": "chem"}) == ([1, 2, 3], None)
    assert _started(cfg, {"user_group": "phys"})[0] == [1]


def test_running_jobs_count_only_against_the_limits_that_hold_them():
    cfg = _site("Y")
    lim = Limits(limitconf.limits(cfg))
    chem = limitconf.limit_groups(cfg, {"user_group": "chem"})
    lim.charge("alice", "normal", "default", {"a": 1}, ug=chem)
    phys = limitconf.limit_groups(cfg, {"user_group": "phys"})
    # phys (MAX_JOBS 1) is not used by the chem job.
    assert lim.job_room("alice", "normal", "default", 1, ug=phys) == (1, None)
    assert lim.job_room("alice", "normal", "default", 1, ug=chem) == (1, None)
    # Without the key the chem job fills phys.
    plain = Limits(limitconf.limits(_site(None)))
    plain.charge("alice", "normal", "default", {"a": 1})
    assert plain.job_room("alice", "normal", "default", 1)[1] == R_GROUP


def test_a_bad_value_is_refused_with_file_and_line(tmp_path):
    from xce.config.load import ConfigError
    from tests.lib.builders import site, site_yaml
    text = site_yaml("c", {"h1": {"MXJ": 1}},
                     params={"ENFORCE_ONE_UG_LIMITS": "maybe"})
    with pytest.raises(ConfigError) as e:
        site(tmp_path, text)
    line = next(i for i, x in enumerate(text.splitlines(), 1)
                if "ENFORCE_ONE_UG_LIMITS" in x)
    assert f"xce.yaml:{line}: ENFORCE_ONE_UG_LIMITS: 'maybe' is not " \
        in str(e.value), str(e.value)


def test_migration_carries_the_key(tmp_path):
    from xce.config.load import load
    from tests.lib.builders import migrated_site
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nENFORCE_ONE_UG_LIMITS = Y\n"
                      "End Parameters\n"})
    assert result.tree["parameters"]["ENFORCE_ONE_UG_LIMITS"] == "Y"
    assert load(tmp_path / "etc").param_flag("ENFORCE_ONE_UG_LIMITS")


def test_bparams_a_shows_the_key_with_lsfs_default():
    from xce.client.cluster import params
    shown = params.all_text(params.effective({}, []), {}).splitlines()
    assert "    ENFORCE_ONE_UG_LIMITS = N" in shown
    set_ = params.all_text(params.effective(
        {"ENFORCE_ONE_UG_LIMITS": "Y"}, []), {}).splitlines()
    assert "    ENFORCE_ONE_UG_LIMITS = Y" in set_


def test_with_y_jl_p_rows_of_left_out_groups_do_not_apply():
    cfg = _site("Y", users={"chem": {"JL/P": 2}, "phys@": {"JL/P": 1}})
    chem = limitconf.limit_groups(cfg, {"user_group": "chem"})
    phys = limitconf.limit_groups(cfg, {"user_group": "phys"})
    members = frozenset(["alice", "bob"])
    assert limitconf.jl_p(cfg, "alice", chem) == ((2.0, members),)
    assert limitconf.jl_p(cfg, "alice", phys) == ((1.0, None),)
    assert limitconf.jl_p(cfg, "alice") == ((2.0, members), (1.0, None))
