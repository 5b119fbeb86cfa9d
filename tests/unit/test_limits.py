"""Allocation limits (lsb.resources Limit, lsb.users MAX_JOBS), queue
PJOB_LIMIT and queue fairshare in the pure scheduler, and their building
from xce.yaml."""

import random
from pathlib import Path

import pytest

from xce.config.load import ConfigError
from xce.config.model import Config
from xce.controller import limitconf
from xce.model import fairshare
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.limits import Consumer, Limit, Limits

from tests.lib.builders import host, one_pass, pending, site
from tests.lib.fake_controller import FakeController


def _hosts(*specs):
    """("a", slots[, ncpus]) -> HostView list, 1000 MB of memory each."""
    return [host(name, slots, ncpus=ncpus[0] if ncpus else slots,
                 maxmem=1000, mem=1000)
            for name, slots, *ncpus in specs]


def _users(*names, per=False, excluded=()):
    members = None if names == ("all",) else frozenset(names)
    return Consumer(members, frozenset(excluded), per)


def _run(limits, jobs, hosts=None, queues=None):
    lim = Limits(limits)
    return schedule(queues or [QueueView("normal", 30), QueueView("q2", 20)],
                    hosts or _hosts(("a", 8)), jobs, None, lim)


def _started(out):
    return sorted(key[0] for key, _ in out.dispatch)


def _text(out, n):
    return out.reasons[(n, 0)][0][0]


# ------------------------------------------------------------- job-wide limits
def test_users_limit_sums_its_users_per_user_counts_each():
    summed = Limit(slots=2, users=_users("u", "v"))
    jobs = [pending(1, user="u"), pending(2, user="v"), pending(3, user="u")]
    out = _run([summed], jobs)
    assert _started(out) == [1, 2]
    assert _text(out, 3) == ("Resource (slot) limit defined on user or "
                             "user group has been reached")
    each = Limit(slots=2, users=_users("u", "v", per=True))
    assert _started(_run([each], jobs)) == [1, 2, 3]


def test_all_with_an_exclusion():
    lim = Limit(slots=1, users=_users("all", per=True, excluded=("boss",)))
    jobs = [pending(1, user="u"), pending(2, user="u"),
            pending(3, user="boss"), pending(4, user="boss")]
    assert _started(_run([lim], jobs)) == [1, 3, 4]


@pytest.mark.parametrize("kind, text", [
    ("queues", "Resource (slot) limit defined on queue has been reached"),
    ("projects", "Resource (slot) limit defined on project has been "
                 "reached"),
    (None, "Resource (slot) limit defined cluster-wide has been reached"),
])
def test_reason_names_the_consumer_kind(kind, text):
    lim = Limit(slots=1)
    if kind == "queues":
        lim.queues = Consumer(frozenset(["normal"]))
    elif kind == "projects":
        lim.projects = Consumer(frozenset(["p1"]))
    out = _run([lim], [pending(1, project="p1"), pending(2, project="p1")])
    assert _started(out) == [1]
    assert _text(out, 2) == text


def test_per_queue_and_per_project_count_each_separately():
    lim = Limit(slots=1, queues=Consumer(None, per=True))
    jobs = [pending(1), pending(2), pending(3, queue="q2")]
    assert _started(_run([lim], jobs)) == [1, 3]
    lim = Limit(slots=1, projects=Consumer(None, per=True))
    jobs = [pending(1, project="x"), pending(2, project="y"),
            pending(3, project="x")]
    assert _started(_run([lim], jobs)) == [1, 2]


def test_jobs_limit_counts_jobs_not_slots():
    lim = Limit(jobs=2)
    out = _run([lim], [pending(1, lo=4), pending(2, lo=2), pending(3)])
    assert _started(out) == [1, 2]
    assert _text(out, 3) == "JOBS limit defined cluster-wide has been reached"


