"""The resource model end to end on virtual hosts: site resources defined
in ``resources`` (lsf.shared's Resource section) and given to hosts, in
select[] and order[]; licence tokens of a ResourceMap ``[all]`` location
consumed across two hosts and given back, one instance per host set of a
ResourceMap, and a standalone claim keeping tokens for a user; bhosts -s,
lsload -s, lshosts; and the names and amounts refused at submission."""

import pytest

from tests.lib.xcecluster import virtual_names, wait_for

RESOURCES = """\
resources:
  fs: {TYPE: Boolean, DESCRIPTION: (File server)}
  os: {TYPE: String, DESCRIPTION: (OS release)}
  speed: {TYPE: Numeric, INCREASING: N, DESCRIPTION: (Relative speed)}
  lic: {TYPE: Numeric, DESCRIPTION: (Solver tokens), LOCATION: '(2@[all])'}
"""
HOST_RESOURCES = {0: "[fs, os=rhel8, speed=1]", 1: "[os=rhel9, speed=5]",
                  2: "[speed=3]"}


def _started_site(make_cluster, prefix, resources, host_resources):
    """Virtual hosts of one slot each, the i-th given host_resources[i]."""
    names = virtual_names(len(host_resources), prefix=prefix)
    c = make_cluster(virtual_hosts=names, mxj=1, extra=resources,
                     start=False)
    path = c.envdir / "xce.yaml"
    text = path.read_text()
    for i, name in enumerate(names):
        text = text.replace(f"  {name}:\n    launch: local\n",
                            f"  {name}:\n    launch: local\n"
                            f"    resources: {host_resources[i]}\n")
    path.write_text(text)
    c.names = names
    return c.start()


@pytest.fixture
def site(make_cluster):
    return _started_site(make_cluster, "sr", RESOURCES, HOST_RESOURCES)


def _host_of(c, jobid):
    c.wait_stat(jobid, "RUN", "DONE")
    return c.stored_job(jobid)["exec_hosts"].split()[0]


@pytest.mark.parametrize("rr, host", [
    ("select[fs]", 0),
    ("select[os==rhel9]", 1),
    ("select[speed>2 && speed<4]", 2),
    ("order[speed]", 1),
    ("order[-speed]", 0),
])
def test_select_and_order_read_the_hosts_resources(site, rr, host):
    job = site.submit("-R", rr, "true")
    assert _host_of(site, job) == site.names[host]


def test_licence_tokens_are_shared_by_two_hosts_and_given_back(site):
    c = site
    # Two tokens for the cluster: two jobs run (one slot per host, so on
    # two hosts), the third waits for a token although a host is free.
    first = c.submit("-R", "rusage[lic=1]", "sleep 30")
    second = c.submit("-R", "rusage[lic=1]", "sleep 30")
    third = c.submit("-R", "rusage[lic=1]", "true")
    c.wait_stat(first, "RUN")
    c.wait_stat(second, "RUN")
    assert _host_of(c, first) != _host_of(c, second)
    c.wait_stat(third, "PEND")
    wait_for(lambda: "Job's requirements for reserving resource (lic) not "
             "satisfied" in " ".join(c.run("bjobs", "-l", str(third))
                                     .joined.split()),
             what="the token pend reason")
    r = wait_for(lambda: (lambda r: "2.0" in r.out and r)(
        c.run("bhosts", "-s")), what="bhosts -s to show the tokens held")
    assert r.rc == 0 and r.err == ""
    assert r.out.splitlines() == [
        "RESOURCE                 TOTAL    RESERVED    LOCATION",
        "lic                          0         2.0    " + " ".join(c.names)]
    r = c.run("bhosts", "-l", c.names[2])
    lines = [line.split() for line in r.out.splitlines()]
    at = lines.index(["lic", "speed"])
    assert lines[at + 1] == ["Total", "0.0", "3.0"]
    assert lines[at + 2] == ["Reserved", "2.0", "0.0"]
    r = c.run("lsload", "-s")
    assert (r.rc, r.err) == (0, "")
    assert r.out.splitlines() == [
        "RESOURCE                 VALUE    LOCATION",
        "lic                          2    " + " ".join(c.names)]
    assert c.run("bkill", str(first)).rc == 0
    c.wait_stat(third, "DONE", timeout=60)
    assert c.run("bkill", str(second)).rc == 0


def test_a_token_held_for_a_duration_comes_back_while_the_job_runs(site):
    c = site
    first = c.submit("-R", "rusage[lic=2:duration=3s]", "sleep 60")
    c.wait_stat(first, "RUN")
    later = c.submit("-R", "rusage[lic=1]", "true")
    c.wait_stat(later, "DONE", timeout=60)
    assert c.stat(first) == "RUN"
    c.run("bkill", str(first))


@pytest.mark.parametrize("rr, message", [
    ("select[nosuch>1]", "nosuch: Bad resource name"),
    ("order[nosuch]", "nosuch: Bad resource name"),
    ("rusage[nosuch=1]", "nosuch: Bad resource name"),
    ("rusage[lic=3]", "lic: rusage[] asks for 3, more than the 2 the "
     "cluster has; it can never be satisfied"),
])
def test_unknown_names_and_impossible_amounts_are_refused(site, rr, message):
    r = site.run("bsub", "-R", rr, "true")
    assert (r.rc, r.out, r.err) == (255, "", message +
                                    ". Job not submitted.\n")
    assert site.run("bhosts").rc == 0       # the controller is still up


