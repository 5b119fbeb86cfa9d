"""Column by column against the LSF reference (lsf-commands.md §4.3-4.4):
the header text of bugroup, bmgroup, busers, blimits, bapp, lsclusters,
lsid and bparams -l, where each column starts or ends, and what -w leaves
whole."""

import getpass
import re
import socket

import pytest

ME = getpass.getuser()
HOST = socket.gethostname()
LONG_GROUP = "a_very_long_group_name"
LONG_APP = "fluent_application_long"
LONG_LIMIT = "per_user_slots_with_a_long_name"
SECTIONS = f"""
users:
  {ME}:
    MAX_JOBS: 10
    JL/P: 2
user_groups:
  {LONG_GROUP}:
    members: [{ME}, alice]
  staff:
    members: [{LONG_GROUP}, bob]
host_groups:
  hg1: [{HOST}]
limits:
  - NAME: {LONG_LIMIT}
    USERS: all
    SLOTS: 4
applications:
  {LONG_APP}:
    DESCRIPTION: CFD runs
"""

# The reference's headers, as LSF prints them.
BUSERS = ("USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  "
          "USUSP    RSV")
BAPP = "APPLICATION_NAME    NJOBS   PEND    RUN   SUSP"
LSCLUSTERS = ("CLUSTER_NAME   STATUS   MASTER_HOST               ADMIN    "
              "HOSTS  SERVERS")


def _ends(header):
    """{column title: index just past it}: right-aligned cells end there."""
    return {m.group(): m.end() for m in re.finditer(r"\S+", header)}


def _right_aligned(header, row, titles):
    """A value of *row* ends where each of *titles* ends."""
    ends = _ends(header)
    row_ends = {m.end() for m in re.finditer(r"\S+", row)}
    return all(ends[t] in row_ends for t in titles)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from tests.lib.xcecluster import Cluster
    c = Cluster(tmp_path_factory.mktemp("layouts"), extra_queues=SECTIONS)
    try:
        yield c.start()
    finally:
        c.stop()


def test_bugroup_and_bmgroup_name_12_then_members(site):
    r = site.run("bugroup")
    assert (r.rc, r.err) == (0, "")
    lines = r.out.splitlines()
    assert lines[0] == "GROUP_NAME    USERS"        # 12, two blanks
    assert lines[1] == f"{LONG_GROUP[:12]} {ME} alice"
    assert lines[2] == f"{'staff':<12} {LONG_GROUP}/ bob"
    r = site.run("bugroup", "-w")
    assert r.out.splitlines()[1] == f"{LONG_GROUP} {ME} alice"
    r = site.run("bmgroup")
    assert r.out == f"GROUP_NAME    HOSTS\n{'hg1':<12} {HOST}\n"


def test_busers_name_18_numbers_right_aligned(site):
    r = site.run("busers", "all")
    lines = r.out.splitlines()
    assert (r.rc, lines[0]) == (0, BUSERS)
    rows = {line.split()[0]: line for line in lines[1:]}
    mine = rows[ME]
    assert mine[:19] == f"{ME:<18} "
    assert _right_aligned(BUSERS, mine, ("JL/P", "MAX", "NJOBS", "RSV"))
    assert LONG_GROUP[:18] in rows              # cut at 18 without -w
    r = site.run("busers", "-w", "all")
    assert any(line.startswith(LONG_GROUP + " ")
               for line in r.out.splitlines())


def test_bapp_name_18_numbers_right_aligned(site):
    r = site.run("bapp")
    lines = r.out.splitlines()
    assert (r.rc, lines[0]) == (0, BAPP)
    assert lines[1] == f"{LONG_APP[:18]}      0      0      0      0"
    assert _right_aligned(BAPP, lines[1], ("NJOBS", "PEND", "RUN", "SUSP"))
    r = site.run("bapp", "-w")
    assert r.out.splitlines()[1].split()[0] == LONG_APP


def test_blimits_columns_and_wide_names(site):
    r = site.run("blimits")
    lines = r.out.splitlines()
    assert r.rc == 0 and lines[:3] == ["", "INTERNAL RESOURCE LIMITS:", ""]
    head = lines[3]
    assert head.split() == ["NAME", "USERS", "QUEUES", "HOSTS", "PROJECTS",
                            "SLOTS", "MEM", "TMP", "SWP", "JOBS"]
    # Names 18 and scopes 12 wide, limits right-aligned in 10.
    assert [head.index(t) for t in ("USERS", "QUEUES", "HOSTS",
                                    "PROJECTS")] == [19, 32, 45, 58]
    row = lines[4]
    assert row.startswith(f"{LONG_LIMIT[:18]} all          -")
    assert _right_aligned(head, row, ("SLOTS", "JOBS"))
    r = site.run("blimits", "-w")
    assert r.out.splitlines()[4].split()[0] == LONG_LIMIT


def test_lsclusters_columns(site):
    r = site.run("lsclusters")
    lines = r.out.splitlines()
    assert (r.rc, lines[0]) == (0, LSCLUSTERS)
    row = lines[1]
    assert row.startswith(f"{'testclu':<14} {'ok':<8} {HOST[:15]:<15} ")
    assert _right_aligned(LSCLUSTERS, row, ("ADMIN", "HOSTS", "SERVERS"))


def test_lsid_lines(site):
    r = site.run("lsid")
    lines = r.out.splitlines()
    assert r.rc == 0
    assert re.match(r"IBM Spectrum LSF Standard 10\.1\.0\.\d+, ", lines[0])
    assert lines[-3:] == ["", "My cluster name is testclu",
                          f"My master name is {HOST}"]


def test_bparams_long_blocks(site):
    r = site.run("bparams", "-l")
    assert r.rc == 0 and r.out.startswith("\nSystem default queues for "
                                          "automatic queue selection:\n"
                                          "    DEFAULT_QUEUE = normal\n\n")
    blocks = r.out.strip("\n").split("\n\n")
    for block in blocks:
        title, *values = block.split("\n")
        assert title.endswith((":", ".")), block
        assert values and all(re.fullmatch(r"    [A-Z_]+ = \S.*", v)
                              for v in values), block
    assert "    MBD_SLEEP_TIME = 10 (seconds)" in blocks[1]