def test_mem_limit_counts_rusage_mem():
    lim = Limit(mem=500, users=_users("u"))
    jobs = [pending(1, rr="rusage[mem=300]"), pending(2, rr="rusage[mem=300]"),
            pending(3)]
    out = _run([lim], jobs)
    assert _started(out) == [1, 3]
    assert _text(out, 2) == ("Resource (mem) limit defined on user or user "
                             "group has been reached")


def test_zero_forbids_and_other_consumers_are_free():
    lim = Limit(slots=0, users=_users("guest"))
    out = _run([lim], [pending(1, user="guest"), pending(2, user="u")])
    assert _started(out) == [2]


def test_n_max_is_cut_to_what_the_limit_leaves():
    lim = Limit(slots=3)
    job = pending(1, hi=8)
    out = _run([lim], [job])
    assert out.dispatch == [((1, 0), ["a"] * 3)]


def test_running_jobs_charged_by_the_caller_count():
    lim = Limits([Limit(slots=2, users=_users("u"))])
    lim.charge("u", "normal", "default", {"a": 2})
    out = one_pass(_hosts(("a", 8)), [pending(1)], limits=lim)
    assert out.dispatch == []
    assert lim.used[(0, "*", "*", "*", "*", "*")] == [2, 1, 0.0, 0.0, 0.0, {}]


def test_apps_limit_counts_the_jobs_of_its_profiles_only():
    # APPS sums its profiles, PER_APP counts each; a job without a profile
    # (or of another one) is no consumer of either.
    summed = Limit(jobs=1, apps=Consumer(frozenset(["fluent", "ansys"])))
    jobs = [pending(1, app="fluent"), pending(2, app="ansys"),
            pending(3), pending(4, app="other")]
    out = _run([summed], jobs)
    assert _started(out) == [1, 3, 4]
    assert _text(out, 2) == ("JOBS limit defined for the application "
                             "profile has been reached")
    each = Limit(slots=1, apps=Consumer(frozenset(["fluent", "ansys"]),
                                        per=True))
    out = _run([each], jobs + [pending(5, app="fluent")])
    assert _started(out) == [1, 2, 3, 4]
    assert _text(out, 5) == ("Resource (slot) limit defined on application "
                             "profile has been reached")


def test_running_jobs_of_a_profile_count_against_per_app():
    lim = Limits([Limit(slots=2, apps=Consumer(None, per=True))])
    lim.charge("u", "normal", "default", {"a": 2}, app="fluent")
    out = one_pass(_hosts(("a", 8)), [pending(1, app="fluent"),
                                      pending(2, app="ansys")], limits=lim)
    assert _started(out) == [2]
    assert lim.used[(0, "*", "*", "*", "*", "fluent")] == [2, 1, 0.0, 0.0,
                                                           0.0, {}]


def test_swp_and_tmp_limits_count_rusage_swp_and_tmp():
    # Like MEM against rusage[mem]: SWP against rusage[swp], TMP (per
    # host here) against rusage[tmp]; a job reserving neither is not held.
    hosts = [host(n, 4, maxswp=1000, swp=1000, maxtmp=1000, tmp=1000)
             for n in ("a", "b")]
    swp = Limit(swp=100, users=_users("u"))
    jobs = [pending(1, rr="rusage[swp=60]"), pending(2, rr="rusage[swp=60]"),
            pending(3, rr="rusage[swp=40]"), pending(4)]
    out = _run([swp], jobs, hosts=hosts)
    assert _started(out) == [1, 3, 4]
    assert _text(out, 2) == ("Resource (swp) limit defined on user or user "
                             "group has been reached")
    tmp = Limit(tmp=50, hosts=Consumer(None, per=True))
    jobs = [pending(i, rr="rusage[tmp=30]") for i in (1, 2, 3)]
    out = _run([tmp], jobs, hosts=hosts)
    assert sorted(h for _, hs in out.dispatch for h in hs) == ["a", "b"]
    assert _text(out, 3).startswith("Resource (tmp) limit defined on host")


