"""lsinfo shows the resources (with lsf.shared's DESCRIPTION), host types
and host models of a running cluster, LSF's layout."""

SHARED = """\
resources:
  bigmem:
    TYPE: Boolean
    DESCRIPTION: Hosts with a lot of memory
  scratch:
    TYPE: Numeric
    INCREASING: 'N'
    DESCRIPTION: Free scratch space in MB
host_types: [X86_64, LINUX64]
host_models:
  PC200: 4.5
"""


def test_lsinfo_shows_resources_types_and_models(make_cluster):
    cluster = make_cluster(extra=SHARED)
    r = cluster.run("lsinfo")
    assert (r.rc, r.err) == (0, ""), r
    lines = r.out.splitlines()
    assert lines[0] == "RESOURCE_NAME   TYPE   ORDER  DESCRIPTION"
    assert "r15s          Numeric   Inc   15-second CPU run queue length" \
        in lines
    assert "bigmem        Boolean   N/A   Hosts with a lot of memory" in lines
    assert "scratch       Numeric   Dec   Free scratch space in MB" in lines
    at = lines.index("TYPE_NAME")
    assert lines[at + 1:at + 3] == ["X86_64", "LINUX64"]
    at = lines.index("MODEL_NAME      CPU_FACTOR      ARCHITECTURE")
    assert lines[at + 1] == "PC200                 4.50"
    r = cluster.run("lsinfo", "-t")
    assert (r.rc, r.err, r.out) == (0, "", "TYPE_NAME\nX86_64\nLINUX64\n")


def test_lsinfo_refuses_what_it_does_not_have(cluster):
    r = cluster.run("lsinfo", "-l")
    assert r.rc == 255 and r.out == "", r
    assert cluster.run("lsinfo", "-r").rc == 0


def test_lsinfo_with_resource_names_shows_only_those(make_cluster):
    cluster = make_cluster(extra=SHARED)
    r = cluster.run("lsinfo", "scratch", "mem", "nosuch")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == (
        "RESOURCE_NAME   TYPE   ORDER  DESCRIPTION\n"
        "mem           Numeric   Dec   Available memory (Mbytes)\n"
        "scratch       Numeric   Dec   Free scratch space in MB\n"
        "nosuch: Resource name not found\n")
    # With -t too: the host types follow, as LSF's lsinfo prints them.
    r = cluster.run("lsinfo", "-t", "mem")
    assert r.out.splitlines()[1:5] == [
        "mem           Numeric   Dec   Available memory (Mbytes)", "",
        "TYPE_NAME", "X86_64"], r
