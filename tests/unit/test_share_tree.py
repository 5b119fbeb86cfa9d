"""Hierarchical fairshare: the share tree of a queue (lsb.users USER_SHARES
under the queue's FAIRSHARE), its configuration checks and its
migration."""

import pytest

from xce.model import fairshare

# Two groups under the queue: eng (3 shares) divides its shares between
# ann (2) and bob (1); ops (1 share) has no shares of its own, so carl and
# dora go FCFS; `default` gives everyone else an account of 1 share.
GROUPS = {"eng": ["ann", "bob"], "ops": ["carl", "dora"]}
SHARES = {"eng": [("ann", 2.0), ("bob", 1.0)]}
TOP = [("eng", 3.0), ("ops", 1.0), ("default", 1.0)]


def _policy(top=TOP, groups=GROUPS, shares=SHARES, members=None):
    return fairshare.Policy(top, groups, group_shares=shares,
                            members=members or groups)


@pytest.mark.parametrize("user, path", [
    ("ann", (("eng", 3.0), ("ann", 2.0))),
    ("bob", (("eng", 3.0), ("bob", 1.0))),
    ("carl", (("ops", 1.0),)),
    ("zed", (("zed", 1.0),)),
])
def test_each_user_falls_in_one_path_of_the_tree(user, path):
    assert _policy().path(user) == path


@pytest.mark.parametrize("top, shares, user, path", [
    # group@ gives each member its own account, no hierarchy below.
    ([("eng@", 2.0)], SHARES, "bob", (("bob", 2.0),)),
    # `others`: the users named nowhere share one account.
    ([("eng", 1.0), ("others", 4.0)], SHARES, "zed", (("others", 4.0),)),
    # a member the group's shares leave out, with no default: no shares.
    ([("eng", 1.0)], {"eng": [("ann", 1.0)]}, "bob",
     (("eng", 1.0), ("bob", 0.0))),
    # default inside the group covers members not named, each on its own.
    ([("eng", 1.0)], {"eng": [("ann", 5.0), ("default", 2.0)]}, "bob",
     (("eng", 1.0), ("bob", 2.0))),
    # a user in no account at all: its own, with no shares.
    ([("eng", 1.0)], SHARES, "zed", (("zed", 0.0),)),
])
def test_share_forms(top, shares, user, path):
    assert _policy(top, shares=shares).path(user) == path


def test_default_in_a_group_gives_unnamed_subgroups_their_own_level():
    groups = {"top": ["phys", "chem", "eve"], "phys": ["ann", "bob"],
              "chem": ["carl"]}
    members = {"top": ["phys", "chem", "eve"], "phys": ["ann", "bob"],
               "chem": ["carl"]}
    shares = {"top": [("eve", 1.0), ("default", 10.0)],
              "phys": [("ann", 3.0), ("bob", 1.0)]}
    groups["top"] = ["ann", "bob", "carl", "eve"]
    p = fairshare.Policy([("top", 1.0)], groups, group_shares=shares,
                         members=members)
    assert p.path("bob") == (("top", 1.0), ("phys", 10.0), ("bob", 1.0))
    assert p.path("carl") == (("top", 1.0), ("chem", 10.0))
    assert p.path("eve") == (("top", 1.0), ("eve", 1.0))
    assert [path for path, _ in p.levels()] == [(), ("top",),
                                                ("top", "phys")]


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize("text, pairs", [
    ("([ann, 2] [bob,1])", [("ann", 2.0), ("bob", 1.0)]),
    ("[ann, 2] [default, 1]", [("ann", 2.0), ("default", 1.0)]),
    ("()", []),
    ("", []),
])
def test_group_shares_parse(text, pairs):
    assert fairshare.parse_group(text) == pairs


@pytest.mark.parametrize("text", ["([ann, 0])", "([ann, -1])", "([ann, x])",
                                  "([ann, 1.5])", "([ann])", "(ann 1)"])