def test_resource_limit_counts_rusage_of_a_site_resource():
    # RESOURCE = [lic, 1] for user u: a second job reserving a licence
    # pends with the resource's own reason, another user's job and a job
    # reserving none start.
    lim = Limit(resources={"lic": 1}, users=_users("u"))
    jobs = [pending(1, rr="rusage[lic=1]"), pending(2, rr="rusage[lic=1]"),
            pending(3, rr="rusage[lic=1]", user="v"), pending(4)]
    out = _run([lim], jobs, hosts=[host("a", 4, lic=4)])
    assert _started(out) == [1, 3, 4]
    assert _text(out, 2) == ("Resource (lic) limit defined on user or user "
                             "group has been reached")
    # The count is the cap: two licences under [lic, 2] in one pass.
    lim = Limit(resources={"lic": 2})
    jobs = [pending(n, rr="rusage[lic=1]") for n in (1, 2, 3)]
    out = _run([lim], jobs, hosts=[host("a", 4, lic=4)])
    assert _started(out) == [1, 2]
    assert _text(out, 3).startswith("Resource (lic) limit defined "
                                    "cluster-wide")


def test_a_shared_resource_is_charged_once_per_job():
    from xce.scheduler import rusage_held
    need = rusage_held.need({"lic": 1, "scratch": 2})
    lim = Limits([Limit(resources={"lic": 1, "scratch": 4},
                        shared=frozenset({"lic"}))])
    lim.charge("u", "normal", "default", {"a": 1, "b": 1},
               {"a": need, "b": need})
    # lic once (a ResourceMap counter), scratch on each host.
    assert lim.used[(0, "*", "*", "*", "*", "*")][5] == {"lic": 1,
                                                         "scratch": 4}
    # Per task, a shared licence is held once per slot: three here.
    per_task = Limits(lim.limits)
    per_task.charge("u", "normal", "default", {"a": 2, "b": 1},
                    {"a": rusage_held.times(need, 2), "b": need},
                    per_task=True)
    assert per_task.used[(0, "*", "*", "*", "*", "*")][5]["lic"] == 3
    copy = lim.copy()
    copy.charge("u", "normal", "default", {"a": 1}, {"a": need})
    assert lim.used[(0, "*", "*", "*", "*", "*")][5]["lic"] == 1
    assert copy.job_room("u", "normal", "default", 1, need)[1] == \
        "Resource (lic) limit defined cluster-wide has been reached"


def test_slots_per_processor_caps_each_host_by_its_cpus():
    # PER_HOST with SLOTS_PER_PROCESSOR = 0.5: 2 slots on the 4-CPU host,
    # 1 on the 1-CPU host (rounded up), whatever their slot counts.
    lim = Limit(slots_per_cpu=0.5, hosts=Consumer(None, per=True))
    out = _run([lim], [pending(i) for i in range(1, 6)],
               hosts=_hosts(("a", 8, 4), ("b", 8, 1)))
    placed = sorted(h for _, hs in out.dispatch for h in hs)
    assert placed == ["a", "a", "b"]
    assert _text(out, 5).startswith("Resource (slot) limit defined on host")


def test_per_task_swp_of_running_jobs_is_charged_per_slot():
    from xce.scheduler import rusage_held
    lim = Limits([Limit(swp=100)])
    need = rusage_held.need({"swp": 30})
    lim.charge("u", "normal", "default", {"a": 3},
               {"a": rusage_held.times(need, 3)})
    assert lim.used[(0, "*", "*", "*", "*", "*")] == [3, 1, 0.0, 90.0, 0.0, {}]
    assert lim.job_room("u", "normal", "default", 1, need)[1] == \
        "Resource (swp) limit defined cluster-wide has been reached"


# ------------------------------------------------------------ per-host limits
def test_per_host_limit_is_a_host_reason():
    lim = Limit(slots=1, hosts=Consumer(None, per=True))
    out = _run([lim], [pending(i) for i in (1, 2, 3)],
               hosts=_hosts(("a", 4), ("b", 4)))
    assert _started(out) == [1, 2]
    assert out.reasons[(3, 0)] == [[
        "Resource (slot) limit defined on host and/or host group has been "
        "reached", ["a", "b"]]]


