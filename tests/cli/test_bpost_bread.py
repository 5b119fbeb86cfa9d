"""bpost and bread through a real cluster: posting, replacing and reading a
job's messages and attachments, and their errors."""

import re

from tests.lib.xcecluster import blocked


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