def test_bad_group_shares_refused(text):
    with pytest.raises(fairshare.FairshareError):
        fairshare.parse_group(text)


def test_unknown_member_and_cycle_found():
    members = {"a": ["b", "u1"], "b": ["a", "u2"]}
    problems = fairshare.group_problems(
        {"a": [("b", 1.0), ("nobody", 1.0)], "b": [("a", 1.0)]}, members)
    assert "nobody is not a member of user group a" in problems["a"]
    assert any("cycle: a -> b -> a" in p for p in problems["a"])
    assert fairshare.group_problems(
        {"a": [("u1", 1.0), ("default", 1.0), ("b@", 2.0)]}, members) == {}
    # Members xce cannot list (all, an egroup's !) take any name.
    assert fairshare.group_problems(
        {"e": [("anyone", 1.0)], "w": [("whoever", 2.0)]},
        {"e": ["!"], "w": ["all"]}) == {}


# ------------------------------------------------------------ configuration
def test_bad_group_shares_are_config_errors_with_file_and_line(tmp_path):
    from xce.config.load import ConfigError
    from tests.lib.builders import site
    with pytest.raises(ConfigError) as caught:
        site(tmp_path,
             "queues:\n  normal:\n    FAIRSHARE: USER_SHARES[[ga, 1]]\n"
             "user_groups:\n"
             "  ga:\n    members: [gb, u1]\n"
             "    USER_SHARES: ([gb, 1] [nobody, 2])\n"
             "  gb:\n    members: [u2]\n"
             "    USER_SHARES: ([u2, 0])\n")
    text = "\n".join(caught.value.errors)
    assert "xce.yaml:7: USER_SHARES: user group ga: nobody is not a " \
        "member of user group ga" in text
    assert "xce.yaml:10: USER_SHARES: user group gb: [u2, 0]: the share " \
        "count must be a whole number above 0" in text


def test_the_controller_builds_the_tree_from_user_groups(tmp_path):
    from xce.controller import limitconf
    from tests.lib.builders import site
    cfg = site(tmp_path,
               "queues:\n  normal:\n"
               "    FAIRSHARE: USER_SHARES[[ga, 3] [default, 1]]\n"
               "user_groups:\n"
               "  ga:\n    members: [gb, u1]\n"
               "    USER_SHARES: ([gb, 1] [u1, 2])\n"
               "  gb:\n    members: [u2, u3]\n")
    policy = limitconf.policy(cfg, cfg.queues["normal"])
    assert policy.path("u3") == (("ga", 3.0), ("gb", 1.0))
    assert policy.path("u1") == (("ga", 3.0), ("u1", 2.0))
    assert policy.path("u9") == (("u9", 1.0),)


# ---------------------------------------------------------------- migration
LSB_USERS = """\
Begin UserGroup
GROUP_NAME  GROUP_MEMBER        USER_SHARES
G1          (david john zebra)  ([david, 1] [john,1] [zebra, 1])
G2          (crock wlu kluk)    ([crock, 2] [wlu,1] [ghost,1])
G3          (G4 amy)            ([G4, 1] [amy, 0])
G4          (bo)                ()
End UserGroup
"""