def test_hosts_limit_only_on_its_hosts():
    lim = Limit(slots=1, hosts=Consumer(frozenset(["a"])))
    out = _run([lim], [pending(i) for i in (1, 2, 3)],
               hosts=_hosts(("a", 4), ("b", 1)))
    assert _started(out) == [1, 2]
    assert sorted(h for _, hs in out.dispatch for h in hs) == ["a", "b"]


def test_per_host_jobs_limit():
    lim = Limit(jobs=1, hosts=Consumer(None, per=True))
    out = _run([lim], [pending(1, lo=2), pending(2)], hosts=_hosts(("a", 4)))
    assert _started(out) == [1]
    assert out.reasons[(2, 0)][0][0] == ("JOBS limit defined on host or "
                                         "host group has been reached")


# ---------------------------------------------------------------- PJOB_LIMIT
def test_pjob_limit_rounds_up_per_cpu():
    q = QueueView("normal", 30, pjob_limit=1.5)
    out = schedule([q], _hosts(("a", 8, 1)), [pending(i) for i in (1, 2, 3)])
    assert _started(out) == [1, 2]          # ceil(1.5 x 1 CPU) = 2
    assert out.reasons[(3, 0)] == [["Queue's per-CPU job slot limit "
                                    "reached", ["a"]]]


# ------------------------------------------------------ lsb.users JL/P
def test_jl_p_caps_a_users_slots_per_cpu_of_each_host():
    # JL/P 0.5 on hosts of 4 CPUs: 2 slots of the user on each.
    jlp = ((0.5, None),)
    jobs = [pending(i, jl_p=jlp) for i in (1, 2, 3, 4, 5)] + \
        [pending(6, user="v")]
    out = schedule([QueueView("normal", 30)], _hosts(("a", 8, 4),
                                                     ("b", 8, 4)), jobs)
    assert _started(out) == [1, 2, 3, 4, 6]
    assert out.reasons[(5, 0)] == [["User's per-CPU job slot limit "
                                    "reached", ["a", "b"]]]


def test_jl_p_of_a_group_counts_all_its_members():
    group = ((1, frozenset(["u", "v"])),)
    hosts = _hosts(("a", 8, 2))
    hosts[0].used, hosts[0].user_used = 1, {"v": 1}
    jobs = [pending(1, jl_p=group), pending(2, user="v", jl_p=group),
            pending(3, user="w")]
    out = schedule([QueueView("normal", 30)], hosts, jobs)
    assert _started(out) == [1, 3]
    assert out.reasons[(2, 0)] == [["User group's per-CPU job slot limit "
                                    "reached", ["a"]]]


def test_yaml_jl_p_rows_of_users_groups_and_default():
    cfg = _cfg({"users": {"alice": {"JL/P": 2}, "chem@": {"JL/P": 1},
                          "phys": {"JL/P": "0.5"}, "default": {"JL/P": 3},
                          "bob": {"MAX_JOBS": 1}}},
               groups={"chem": ["alice", "carol"], "phys": ["carol"]})
    assert limitconf.jl_p(cfg, "alice") == ((2.0, None), (1.0, None))
    # carol is named by chem@, so default is not hers (lsb.users(5)).
    assert limitconf.jl_p(cfg, "carol") == (
        (1.0, None), (0.5, frozenset(["carol"])))
    assert limitconf.jl_p(cfg, "zed") == ((3.0, None),)
    assert limitconf.jl_p(cfg, "bob") is None   # own row, no JL/P


# ------------------------------------------------------ building from YAML
def _cfg(raw, groups=None):
    cfg = Config(path=Path("xce.yaml"), raw=raw,
                 params={"LSF_UNIT_FOR_LIMITS": "MB"})
    cfg.user_groups = groups or {}
    cfg.hosts = {"h1": None, "h2": None, "h3": None}
    cfg.host_groups = {"hg": ["h1", "h2"]}
    return cfg


