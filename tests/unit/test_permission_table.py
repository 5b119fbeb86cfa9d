"""The one permission table (xce.model.permissions): its rules, and the
PERMISSIONS section of xce.yaml(5) that prints it row for row."""

from pathlib import Path

import pytest

from xce.model import permissions as perm

PAGE = Path(__file__).resolve().parents[2] / "man" / "man5" / "xce.yaml.5"


def roff_rows():
    """The table as the man page's .TP entries."""
    def esc(text):
        return text.replace("\\", "\\\\").replace("-", "\\-")
    return "".join(f'.TP\n.B "{esc(action)}"\n{esc(who)}: {esc(why)}.\n'
                   for action, who, why in perm.table_rows())


def test_the_man_page_prints_the_table_row_for_row():
    text = PAGE.read_text()
    section = text.split(".SH PERMISSIONS\n", 1)[1].split("\n.SH ", 1)[0]
    assert roff_rows() in section


def test_every_role_named_in_the_table_is_known():
    known = {perm.OWNER, perm.QUEUE_ADMIN, perm.GROUP_ADMIN, perm.PROJECT_ADMIN,
             perm.CLUSTER_ADMIN, perm.ANYONE}
    for roles, _ in perm.TABLE.values():
        assert set(roles) <= known and roles


def test_the_owner_may_do_anything_to_their_job():
    for action in perm.TABLE:
        assert perm.may(action, "ann", "ann")


def test_another_user_may_only_read():
    for action in perm.TABLE:
        allowed = perm.may(action, "bob", "ann")
        assert allowed == (perm.ANYONE in perm.roles_of(action)), action


def test_root_and_cluster_admins_may_control_any_job_but_not_attachments():
    for admin, admins in (("root", ()), ("adm", ("adm",))):
        assert perm.may("bkill", admin, "ann", admins)
        assert perm.may("bpost", admin, "ann", admins)
        assert not perm.may("bpost -a", admin, "ann", admins)
        assert not perm.may("bread -a", admin, "ann", admins)


def test_a_queue_admin_controls_jobs_of_that_queue_only():
    assert perm.may("bkill", "qa", "ann", (), ("qa",))
    assert perm.may("btop", "qa", "ann", (), ("qa",))
    assert not perm.may("bkill", "qa", "ann", (), ("other",))
    assert not perm.may("bpost", "qa", "ann", (), ("qa",))
    assert not perm.may("bpeek", "qa", "ann", (), ("qa",))


def test_an_unknown_action_is_an_error_not_a_refusal():
    with pytest.raises(perm.UnknownAction):
        perm.may("bfly", "ann", "ann")


def test_a_project_manager_controls_the_jobs_of_the_projects_subtree():
    assert perm.may("bkill", "pm", "ann", project_managers={"pm"})
    assert perm.may("bmod", "pm", "ann", project_managers={"pm"})
    assert not perm.may("bkill", "pm", "ann", project_managers={"x"})
    assert not perm.may("bpeek", "pm", "ann", project_managers={"pm"})


def test_a_user_group_admin_controls_the_jobs_of_the_groups_members():
    assert perm.may("bstop", "ga", "ann", group_admins={"ga"})
    assert perm.may("bmod", "ga", "ann", group_admins={"ga"})
    assert not perm.may("bkill", "ga", "ann", group_admins={"x"})
    assert not perm.may("bpeek", "ga", "ann", group_admins={"ga"})
    assert not perm.may("bpost", "ga", "ann", group_admins={"ga"})


def test_group_admin_reaches_members_of_nested_groups_only(tmp_path):
    from tests.lib.builders import site
    cfg = site(tmp_path, "cluster: {name: c}\n"
               "queues: {normal: {PRIORITY: 30}}\n"
               "user_groups:\n"
               "  leads: [lee]\n"
               "  chem: {members: [ann, bio], GROUP_ADMIN: [leads, 'sam[full]']}\n"
               "  bio: {members: [bob]}\n"
               "  everyone: {members: [all], GROUP_ADMIN: [eve]}\n")
    assert cfg.group_admins["ann"] == {"lee", "sam"}
    assert cfg.group_admins["bob"] == {"lee", "sam"}
    assert "lee" not in cfg.group_admins
    assert "all" not in cfg.group_admins        # no one by STRICT_UG_CONTROL


def _two_groups(tmp_path, params=""):
    from tests.lib.builders import site
    return site(tmp_path, "cluster: {name: c}\n" + params +
                "queues: {normal: {PRIORITY: 30}}\n"
                "user_groups:\n"
                "  marketing: {members: [ann, amy], GROUP_ADMIN: [shelley]}\n"
                "  financial: {members: [ann], GROUP_ADMIN: [john]}\n"
                "  everyone: {members: [all], GROUP_ADMIN: [eve]}\n")


def test_by_default_a_job_with_g_is_any_of_its_owners_groups_admins(tmp_path):
    cfg = _two_groups(tmp_path)
    assert cfg.group_admins_of("ann", "marketing") == {"shelley", "john"}
    assert cfg.group_admins_of("ann") == {"shelley", "john"}
    assert not cfg.group_admins_of("zed", "everyone")


def test_strict_ug_control_gives_a_job_with_g_to_that_groups_admins_only(
        tmp_path):
    cfg = _two_groups(tmp_path, "parameters: {STRICT_UG_CONTROL: Y}\n")
    assert cfg.group_admins_of("ann", "marketing") == {"shelley"}
    assert cfg.group_admins_of("ann", "financial") == {"john"}
    # a group of `all` has administrators: those of the jobs sent to it
    assert cfg.group_admins_of("zed", "everyone") == {"eve"}
    assert not cfg.group_admins_of("zed")
    # without -G, the administrators of the owner's groups, as by default
    assert cfg.group_admins_of("ann") == {"shelley", "john"}
    assert perm.may("bkill", "john", "ann",
                    group_admins=cfg.group_admins_of("ann", "financial"))
    assert not perm.may("bkill", "john", "ann",
                        group_admins=cfg.group_admins_of("ann", "marketing"))


def test_strict_ug_control_other_than_y_or_n_is_refused(tmp_path):
    from xce.config.load import ConfigError
    with pytest.raises(ConfigError, match="STRICT_UG_CONTROL"):
        _two_groups(tmp_path, "parameters: {STRICT_UG_CONTROL: maybe}\n")