def test_lshosts_lsinfo_and_lshosts_s_show_the_definitions(site):
    c = site
    r = c.run("lshosts", c.names[0])
    assert r.rc == 0 and r.out.splitlines()[1].endswith(" (fs)"), r
    r = c.run("lshosts", "-l", c.names[1])
    assert "RESOURCES: Not defined" in r.out, r
    r = c.run("lshosts", "-s")
    assert r.rc == 0 and r.out.splitlines()[0] == \
        "RESOURCE                 VALUE    LOCATION"
    assert f"{'os':<20}{'rhel8':>10}    {c.names[0]}" in r.out.splitlines()
    r = c.run("lsinfo", "-r")
    assert r.rc == 0
    rows = {line.split()[0]: line.split() for line in r.out.splitlines()}
    assert rows["speed"][1:3] == ["Numeric", "Dec"]
    assert rows["os"][1:3] == ["String", "N/A"]
    assert rows["fs"][1:4] == ["Boolean", "N/A", "File"]
    r = c.run("bhosts", "-s", "nosuch")
    assert (r.rc, r.out) == (255, "") and "nosuch: Bad resource name" in r.err


def test_a_suspended_job_gives_its_tokens_back_with_release(site):
    c = site
    first = c.submit("-R", "rusage[lic=2]", "sleep 60")
    c.wait_stat(first, "RUN")
    assert c.run("bstop", str(first)).rc == 0
    c.wait_stat(first, "USUSP")
    # RELEASE=Y (LSF's default): the stopped job holds no token.
    later = c.submit("-R", "rusage[lic=2]", "true")
    c.wait_stat(later, "DONE", timeout=60)
    c.run("bkill", str(first))


def test_a_claim_keeps_licence_tokens_for_one_user(site):
    c = site
    r = c.run("xce", "claim", "add", "--user", "nobody", "--counter", "lic=1")
    assert (r.rc, r.out, r.err) == (0, "Claim <1> is created\n", ""), r
    r = c.run("xce", "claim", "list")
    assert r.out.splitlines()[1].split()[:5] == ["1", "nobody", "-", "-",
                                                "lic=1"], r
    # Two tokens, one kept for nobody: root's job of two waits for it.
    both = c.submit("-R", "rusage[lic=2]", "true")
    wait_for(lambda: "Job's requirements for reserving resource (lic) not "
             "satisfied" in " ".join(c.run("bjobs", "-l", str(both))
                                     .joined.split()),
             what="the token pend reason")
    assert c.stat(both) == "PEND"
    r = c.run("xce", "claim", "remove", "1")
    assert (r.rc, r.out) == (0, "Claim <1> is removed\n"), r
    c.wait_stat(both, "DONE", timeout=30)
    for argv, error in (
            (["--counter", "lic"], "--counter: expected name=amount such "
                                   "as lic=2"),
            (["--counter", "speed=1"], "speed: Not a shared resource; only "
             "tokens of a shared resource (ResourceMap) can be claimed"),
            (["--counter", "lic=3"], "lic: 3 with the 0 that other claims "
             "keep is more than the 2 there are")):
        r = c.run("xce", "claim", "add", "-u", "nobody", *argv)
        assert (r.rc, r.out, r.err) == (255, "", error + "\n"), (argv, r)
    r = c.run("xce", "claim", "list")
    assert (r.rc, r.err) == (0, "No claim found\n"), r  # none made


def test_each_host_set_of_a_resource_map_is_its_own_instance(make_cluster):
    names = virtual_names(3, prefix="hs")
    c = make_cluster(virtual_hosts=names, mxj=1, extra=(
        "resources:\n  seat: {TYPE: Numeric, DESCRIPTION: (Seats), "
        f"LOCATION: '(1@[{names[0]} {names[1]}] 1@[{names[2]}])'}}\n"))
    jobs = [c.submit("-R", "rusage[seat=1]", "sleep 30") for _ in range(3)]
    wait_for(lambda: sorted(c.stat(j) for j in jobs) ==
             ["PEND", "RUN", "RUN"], what="two jobs to start")
    # One seat in each set: one job on the pair, one on the third host.
    ran = sorted(_host_of(c, j) for j in jobs if c.stat(j) == "RUN")
    assert ran[0] in names[:2] and ran[1] == names[2], ran
    r = c.run("bhosts", "-s")
    assert sorted(line.split()[:3] for line in r.out.splitlines()[1:]) == [
        ["seat", "0", "1.0"], ["seat", "0", "1.0"]], r
    c.run("bkill", *map(str, jobs))


def test_same_keeps_a_parallel_job_on_hosts_of_one_value(make_cluster):
    """same[rack]: a two-slot job runs on the two hosts of rack r2, never
    across racks; three slots (no rack has three hosts) pend."""
    c = _started_site(make_cluster, "sm", RESOURCES + "  rack: {TYPE: "
                      "String, DESCRIPTION: (Rack)}\n",
                      ["[rack=r1]", "[rack=r2]", "[rack=r2]"])
    for _ in range(3):      # whichever host comes first, r2's two
        job = c.submit("-n", "2", "-R", "same[rack]", "true")
        c.wait_stat(job, "DONE")
        assert sorted(c.stored_job(job)["exec_hosts"].split()) == \
            c.names[1:], c.stored_job(job)
    job = c.submit("-n", "3", "-R", "same[rack]", "true")
    wait_for(lambda: c.run("bjobs", "-p", str(job)).out.count("\n") > 1,
             what="a pend reason")
    assert c.stat(job) == "PEND"
    spread = c.submit("-n", "3", "true")        # without same[], it runs
    c.wait_stat(spread, "DONE")
    assert c.stat(job) == "PEND"
    assert c.run("bkill", str(job)).rc == 0