def test_yaml_limit_sections_and_max_jobs():
    cfg = _cfg({"limits": [
        {"NAME": "l1", "PER_USER": "chem ~carol", "QUEUES": "normal",
         "SLOTS": 4, "MEM": "2G"},
        {"NAME": "l2", "PER_HOST": "hg", "JOBS": "-", "SLOTS": 2},
        {"NAME": "apps", "PER_APP": "fluent ansys", "SLOTS": 1},
        {"NAME": "lic", "LIC_PROJECTS": "p1", "SLOTS": 1}],
        "users": {"alice": {"MAX_JOBS": 3}, "chem": {"MAX_JOBS": 5},
                  "default": {"MAX_JOBS": 1}, "bob": {"MAX_JOBS": "-"}}},
        groups={"chem": ["alice", "carol"]})
    lims = {lim.name: lim for lim in limitconf.limits(cfg)}
    assert "lic" not in lims        # a LIC_PROJECTS consumer: left out
    assert lims["apps"].apps == Consumer(frozenset(["fluent", "ansys"]),
                                         per=True)
    l1 = lims["l1"]
    assert l1.users == Consumer(frozenset(["alice"]), per=True)
    assert (l1.slots, l1.mem, l1.jobs) == (4, 2048, None)
    assert lims["l2"].hosts == Consumer(frozenset(["h1", "h2"]), per=True)
    assert lims["MAX_JOBS alice"].users == Consumer(frozenset(["alice"]))
    assert lims["MAX_JOBS chem"].slot_reason == \
        "One of the user's groups has reached its job slot limit"
    default = lims["MAX_JOBS default"].users
    assert default.matches("zed") and not default.matches("alice")
    assert "MAX_JOBS bob" not in lims


def test_default_row_leaves_out_members_of_a_group_at_row():
    """lsb.users(5): default is each user's that no row names; a group@
    row names each member, so its own MAX_JOBS, JL/P and MAX_PEND_JOBS
    are theirs even above default's."""
    cfg = _cfg({"users": {"default": {"MAX_JOBS": 1, "JL/P": 1},
                          "chem@": {"MAX_JOBS": 4, "JL/P": 2}}},
               groups={"chem": ["alice", "carol"]})
    lims = {lim.name: lim for lim in limitconf.limits(cfg)}
    default = lims["MAX_JOBS default"].users
    assert default.matches("zed") and not default.matches("carol")
    assert lims["MAX_JOBS chem@"].users.matches("carol")
    assert limitconf.jl_p(cfg, "carol") == ((2.0, None),)
    assert limitconf.jl_p(cfg, "zed") == ((1.0, None),)


def _default_rows(ignore):
    raw = {"users": {"default": {"MAX_JOBS": 2, "JL/P": 1,
                                 "MAX_PEND_JOBS": 3},
                     "phys": {"MAX_JOBS": 8}}}
    cfg = _cfg(raw, groups={"chem": ["alice", "carol"], "phys": ["bob"]})
    if ignore is not None:
        cfg.params["DEFAULT_LIMIT_IGNORE_USER_GROUP"] = ignore
    return cfg


@pytest.mark.parametrize("ignore", [None, "Y", True])
def test_default_row_limits_users_only_with_ignore_user_group(ignore):
    """Y (and xce's default): a group without a row is not limited."""
    cfg = _default_rows(ignore)
    lims = {lim.name: lim for lim in limitconf.limits(cfg)}
    assert set(lims) == {"MAX_JOBS default", "MAX_JOBS phys"}
    assert limitconf.jl_p(cfg, "alice") == ((1.0, None),)


@pytest.mark.parametrize("ignore", ["N", "no", False])
def test_default_row_also_limits_each_group_without_a_row_when_n(ignore):
    """N: the default row's MAX_JOBS and JL/P limit each user group that
    has no row of its own as a whole (its members' slots together); a
    group with its own row keeps it."""
    cfg = _default_rows(ignore)
    lims = {lim.name: lim for lim in limitconf.limits(cfg)}
    assert set(lims) == {"MAX_JOBS default", "MAX_JOBS phys",
                         "MAX_JOBS chem"}
    chem = lims["MAX_JOBS chem"]
    assert (chem.slots, chem.users) == (
        2, Consumer(frozenset(["alice", "carol"])))
    assert chem.slot_reason == \
        "One of the user's groups has reached its job slot limit"
    assert lims["MAX_JOBS phys"].slots == 8
    assert limitconf.jl_p(cfg, "alice") == (
        (1.0, None), (1.0, frozenset(["alice", "carol"])))


