"""bjobs -l, -o and -json end to end, through a real controller and agent."""

import json
import re

from xce.client.text.wrap import unwrap


def _long(cluster, jobid):
    r = cluster.run("bjobs", "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.out


def test_long_format_of_a_done_job(cluster):
    jobid = cluster.submit("-J", "longdone", "-o", "out.%J", "-W", "10",
                           "-M", "102400", "echo hi")
    cluster.wait_stat(jobid, "DONE")
    out = _long(cluster, jobid)
    assert out.startswith(f"\nJob <{jobid}>, Job Name <longdone>, User <")
    text = unwrap(out)
    assert "Project <default>, Status <DONE>, Queue <normal>, " \
        "Command <echo hi>" in text
    assert re.search(r"\n\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d: Submitted from "
                     r"host <[^>]+>, CWD <[^>]+>, Output File <out.%J>;\n",
                     text)
    assert re.search(r": Started 1 Task\(s\) on Host\(s\) <[^>]+>, Allocated "
                     r"1 Slot\(s\) on Host\(s\) <[^>]+>, Execution Home <",
                     text)
    assert re.search(r": Done successfully\. The CPU time used is "
                     r"\d+\.\d seconds\.\n", text)
    assert re.search(r": Completed <done>\.\n", text)
    assert "\n RUNLIMIT                \n 10.0 min\n" in text
    assert "\n MEMLIMIT\n      100 M\n" in text


def test_long_format_of_a_killed_running_job(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    text = unwrap(_long(cluster, jobid))
    assert "Status <RUN>" in text
    # no -o: the spool path of the output is shown
    assert re.search(r"Output File \(spool\) <[^>]*/%s\.out>" % jobid, text)
    r = cluster.run("bkill", str(jobid))
    assert r.rc == 0, r
    cluster.wait_stat(jobid, "EXIT")
    text = unwrap(_long(cluster, jobid))
    assert "Status <EXIT>" in text
    assert re.search(r": Exited with exit code \d+\. The CPU time used is ",
                     text)
    assert re.search(r": Completed <exit>; TERM_OWNER: job killed by "
                     r"owner\.\n", text)


def test_long_format_of_pending_and_held_jobs(make_cluster):
    cluster = make_cluster(mxj=1)
    running = cluster.submit("sleep 60")
    cluster.wait_stat(running, "RUN")
    pending = cluster.submit("true")
    held = cluster.submit("-H", "true")
    cluster.wait_stat(held, "PSUSP")
    text = unwrap(_long(cluster, pending))
    assert "Status <PEND>" in text
    assert "\n PENDING REASONS:\n " in text
    assert "Started" not in text
    text = unwrap(_long(cluster, held))
    assert "Submitted from host <" in text and " with hold, CWD <" in text
    assert "\n PENDING REASONS:\n The job was suspended by the user while " \
        "pending;\n" in text
    r = cluster.run("bjobs", "-l", str(pending), str(held))
    assert r.rc == 0 and r.out.count("\n" + "-" * 78 + "\n") == 1


def test_long_format_wraps_at_79_and_unwraps_exactly(cluster):
    command = "echo " + "word" * 40
    name = "n" * 70
    jobid = cluster.submit("-J", name, "-o", "/dev/null", command)
    cluster.wait_stat(jobid, "DONE")
    out = _long(cluster, jobid)
    assert max(len(line) for line in out.splitlines()) == 79
    assert all(line.startswith(" " * 21) for line in out.splitlines()[2:4])
    assert f"Job Name <{name}>" in unwrap(out)
    assert f"Command <{command}>" in unwrap(out)


def test_custom_fields_with_delimiter(cluster):
    jobid = cluster.submit("-J", "fmtjob", "-o", "/dev/null", "exit 3")
    cluster.wait_stat(jobid, "EXIT")
    r = cluster.run("bjobs", "-o", "jobid stat start_time exit_code name "
                    "delimiter='|'", str(jobid))
    assert r.rc == 0 and r.err == "", r
    header, line = r.out.splitlines()
    assert header == "JOBID|STAT|START_TIME|EXIT_CODE|JOB_NAME"
    fields = line.split("|")
    assert fields[0:2] == [str(jobid), "EXIT"]
    assert re.fullmatch(r"\w{3} [ \d]\d \d\d:\d\d", fields[2])
    assert fields[3:] == ["3", "fmtjob"]


def test_noheader_jobid_stat_by_name_as_snakemake_asks(cluster):
    a = cluster.submit("-J", "smk-1234-uuid-a", "true")
    b = cluster.submit("-J", "smk-1234-uuid-b", "exit 1")
    cluster.submit("-J", "other", "true")
    cluster.wait_stat(a, "DONE")
    cluster.wait_stat(b, "EXIT")
    r = cluster.run("bjobs", "-noheader", "-o", "jobid stat", "-aJ",
                    "*1234-uuid*")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == f"{a} DONE\n{b} EXIT\n"


def test_json_for_toil_status_polling(cluster):
    jobid = cluster.submit("sleep 60")
    cluster.wait_stat(jobid, "RUN")
    r = cluster.run("bjobs", "-json", "-o", "jobid stat start_time",
                    str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    assert r.out.startswith('{\n  "COMMAND":"bjobs",\n  "JOBS":1,\n'
                            '  "RECORDS":[\n    {\n')
    data = json.loads(r.out)
    record = data["RECORDS"][0]
    assert list(record) == ["JOBID", "STAT", "START_TIME"]
    assert record["JOBID"] == str(jobid) and record["STAT"] == "RUN"
    assert re.fullmatch(r"\w{3} [ \d]\d \d\d:\d\d", record["START_TIME"])


def test_json_for_toil_exit_status(cluster):
    jobid = cluster.submit("exit 7")
    cluster.wait_stat(jobid, "EXIT")
    fields = "jobid user exit_code stat exit_reason pend_reason"
    r = cluster.run("bjobs", "-json", "-o", fields, str(jobid))
    assert (r.rc, r.err) == (0, ""), r
    record = json.loads(r.out)["RECORDS"][0]
    assert record == {"JOBID": str(jobid), "USER": record["USER"],
                      "EXIT_CODE": "7", "STAT": "EXIT", "EXIT_REASON": "",
                      "PEND_REASON": ""}
    assert '"EXIT_CODE":"7",' in r.out


def test_json_pend_reason_of_a_held_job(cluster):
    jobid = cluster.submit("-H", "true")
    cluster.wait_stat(jobid, "PSUSP")
    r = cluster.run("bjobs", "-json", "-o",
                    "jobid user exit_code stat exit_reason pend_reason",
                    str(jobid))
    record = json.loads(r.out)["RECORDS"][0]
    assert record["STAT"] == "PSUSP" and record["EXIT_CODE"] == ""
    assert record["PEND_REASON"] == \
        "The job was suspended by the user while pending;"


def test_unknown_field_is_an_error_with_exit_255(cluster):
    r = cluster.run("bjobs", "-a", "-o", "jobid nosuchfield")
    assert r.rc == 255
    assert r.out == ""
    assert r.err == \
        "<nosuchfield> in the format string is not a valid field name.\n"
