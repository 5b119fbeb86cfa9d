"""badmin showstatus (the runtime mbatchd information) and badmin mbdrestart
(a reconfiguration that checks the configuration first)."""

import re


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