def test_default_row_on_a_group_pends_its_members_jobs_together():
    """Scheduled: with N, chem (alice, carol) takes 2 slots in all."""
    jobs = [pending(1, user="alice"), pending(2, user="carol"),
            pending(3, user="carol"), pending(4, user="zed")]
    out = _run(limitconf.limits(_default_rows("N")), jobs)
    assert _started(out) == [1, 2, 4]
    assert _text(out, 3) == \
        "One of the user's groups has reached its job slot limit"
    out = _run(limitconf.limits(_default_rows("Y")), jobs)
    assert _started(out) == [1, 2, 3, 4]


def test_default_row_pending_threshold_counts_a_group_when_n():
    """MAX_PEND_JOBS of the default row: with N, chem's members' pending
    jobs together; LSF's message names the group."""
    from xce.controller import pendlimit
    jobs = [{"stat": "PEND", "user": "alice"},
            {"stat": "PEND", "user": "carol"},
            {"stat": "PEND", "user": "carol"}]
    spec = {"nslots": [1]}
    assert pendlimit.refusal(_default_rows("Y"), jobs, "alice", spec) is None
    assert "Group <chem>" in pendlimit.refusal(
        _default_rows("N"), jobs, "alice", spec)


def test_bad_limits_users_and_fairshare_are_config_errors(tmp_path):
    with pytest.raises(ConfigError) as caught:
        site(tmp_path,
             "queues:\n  normal:\n    FAIRSHARE: USER_SHARES[[a]]\n"
             "users:\n  alice:\n    MAX_JOBS: lots\n"
             "limits:\n  - NAME: bad\n    SLOTS: many\n    SLOTZ: 1\n"
             "    MEM: 12XB\n")
    text = "\n".join(caught.value.errors)
    assert "xce.yaml:3: FAIRSHARE: USER_SHARES[[a]]: each entry" in text
    assert "xce.yaml:6: MAX_JOBS: 'lots' is not a whole number" in text
    assert "xce.yaml:9: SLOTS: 'many' is not a whole number" in text
    assert "xce.yaml:10: SLOTZ: unknown limit key (did you mean SLOTS?)" \
        in text
    assert "xce.yaml:11: MEM: 12XB: bad MEM value" in text


@pytest.mark.parametrize("value, problem", [
    ("'[nolic, 1]'", "RESOURCE: nolic: no such numeric resource in "
     "resources"),
    ("'[os, 1]'", "RESOURCE: os: no such numeric resource"),
    ("'[lic, -1]'", "RESOURCE: [lic, -1]: the count must be a number of 0 "
     "or more"),
    ("'[lic, many]'", "RESOURCE: [lic, many]: the count must be"),
    ("'[lic 1]'", "RESOURCE: [lic 1]: expected [name, count] ..."),
])
def test_a_bad_resource_limit_is_a_config_error(tmp_path, value, problem):
    with pytest.raises(ConfigError) as caught:
        site(tmp_path,
             "resources:\n  lic: {TYPE: Numeric, LOCATION: '(2@[all])'}\n"
             "  os: {TYPE: String}\n"
             f"limits:\n  - NAME: bad\n    RESOURCE: {value}\n")
    assert f"xce.yaml:6: {problem}" in "\n".join(caught.value.errors)


@pytest.mark.parametrize("value, pairs", [
    ("[lic, 1]", {"lic": 1}), (["lic", 2], {"lic": 2}),
    ("[lic, 1] [tok,3]", {"lic": 1, "tok": 3}),
    ([["lic", 1], ["tok", 0.5]], {"lic": 1, "tok": 0.5}), ("-", {})])
