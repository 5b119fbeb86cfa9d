"""bugroup's GROUP_ADMIN column and line, and its SHARES line
(xce.client.cluster.users)."""

from xce.client.cluster.users import groups_text

GROUPS = {
    "leads": {"members": ["lee", "liz"]},
    "devs": {"members": ["alice", "bob"],
             "GROUP_ADMIN": ["leads", "sam[full]"]},
    "staff": {"members": ["devs", "carol"]},
}


def test_the_short_format_has_a_group_admin_column_with_groups_expanded():
    assert groups_text(GROUPS, "user", ()).splitlines() == [
        "GROUP_NAME    USERS        GROUP_ADMIN",
        "leads        lee liz",
        "devs         alice bob     lee liz sam[full]",
        "staff        devs/ carol",
    ]


def test_the_long_format_has_a_group_admin_line_where_there_are_admins():
    assert groups_text(GROUPS, "user", ("devs", "staff"),
                       long_format=True) == (
        "GROUP_NAME:  devs\nUSERS:       alice bob\n"
        "GROUP_ADMIN: lee liz sam[full]\n\n"
        "GROUP_NAME:  staff\nUSERS:       devs/ carol")


def test_without_administrators_the_layout_is_unchanged():
    plain = {"devs": ["alice", "bob"]}
    assert groups_text(plain, "user", ()) == \
        "GROUP_NAME    USERS\ndevs         alice bob"


def test_the_long_format_shows_how_a_group_divides_its_shares():
    groups = {"devs": {"members": ["alice", "bob"],
                       "USER_SHARES": "([alice, 3] [default, 1])"},
              "ops": {"members": ["carl"], "USER_SHARES": "()"}}
    assert groups_text(groups, "user", (), long_format=True) == (
        "GROUP_NAME:  devs\nUSERS:       alice bob\n"
        "SHARES:      [alice,3] [default,1]\n\n"
        "GROUP_NAME:  ops\nUSERS:       carl")