def test_migration_carries_group_shares_enforced_and_reports_bad_ones(
        tmp_path):
    from xce.config import keys
    from xce.config.migrate import migrate
    (tmp_path / "lsb.users").write_text(LSB_USERS)
    (tmp_path / "lsb.queues").write_text(
        "Begin Queue\nQUEUE_NAME = normal\n"
        "FAIRSHARE = USER_SHARES[[G1, 2] [G2, 1] [G3, 1]]\nEnd Queue\n")
    result = migrate(str(tmp_path), check=True)
    groups = result.tree["user_groups"]
    assert groups["G1"]["USER_SHARES"] == "[david, 1] [john,1] [zebra, 1]"
    enforced = [e.label for e in result.migration.entries
                if e.status == keys.ENFORCED]
    assert "user group G1 USER_SHARES = [david, 1] [john,1] [zebra, 1]" \
        in enforced
    # An unknown member and a share of 0: a warning at the file and line,
    # and the shares are not put in force (the members go FCFS).
    warnings = [str(d) for d in result.diags.warnings]
    assert "lsb.users:4: user group G2 USER_SHARES: ghost is not a member " \
        "of user group G2" in warnings
    assert "lsb.users:5: user group G3 USER_SHARES: [amy, 0]: the share " \
        "count must be a whole number above 0" in warnings
    assert "USER_SHARES" not in groups["G2"] and \
        "USER_SHARES" not in groups["G3"]
    dropped = [(str(e.origin), e.label) for e in result.migration.entries
               if e.status == keys.NOT_CARRIED]
    assert ("lsb.users:4", "user group G2 USER_SHARES = "
            "[crock, 2] [wlu,1] [ghost,1]") in dropped
    # What was carried loads back, and the controller builds the tree.
    from xce.controller import limitconf
    from tests.lib.builders import site
    (tmp_path / "etc").mkdir()
    cfg = site(tmp_path / "etc", result.yaml_text)
    policy = limitconf.policy(cfg, cfg.queues["normal"])
    assert policy.path("john") == (("G1", 2.0), ("john", 1.0))
    assert policy.path("wlu") == (("G2", 1.0),)


# bsub -G: a user in two groups of the tree.  kim is in eng (under which
# she has 2 shares) and in ops (FCFS); eng is listed first.
TWO = {"eng": ["ann", "kim"], "ops": ["carl", "kim"]}
TWO_SHARES = {"eng": [("ann", 1.0), ("kim", 2.0)]}


@pytest.mark.parametrize("top, group, path", [
    # without -G: the first group listed with her in it.
    (TOP, None, (("eng", 3.0), ("kim", 2.0))),
    # -G picks the account through that group, at any depth.
    (TOP, "ops", (("ops", 1.0),)),
    (TOP, "eng", (("eng", 3.0), ("kim", 2.0))),
    # a group below the top: all_of (5) divides its shares to eng.
    ([("all_of", 5.0), ("ops", 1.0)], "eng",
     (("all_of", 5.0), ("eng", 2.0), ("kim", 2.0))),
    # a group not in this queue's tree: her usual account.
    ([("ops", 1.0), ("eng", 3.0)], "nosuch", (("ops", 1.0),)),
    # her own entry wins without -G, the group's account with it.
    ([("kim", 7.0), ("ops", 1.0)], None, (("kim", 7.0),)),
    ([("kim", 7.0), ("ops", 1.0)], "ops", (("ops", 1.0),)),
])
def test_bsub_G_chooses_the_account_through_its_group(top, group, path):
    # all_of's members: eng, expanded to its users.
    shares = dict(TWO_SHARES, all_of=[("eng", 2.0)])
    policy = fairshare.Policy(top, dict(TWO, all_of=["ann", "kim"]),
                              group_shares=shares,
                              members=dict(TWO, all_of=["eng"]))
    assert policy.path("kim", group) == path


def test_bsub_G_of_a_group_the_user_is_not_under_changes_nothing():
    # carl is not in eng: -G eng (refused at submission for a user who
    # is not a member) cannot move him there.
    policy = fairshare.Policy(TOP, TWO, group_shares=TWO_SHARES,
                              members=TWO)
    assert policy.path("carl", "eng") == (("ops", 1.0),)


# ------------------------------------------------ lsb.params DEFAULT_USER_GROUP

DEFAULT_GROUP_YAML = """\
cluster: {name: c}
queues:
  fair:
    PRIORITY: 30
    FAIRSHARE: USER_SHARES[[ga, 1] [everyone, 1]]
parameters:
  DEFAULT_QUEUE: fair
  DEFAULT_USER_GROUP: %s
user_groups:
  ga: {members: [u1]}
  everyone: {members: [all]}
  some: {members: [u1]}
"""