def test_resource_pairs_read_lsf_and_yaml_forms(value, pairs):
    from xce.config.limitcheck import resource_pairs
    assert resource_pairs(value) == pairs


# ------------------------------------------------------------------ fairshare
def test_parse_user_shares():
    assert fairshare.parse("USER_SHARES[[alice, 2] [grp, 1] [default,1]]") \
        == [("alice", 2.0), ("grp", 1.0), ("default", 1.0)]
    for bad in ("USER_SHARES[]", "SHARES[[a, 1]]", "USER_SHARES[[a]]"):
        with pytest.raises(fairshare.FairshareError):
            fairshare.parse(bad)


def test_priority_follows_lsf_formula():
    p = fairshare.Policy([("u", 10)])
    # 10 / (1h cpu x 0.7 + 2h run x 0.7 + (1 + 3 slots) x 3)
    got = p.priority(10, 3, fairshare.Usage(2.0, 5.0, 1.0))
    assert got == pytest.approx(10 / (0.7 + 1.4 + 12))
    hist = fairshare.Policy([("u", 10)], factors=fairshare.Factors(
        hist_run_time=True))
    assert hist.priority(10, 3, fairshare.Usage(2.0, 5.0, 1.0)) == \
        pytest.approx(10 / (0.7 + 7 * 0.7 + 12))
    assert fairshare.decay(5 * 3600, 5) == pytest.approx(0.1)


def test_accounts_user_group_default():
    p = fairshare.Policy([("alice", 5), ("chem", 2), ("phys@", 3),
                          ("default", 1)],
                         {"chem": ["bob", "carol"], "phys": ["dan"]})
    assert p.account("alice") == ("alice", 5)
    assert p.account("carol") == ("chem", 2)
    assert p.account("dan") == ("dan", 3)
    assert p.account("zed") == ("zed", 1)
    assert fairshare.Policy([("a", 1)]).account("b") == ("b", 0.0)


def _fair_queue(pairs, usage=None, running=None, groups=None):
    return QueueView("fair", 30, fairshare=fairshare.Policy(pairs, groups),
                     fair_usage=usage or {}, user_used=running or {},
                     used=sum((running or {}).values()))


def test_fairshare_alternates_equal_users():
    q = _fair_queue([("default", 1)])
    jobs = [pending(i, user="a", queue="fair") for i in (1, 2, 3)] + \
        [pending(i, user="b", queue="fair") for i in (4, 5, 6)]
    out = schedule([q], _hosts(("h", 4)), jobs)
    assert _started(out) == [1, 2, 4, 5]


def test_fairshare_favours_shares_and_less_use():
    jobs = [pending(i, user="a", queue="fair") for i in (1, 2, 3)] + \
        [pending(i, user="b", queue="fair") for i in (4, 5, 6)]
    q = _fair_queue([("a", 3), ("b", 1)])
    assert _started(schedule([q], _hosts(("h", 4)), jobs)) == [1, 2, 3, 4]
    q = _fair_queue([("default", 1)], running={"a": 2})
    assert _started(schedule([q], _hosts(("h", 2)), jobs)) == [4, 5]
    q = _fair_queue([("default", 1)],
                    usage={"b": fairshare.Usage(10.0, 0.0, 0.0)})
    assert _started(schedule([q], _hosts(("h", 1)), jobs)) == [1]


def test_fairshare_group_members_share_one_account_fcfs():
    q = _fair_queue([("chem", 1), ("default", 1)],
                    groups={"chem": ["a", "c"]})
    jobs = [pending(n, user=user, queue="fair")
            for n, user in ((1, "a"), (2, "c"), (3, "b"), (4, "b"))]
    # chem (a, c) and b alternate; within chem, FCFS.
    out = schedule([q], _hosts(("h", 2)), jobs)
    assert _started(out) == [1, 3]


