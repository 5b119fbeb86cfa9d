"""badmin ckconfig -v and reconfig on a configuration whose queue HOSTS or
limit QUEUES names what nothing defines: each name is warned about, as LSF
does when it reads the files, and the rest is put in force."""

import re


def test_ckconfig_warns_about_names_nothing_defines(make_cluster):
    cluster = make_cluster()
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace(
        "    DESCRIPTION: the default queue\n",
        "    DESCRIPTION: the default queue\n"
        "    HOSTS: [all, apple]\n    USERS: [all, nosuchuserxce]\n") + (
        "limits:\n  - NAME: l1\n    QUEUES: [normal, regression]\n"
        "    SLOTS: 4\n"))
    r = cluster.run("badmin", "ckconfig", "-v")
    assert r.rc == 0 and r.out == "", r
    assert re.search(r"Warning: \S*xce\.yaml: queue normal HOSTS: apple is "
                     r"not a host or host group; ignored\n", r.err), r.err
    assert re.search(r"Warning: \S*xce\.yaml: limit l1 QUEUES: regression "
                     r"is not a queue; ignored\n", r.err), r.err
    assert re.search(r"Warning: \S*xce\.yaml: queue normal USERS: "
                     r"nosuchuserxce is not a user or user group; "
                     r"ignored\n", r.err), r.err
    assert "No errors found." in r.err
    r = cluster.run("badmin", "reconfig", "-v")
    assert r.rc == 0 and "Reconfiguration initiated" in r.out, r
    assert "apple is not a host or host group" in r.err, r.err
    jobid = cluster.submit("true")      # the rest is in force
    cluster.wait_stat(jobid, "DONE")
