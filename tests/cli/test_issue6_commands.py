"""bpost/bread, bjdepinfo, lsadmin, badmin showstatus/mbdrestart and
bjobs -p0..-p3 / -UF, through a real cluster."""

import re

import pytest

from tests.lib.xcecluster import blocked

COMMANDS = ("bpost", "bread", "bjdepinfo", "lsadmin")


@pytest.mark.parametrize("name", COMMANDS)
def test_help_and_usage(cluster, name):
    r = cluster.run(name, "--help")
    assert r.rc == 0 and r.out.startswith(f"Usage: {name} "), r
    assert cluster.run(name, "-h").rc == 0
    r = cluster.run(name, "-Z")
    assert r.rc == 255 and "illegal option -- Z" in r.err


# -- bpost / bread --------------------------------------------------------------
def test_bpost_then_bread_shows_the_message_table(make_cluster, tmp_path):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    r = cluster.run("bpost", "-d", "step one", str(jobid))
    assert (r.rc, r.out, r.err) == (
        0, f"Job <{jobid}>: Message <0> posted.\n", "")
    note = tmp_path / "note.txt"
    note.write_text("attached text\n")
    assert cluster.run("bpost", "-i", "2", "-d", "with file", "-a",
                       str(note), str(jobid)).rc == 0
    r = cluster.run("bread", str(jobid))
    lines = r.out.splitlines()
    assert r.rc == 0 and lines[0] == f"JOBID: {jobid}"
    assert lines[1].split() == ["MSG_ID", "FROM", "POST_TIME", "MESSAGE",
                                "ATTACHMENT"]
    assert re.match(r"0      root       \w{3} [ \d]\d \d\d:\d\d   step one "
                    r"+N$", lines[2]), lines[2]
    assert lines[3].startswith("2 ") and lines[3].endswith(" Y")
    r = cluster.run("bread", "-i", "2", str(jobid))
    assert len(r.out.splitlines()) == 3
    saved = tmp_path / "saved.txt"
    r = cluster.run("bread", "-i", "2", "-a", str(saved), str(jobid))
    assert r.rc == 0 and saved.read_text() == "attached text\n"


def test_bpost_replaces_a_message_of_the_same_index(cluster):
    jobid = cluster.submit("sleep 30")
    cluster.run("bpost", "-d", "old", str(jobid))
    cluster.run("bpost", "-d", "new", str(jobid))
    r = cluster.run("bread", str(jobid))
    assert [l.split()[-2] for l in r.out.splitlines()[2:]] == ["new"]


def test_bpost_and_bread_errors(cluster):
    r = cluster.run("bpost", "-d", "x", "99999")
    assert (r.rc, r.out, r.err) == (
        255, "", "Job <99999>: No matching job found\n")
    r = cluster.run("bpost", "-d", "x", "1x")
    assert (r.rc, r.err) == (255, "1x: Illegal job ID.\n")
    r = cluster.run("bpost", "1")
    assert r.rc == 255 and "-d or -a must be specified" in r.err
    r = cluster.run("bread", "99999")
    assert (r.rc, r.err) == (255, "Job <99999>: No matching job found\n")
    jobid = cluster.submit("sleep 30")
    r = cluster.run("bread", str(jobid))
    assert (r.rc, r.out, r.err) == (
        255, "", f"Job <{jobid}>: No message available\n")


# -- bjdepinfo --------------------------------------------------------------------
def test_bjdepinfo_parents_children_and_levels(make_cluster):
    cluster, _ = blocked(make_cluster)
    a = cluster.submit("-J", "first", "sleep 1")
    b = cluster.submit("-w", f"done({a})", "-J", "second", "sleep 1")
    c = cluster.submit("-w", "ended(second)", "-J", "third", "sleep 1")
    r = cluster.run("bjdepinfo", str(b))
    assert r.rc == 0, r
    assert r.out.splitlines() == [
        "JOBID          PARENT         PARENT_STATUS  PARENT_NAME  LEVEL",
        f"{b:<14} {a:<14} PEND           first        1"]
    r = cluster.run("bjdepinfo", "-r", "2", str(c))
    rows = [l.split() for l in r.out.splitlines()[1:]]
    assert rows == [[str(c), str(b), "PEND", "second", "1"],
                    [str(b), str(a), "PEND", "first", "2"]]
    r = cluster.run("bjdepinfo", "-c", str(a))
    assert r.out.splitlines()[0].split() == [
        "JOBID", "CHILD", "CHILD_STATUS", "CHILD_NAME", "LEVEL"]
    assert r.out.splitlines()[1].split() == [str(a), str(b), "PEND",
                                             "second", "1"]
    r = cluster.run("bjdepinfo", "-l", str(b))
    assert f"The dependency condition of job <{b}> is not satisfied: " \
        f"done({a})" in r.out