# --------------------------------------------------------------- determinism
def test_same_snapshot_same_answer_with_limits_and_fairshare():
    rng = random.Random(7)
    lims = [Limit(slots=3, users=_users("all", per=True)),
            Limit(jobs=2, hosts=Consumer(None, per=True)),
            Limit(slots=5, queues=Consumer(frozenset(["fair"])))]
    hosts = _hosts(*[(f"h{i}", 4) for i in range(6)])
    jobs = [pending(i, user=rng.choice("abcd"),
                    queue=rng.choice(["normal", "fair"]),
                    lo=rng.choice([1, 1, 2])) for i in range(1, 60)]
    queues = [QueueView("normal", 30), _fair_queue([("default", 1)])]
    first = schedule(queues, hosts, jobs, None, Limits(lims))
    again = schedule(queues, hosts, list(reversed(jobs)), None, Limits(lims))
    assert first.dispatch == again.dispatch
    assert first.reasons == again.reasons


def test_controller_charges_running_and_decayed_finished_hours():
    from xce.controller import dispatch

    ctl = FakeController(now=10 * 3600.0)
    qv = QueueView("fair", 30, fairshare=fairshare.Policy([("default", 1)]),
                   fair_slots={})
    running = {"stat": "RUN", "start_time": 9 * 3600.0, "end_time": None,
               "nslots": 2, "user": "u", "cpu_time": 1800, "spec": {}}
    done = {"stat": "DONE", "start_time": 0.0, "end_time": 5 * 3600.0,
            "nslots": 1, "user": "u", "cpu_time": 3600, "spec": {}}
    grouped = dict(running, spec={"user_group": "g"})
    for job in (running, done, grouped):
        dispatch._fair_use(ctl, job, qv)
    use = qv.fair_usage[("u", None)]
    assert use.run_hours == pytest.approx(2.0)      # 1 hour x 2 slots
    # Finished 5 hours ago with HIST_HOURS 5: a tenth of its 5 hours.
    assert use.hist_hours == pytest.approx(0.5)
    assert use.cpu_hours == pytest.approx(0.5 + 0.1)
    # Slots held by running jobs only; a bsub -G job's to its group's.
    assert qv.fair_slots == {("u", None): 2, ("u", "g"): 2}
    assert qv.fair_usage[("u", "g")].run_hours == pytest.approx(2.0)


# ------------------------------------- DEFAULT_LIMIT_IGNORE_USER_GROUP migrated
_USERS = ("Begin UserGroup\nGROUP_NAME GROUP_MEMBER\nchem (alice carol)\n"
          "End UserGroup\nBegin User\nUSER_NAME MAX_JOBS\ndefault 2\n"
          "End User\n")


def test_migration_writes_the_lsf_default_n_when_lsb_params_is_silent(
        tmp_path):
    """LSF's default (N) differs from xce's (Y): written out and reported,
    so the migrated site limits chem as a whole as it did."""
    from xce.config.lsf import report
    from xce.config.load import load
    from tests.lib.builders import migrated_site
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nMBD_SLEEP_TIME = 10\n"
                      "End Parameters\n", "lsb.users": _USERS})
    assert result.tree["parameters"][
        "DEFAULT_LIMIT_IGNORE_USER_GROUP"] == "N"
    assert "(xce default)" in next(
        line for line in report.render(result).splitlines()
        if "DEFAULT_LIMIT_IGNORE_USER_GROUP = N: LSF's default" in line)
    cfg = load(tmp_path / "etc")
    assert "MAX_JOBS chem" in {lim.name for lim in limitconf.limits(cfg)}


@pytest.mark.parametrize("value, groups", [("Y", False), ("n", True)])
def test_migration_keeps_the_sites_own_value(tmp_path, value, groups):
    from xce.config.load import load
    from tests.lib.builders import migrated_site
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nDEFAULT_LIMIT_IGNORE_USER_GROUP = "
                      f"{value}\nEnd Parameters\n", "lsb.users": _USERS})
    assert result.tree["parameters"][
        "DEFAULT_LIMIT_IGNORE_USER_GROUP"] == value
    cfg = load(tmp_path / "etc")
    names = {lim.name for lim in limitconf.limits(cfg)}
    assert ("MAX_JOBS chem" in names) is groups
