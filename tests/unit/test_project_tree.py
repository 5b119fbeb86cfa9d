"""Projects: membership without inheritance, defaults, the quota tree
rolled up in the scheduler's limits, and the projects: section's checks."""

import pytest

from xce.config.load import ConfigError
from xce.controller import limitconf
from xce.model import projects as pj
from xce.scheduler.core import QueueView, schedule
from xce.scheduler.limits import Consumer, Limit, Limits

from tests.lib.builders import host, pending, site

BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
queues:
  normal: {PRIORITY: 30}
user_groups:
  phys: [ann, bob]
  cms: [cat]
"""

TREE = """\
projects:
  /physics:
    MEMBERS: phys
    MANAGERS: boss cms
    SLOTS: 3
  /physics/cms:
    MEMBERS: cms ann
    DEFAULT_FOR: cms
    JOBS: 1
  chem:
    MEMBERS: bob
    DEFAULT_FOR: bob
    MEM: 100
"""


def _groups(cfg):
    from xce.controller.submit import groups_of
    return lambda user: groups_of(cfg, user)


@pytest.fixture
def cfg(tmp_path):
    return site(tmp_path, BASE + TREE)


def test_ancestors_of_a_path_and_of_a_plain_name():
    assert pj.ancestors("/a/b/c") == ["/a/b/c", "/a/b", "/a"]
    assert pj.ancestors("chem") == ["chem"]


@pytest.mark.parametrize("name,ok", [
    ("/physics/cms/run3", True), ("chem", True), ("a.b-c+d_e", True),
    ("/", False), ("/a//b", False), ("a/b", False), ("a b", False),
    ("-x", False), ("x" * 512, False)])
def test_project_names(name, ok):
    assert pj.valid_name(name) is ok


def test_membership_is_not_inherited_down_the_tree(cfg):
    projects, groups = cfg.projects, _groups(cfg)
    assert projects.refusal("bob", "/physics", groups) is None
    assert projects.refusal("bob", "/physics/cms", groups) == \
        "PROJECT_MEMBER"
    # Overlapping membership: ann is in both by two routes.
    assert projects.refusal("ann", "/physics/cms", groups) is None
    assert projects.refusal("cat", "/physics", groups) == "PROJECT_MEMBER"
    assert projects.refusal("ann", "/nowhere", groups) == "BAD_PROJECT"
    # The cluster default stays open while the site does not define it.
    assert projects.refusal("zed", "default", groups) is None


def test_open_mode_until_projects_are_defined(tmp_path):
    cfg = site(tmp_path, BASE)
    assert not cfg.projects.defined
    assert cfg.projects.refusal("zed", "/any/thing", _groups(cfg)) is None


def test_default_project_user_then_group_then_cluster(tmp_path):
    cfg = site(tmp_path, BASE.replace(
        "  DEFAULT_QUEUE: normal\n",
        "  DEFAULT_QUEUE: normal\n  DEFAULT_PROJECT: misc\n") + TREE)
    groups = _groups(cfg)
    assert cfg.projects.default_of("bob", groups) == "chem"
    assert cfg.projects.default_of("cat", groups) == "/physics/cms"
    assert cfg.projects.default_of("ann", groups) == "misc"


def test_quota_tree_rolls_up_to_the_parents(cfg):
    limits = Limits(limitconf.limits(cfg))
    hosts = [host("a", 8, ncpus=8, maxmem=1000, mem=1000)]
    jobs = [pending(1, project="/physics/cms"),
            pending(2, project="/physics/cms"),     # /physics/cms JOBS 1
            pending(3, project="/physics", lo=2),
            pending(4, project="/physics")]         # /physics SLOTS 3
    out = schedule([QueueView("normal", 30)], hosts, jobs, None, limits)
    assert sorted(k[0] for k, _ in out.dispatch) == [1, 3]
    assert out.reasons[(2, 0)][0][0] == \
        "JOBS limit defined for the project has been reached"
    assert out.reasons[(4, 0)][0][0] == \
        "Resource (slot) limit defined on project has been reached"


def test_per_project_counts_each_named_subtree_apart():
    lim = Limit(slots=1, projects=Consumer(frozenset(["/a", "/b"]),
                                           per=True, tree=True))
    limits = Limits([lim])
    limits.charge("u", "normal", "/a/x", {"h": 1})
    assert limits.job_room("u", "normal", "/a/y", 1)[1] is not None
    assert limits.job_room("u", "normal", "/b", 1)[1] is None
    assert limits.job_room("u", "normal", "/c", 1) == (None, None)


def test_a_quota_the_job_alone_is_above_is_never_met(cfg):
    limits = Limits(limitconf.limits(cfg))
    assert limits.never_met("ann", "normal", "/physics/cms", 4) == \
        ("/physics", "slots", 3, 4)
    assert limits.never_met("ann", "normal", "/physics/cms", 3) is None
    assert limits.never_met("bob", "normal", "chem", 1, 200)[:3] == \
        ("chem", "mem", 100)


@pytest.mark.parametrize("text,message", [
    ("projects: [a]\n", "projects: must be a mapping of project names"),
    ("projects:\n  a b: {}\n", "a b: bad project name"),
    ("projects:\n  /p: {SLOTS: x}\n", "SLOTS: 'x' is not a whole number"),
    ("projects:\n  /p: {MEM: lots}\n", "MEM: 'lots' is not a number"),
    ("projects:\n  /p: {MEMBRS: ann}\n", "MEMBRS: unknown project key"),
    ("projects:\n  /p: {MEMBERS: ann, DEFAULT_FOR: cms}\n",
     "DEFAULT_FOR: cms is not a member of this project"),
    ("projects:\n  /p: {DEFAULT_FOR: ann}\n  /q: {DEFAULT_FOR: ann}\n",
     "DEFAULT_FOR: ann is already in the DEFAULT_FOR of project /p"),
])
def test_bad_projects_section_is_refused_with_its_line(tmp_path, text,
                                                       message):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, BASE + text)
    assert message in str(e.value)
    assert "xce.yaml" in str(e.value)


def test_the_migrator_carries_lsfs_project_settings(tmp_path):
    from tests.lib.builders import migrated_site
    from xce.config.load import load
    result = migrated_site(tmp_path, {
        "lsf.conf": "LSB_DEFAULTPROJECT=site\n",
        "lsb.params": "Begin Parameters\nDEFAULT_PROJECT = misc\n"
                      "End Parameters\n",
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n",
        "lsb.resources": "Begin Limit\nNAME = p\nPROJECTS = /phys\n"
                         "SLOTS = 4\nEnd Limit\n"})
    params = result.tree["parameters"]
    assert params["DEFAULT_PROJECT"] == "misc"
    assert params["LSB_DEFAULTPROJECT"] == "site"
    assert result.tree["limits"][0]["PROJECTS"] in ("/phys", ["/phys"])
    cfg = load(tmp_path / "etc")
    # LSF has no project definitions: a migrated cluster is open, and
    # lsf.conf's default is the cluster's.
    assert not cfg.projects.defined
    assert cfg.projects.cluster_default == "site"


def test_managers_rule_their_project_and_everything_below(cfg):
    assert cfg.projects.managers_of("/physics/cms/run3") == {"boss", "cat"}
    assert cfg.projects.managers_of("/physics") == {"boss", "cat"}
    assert cfg.projects.managers_of("chem") == set()