def test_bjdepinfo_without_dependencies_and_unknown_job(cluster):
    jobid = cluster.submit("sleep 30")
    r = cluster.run("bjdepinfo", str(jobid))
    assert (r.rc, r.out) == (
        0, f"Job <{jobid}> has no parent job dependencies.\n")
    r = cluster.run("bjdepinfo", "99999")
    assert (r.rc, r.out, r.err) == (
        255, "", "Job <99999>: No matching job found\n")
    r = cluster.run("bjdepinfo", "-c", "-p", str(jobid))
    assert r.rc == 255


# -- lsadmin, badmin showstatus / mbdrestart ------------------------------------
def test_lsadmin_showconf_lim_prints_key_value_lines(cluster):
    r = cluster.run("lsadmin", "showconf", "lim")
    lines = r.out.splitlines()
    assert r.rc == 0 and lines[0].startswith("LIM configuration at ")
    assert all(re.fullmatch(r"    \S+ = .*", l) for l in lines[1:]), lines
    keys = {l.split(" = ")[0].strip() for l in lines[1:]}
    assert {"LSF_UNIT_FOR_LIMITS", "LSF_CONFDIR"} <= keys


def test_lsadmin_refuses_lim_control_and_unknown_commands(cluster):
    r = cluster.run("lsadmin", "limrestart")
    assert r.rc == 255 and "no LIM" in r.err
    r = cluster.run("lsadmin", "bogus")
    assert (r.rc, r.err) == (255, "Invalid command <bogus>\n")
    r = cluster.run("lsadmin", "ckconfig")
    assert r.rc == 0 and "No errors found." in r.err


def test_badmin_showstatus(cluster):
    jobid = cluster.submit("sleep 30")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("badmin", "showstatus")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "LSF runtime mbatchd information"
    text = r.out
    assert re.search(r"^  Number of servers:\s+1$", text, re.M)
    assert re.search(r"^    Running:\s+1$", text, re.M)
    assert re.search(r"^  Active mbatchd PID:\s+\d+$", text, re.M)
    assert re.search(r"^  Latest mbatchd start:\s+\w{3} \w{3}", text, re.M)


def test_badmin_mbdrestart_is_a_checked_reconfig(cluster):
    r = cluster.run("badmin", "mbdrestart")
    assert (r.rc, r.out) == (0, "MBD restart initiated\n"), r
    assert "No errors found." in r.err
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text() + "\nbogus_section: [\n")
    r = cluster.run("badmin", "mbdrestart")
    assert r.rc == 255 and r.err.rstrip().endswith("MBD restart aborted.")


# -- bjobs -p levels and -UF ----------------------------------------------------
def test_bjobs_pending_levels(make_cluster):
    cluster, _ = blocked(make_cluster)
    jobid = cluster.submit("sleep 1")
    r0 = cluster.run("bjobs", "-p0", str(jobid))
    r = cluster.run("bjobs", "-p", str(jobid))
    assert r0.out == r.out and r.rc == 0
    r1 = cluster.run("bjobs", "-p1", str(jobid))
    assert len(r1.out.splitlines()) == 4        # header, job, reason, blank
    r2 = cluster.run("bjobs", "-p2", str(jobid))
    assert " Candidate host pending reasons (1 of 1 hosts):" in r2.out
    assert re.search(r"^   Not enough job slot\(s\): 1 host;$", r2.out, re.M)
    assert " Non-candidate host pending reasons (0 of 1 hosts)." in r2.out
    r3 = cluster.run("bjobs", "-p3", str(jobid))
    assert re.search(r"^   Not enough job slot\(s\): \S+;$", r3.out, re.M)


def test_bjobs_UF_is_long_format_without_wrapping(cluster):
    jobid = cluster.submit("-J", "x" * 100, "sleep 30")
    long = cluster.run("bjobs", "-l", str(jobid)).out
    uf = cluster.run("bjobs", "-UF", str(jobid))
    assert uf.rc == 0
    assert uf.out == long.replace("\n" + " " * 21, "")
    assert "x" * 100 in uf.out.splitlines()[1]