def test_default_user_group_takes_members_and_all(tmp_path):
    from xce.controller.limitconf import policy
    from xce.controller.submit import default_user_group
    from tests.lib.builders import site
    cfg = site(tmp_path / "a", DEFAULT_GROUP_YAML % "everyone")
    assert default_user_group(cfg, "u1") == "everyone"
    assert default_user_group(cfg, "zed") == "everyone"
    # A group of `all` in the tree takes any user's -G job.
    tree = policy(cfg, cfg.queues["fair"])
    assert tree.path("zed", "everyone") == (("everyone", 1.0),)
    assert tree.path("u1", "everyone") == (("everyone", 1.0),)
    cfg = site(tmp_path / "b", DEFAULT_GROUP_YAML % "some")
    assert default_user_group(cfg, "u1") == "some"
    assert default_user_group(cfg, "zed") is None   # not a member: none
    cfg = site(tmp_path / "c", DEFAULT_GROUP_YAML.replace(
        "  DEFAULT_USER_GROUP: %s\n", ""))
    assert default_user_group(cfg, "u1") is None


def test_default_user_group_takes_direct_members_only(tmp_path):
    """LSF has DEFAULT_USER_GROUP hold `all` as a direct member, and
    bsub -G takes a group its user is a direct member of: a member of a
    subgroup only (u1, in ga under outer) submits with no group, as a
    user outside it does; `all ~zed` leaves zed out."""
    from xce.controller.submit import default_user_group
    from tests.lib.builders import site
    yaml = DEFAULT_GROUP_YAML.replace(
        "  some: {members: [u1]}\n",
        "  some: {members: [u1]}\n  outer: {members: [ga, u2]}\n"
        "  allbut: {members: [all, ~zed]}\n")
    cfg = site(tmp_path / "a", yaml % "outer")
    assert default_user_group(cfg, "u2") == "outer"
    assert default_user_group(cfg, "u1") is None
    assert default_user_group(cfg, "zed") is None
    cfg = site(tmp_path / "b", yaml % "allbut")
    assert default_user_group(cfg, "u1") == "allbut"
    assert default_user_group(cfg, "zed") is None


def test_default_user_group_not_a_group_is_refused(tmp_path):
    from xce.config.load import ConfigError
    from tests.lib.builders import site
    with pytest.raises(ConfigError, match="DEFAULT_USER_GROUP.*nogroup: "
                       "not a user group"):
        site(tmp_path, DEFAULT_GROUP_YAML % "nogroup")


def test_migration_carries_default_user_group_enforced(tmp_path):
    from xce.config import keys
    from xce.config.migrate import migrate
    (tmp_path / "lsb.users").write_text(LSB_USERS)
    (tmp_path / "lsb.params").write_text(
        "Begin Parameters\nDEFAULT_USER_GROUP = G1\nEnd Parameters\n")
    result = migrate(str(tmp_path), check=True)
    assert result.tree["parameters"]["DEFAULT_USER_GROUP"] == "G1"
    assert [e.status for e in result.migration.entries
            if "DEFAULT_USER_GROUP" in e.label] == [keys.ENFORCED]
    # G1 does not hold `all`: carried, with LSF's rule in a warning.
    assert "lsb.params:2: G1: LSF has the default user group hold all as " \
        "a direct member; a user who is not a direct member submits with " \
        "no group" in [str(d) for d in result.diags.warnings]
    # Naming no group: a warning at its line, and it is not carried.
    (tmp_path / "lsb.params").write_text(
        "Begin Parameters\nDEFAULT_USER_GROUP = G9\nEnd Parameters\n")
    result = migrate(str(tmp_path), check=True)
    assert "DEFAULT_USER_GROUP" not in result.tree.get("parameters", {})
    assert "lsb.params:2: G9: not a user group (user_groups)" in \
        [str(d) for d in result.diags.warnings]
