"""lsadmin: showconf lim prints key = value lines; the LIM control commands
xce has no use for are refused."""

import re


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
