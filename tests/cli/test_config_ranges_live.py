"""Configuration ranges on a running cluster: badmin ckconfig and reconfig
refuse a value out of its range with file:line (and "Reconfiguration
aborted."), a key only a restart can change is refused by reconfig and
named, the running configuration stays in force, and a controller does not
start on such a file."""

import re
import subprocess

import pytest

from tests.lib.reconfig import assert_reconfig_refuses
from tests.lib.xcecluster import BIN

_OUT_OF_RANGE = [
    ("PRIORITY: 30", "PRIORITY: -30", r"PRIORITY: -30: must be a whole "
     r"number from 1 to 2147483646"),
    ("DESCRIPTION: the default queue", "UJOB_LIMIT: -5",
     r"UJOB_LIMIT: -5: must be a whole number from 0 to 2147483646 "
     r"\(slots\)"),
    ("DESCRIPTION: the default queue", "QJOB_LIMIT: -1",
     r"QJOB_LIMIT: -1: must be"),
    ("JOB_TERMINATE_INTERVAL: 2", "JOB_TERMINATE_INTERVAL: -2",
     r"JOB_TERMINATE_INTERVAL: -2: must be"),
    ("JOB_TERMINATE_INTERVAL: 2", "CLEAN_PERIOD: -1",
     r"CLEAN_PERIOD: -1: must be"),
    ("JOB_TERMINATE_INTERVAL: 2", "CLEAN_PERIOD_DONE: 3600",
     r"CLEAN_PERIOD_DONE: 3600: must be less than CLEAN_PERIOD \(3600\)"),
    ("JOB_TERMINATE_INTERVAL: 2", "MAX_JOB_ARRAY_SIZE: -1",
     r"MAX_JOB_ARRAY_SIZE: -1: must be"),
    ("JOB_TERMINATE_INTERVAL: 2", "XCE_HOST_LOST_GRACE: -1",
     r"XCE_HOST_LOST_GRACE: -1: must be"),
    ("XCE_REQUEST_TIMEOUT: 20", "XCE_REQUEST_TIMEOUT: -20",
     r"XCE_REQUEST_TIMEOUT: -20: must be"),
    ("MXJ: 2", "MXJ: -4", r"MXJ: -4: must be a whole number from 0 to "
     r"2147483646 or !"),
]


@pytest.mark.parametrize("old, new, error", _OUT_OF_RANGE,
                         ids=[n for _, n, _ in _OUT_OF_RANGE])
def test_ckconfig_and_reconfig_refuse_a_value_out_of_its_range(
        make_cluster, old, new, error):
    cluster = make_cluster(mxj=2)
    yaml = cluster.envdir / "xce.yaml"
    good = yaml.read_text()
    yaml.write_text(good.replace(old, new))
    r = cluster.run("badmin", "ckconfig")
    assert r.rc == 255 and r.out == "", r
    assert re.search(r"xce\.yaml:\d+: " + error, r.err), r.err
    yaml.write_text(good)
    assert_reconfig_refuses(cluster, old, new, error)
    # The running configuration is the one in force: a job runs.
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")


def test_reconfig_refuses_a_new_spool_and_commands_go_on(make_cluster):
    cluster = make_cluster()
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("spool: ../spool",
                                             "spool: ../elsewhere"))
    r = cluster.run("badmin", "ckconfig")
    assert r.rc == 0 and r.out == "", r
    assert re.search(r"Warning: \S*xce\.yaml:\d+: cluster\.spool: \S*spool "
                     r"-> \S*elsewhere: needs a controller restart", r.err), r
    r = cluster.run("badmin", "reconfig")
    assert r.rc == 255 and r.out == "", r
    assert re.search(r"xce\.yaml:\d+: cluster\.spool: .*needs a controller "
                     r"restart", r.err), r.err
    assert r.err.endswith("\nReconfiguration aborted.\n"), r.err
    # bsub and bjobs still find the controller on the spool it runs on.
    jobid = cluster.submit("true")
    cluster.wait_stat(jobid, "DONE")
    assert cluster.run("bjobs", "-a").rc == 0


def test_reconfig_refuses_a_new_cluster_name_naming_it(make_cluster):
    cluster = make_cluster()
    r = assert_reconfig_refuses(cluster, "name: testclu", "name: other",
                                r"cluster\.name: testclu -> other: needs a "
                                r"controller restart")
    assert "There are fatal errors." in r.err
    assert cluster.run("lsid").out.count("testclu") == 1


def test_mbdrestart_refusal_ends_with_its_own_aborted_line(make_cluster):
    cluster = make_cluster()
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("PRIORITY: 30", "PRIORITY: 0"))
    r = cluster.run("badmin", "mbdrestart")
    assert r.rc == 255 and r.out == "", r
    assert r.err.endswith("\nMBD restart aborted.\n"), r.err


def test_the_controller_does_not_start_on_a_value_out_of_range(
        make_cluster):
    cluster = make_cluster(start=False)
    yaml = cluster.envdir / "xce.yaml"
    yaml.write_text(yaml.read_text().replace("PRIORITY: 30",
                                             "UJOB_LIMIT: -5"))
    proc = subprocess.run(
        [str(BIN / "xce-controller"), "--envdir", str(cluster.envdir), "-f"],
        env=cluster.env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 255 and proc.stdout == "", proc
    assert re.search(r"xce\.yaml:\d+: UJOB_LIMIT: -5: must be a whole number",
                     proc.stderr), proc.stderr
