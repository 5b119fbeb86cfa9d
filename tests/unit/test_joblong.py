"""bjobs -l text on hand-made job rows (no cluster)."""

import json
import re

from xce.client.jobs import long as joblong
from xce.client.jobs.long import SEPARATOR, long_format
from xce.client.text.units import long_time
from xce.client.text.wrap import unwrap, wrap
from xce.store.schema import JOB_COLUMNS

NOW = 1_700_000_000.0


def row(**kw):
    r = dict.fromkeys(JOB_COLUMNS)
    spec = {"project": "default", "nslots": [1, 1], "subcwd": "/scratch/p",
            "cwd": "/scratch/p"}
    spec.update(kw.pop("spec", {}))
    r.update(jobid=1, idx=0, stat="PEND", user="nosuchuser_xce",
             queue="normal", name="sleep 1", command="sleep 1",
             submit_time=NOW - 100, from_host="login1", nslots=1,
             spec=json.dumps(spec))
    r.update(kw)
    return r


RUN = dict(stat="RUN", start_time=NOW - 50, exec_hosts="node1 node1 node2",
           nslots=3, pids="10 11 12", pgid=10, cpu_time=53.7, max_mem=352256)


def lines_of(r, **kw):
    return unwrap(long_format([r], None, {}, now=NOW, **kw)).splitlines()


def test_wrap_cuts_after_79_with_21_space_continuations():
    line = "x" * 79 + "y" * 58 + "z" * 3
    text = wrap(line)
    assert text.splitlines() == ["x" * 79, " " * 21 + "y" * 58,
                                 " " * 21 + "zzz"]
    assert unwrap(text) == line
    assert wrap("short") == "short"


def test_every_physical_line_fits_and_unwrapping_round_trips():
    r = row(name="toil_job_64", command="_toil_worker " + "a/" * 80,
            spec={"name": "toil_job_64", "stdout": "/tmp/" + "o" * 90,
                  "resreq": ["select[(mem>4000)] rusage[mem=4000]"]},
            **RUN)
    text = long_format([r], None, {}, now=NOW)
    assert all(len(line) <= 79 for line in text.splitlines())
    record = joblong.job_record(r, None, NOW)
    logical = [joblong.header_line(r, json.loads(r["spec"])),
               joblong.submitted_line(r, json.loads(r["spec"]), None)]
    assert unwrap(record).splitlines()[1:3] == logical


def test_header_fields_in_lsf_order():
    r = row(name="myjob", spec={"name": "myjob", "user_priority": 50})
    assert lines_of(r)[1] == (
        "Job <1>, Job Name <myjob>, User <nosuchuser_xce>, Project <default>,"
        " Status <PEND>, Queue <normal>, Job Priority <50>, Command <sleep 1>")


def test_a_job_started_in_a_fairshare_queue_shows_its_charged_account():
    # LSF: "Share group charged </top/.../user>" after the command.
    r = row(spec={"user_group": "big", "share_group": "small",
                  "share_path": ["small", "nosuchuser_xce"]}, **RUN)
    assert lines_of(r)[1] == (
        "Job <1>, User <nosuchuser_xce>, Project <default>, User Group <big>,"
        " Status <RUN>, Queue <normal>, Command <sleep 1>, Share group "
        "charged </small/nosuchuser_xce>")
    assert "Share group charged" not in lines_of(row())[1]


def _priority(r, params):
    line = unwrap(long_format([r], None, params, now=NOW)).splitlines()[1]
    found = re.search(r"Job Priority <(\d+)>", line)
    return found and int(found.group(1))


def test_priority_is_the_default_and_rises_while_the_job_pends():
    params = {"MAX_USER_PRIORITY": "10"}
    assert _priority(row(), {}) is None
    assert _priority(row(), params) == 5
    params["JOB_PRIORITY_OVER_TIME"] = "2/1"
    # Submitted 100 s before NOW: one or two whole minutes have ticked.
    ticks = int(NOW // 60) - int((NOW - 100) // 60)
    assert _priority(row(spec={"user_priority": 3}), params) == 3 + 2 * ticks
    # Started 50 s before NOW: it rose no further then.
    ran = int((NOW - 50) // 60) - int((NOW - 100) // 60)
    assert _priority(row(spec={"user_priority": 3}, **RUN), params) == \
        3 + 2 * ran
    # bmod -sp sets it anew, counted from then.
    assert _priority(row(spec={"user_priority": 7,
                               "user_priority_time": NOW}), params) == 7


def test_no_job_name_item_without_a_user_given_name():
    assert "Job Name" not in lines_of(row())[1]


def test_submission_line_items():
    r = row(spec={"stdout": "out.%J", "stderr": "err.%J", "stderr_mode": "w",
                  "stdin": "in.txt", "specified_cwd": "/w", "hold": True,
                  "nslots": [4, 4], "resreq": ["span[hosts=1]"]})
    assert lines_of(r)[2] == (
        f"{long_time(NOW - 100)}: Submitted from host <login1> with hold, "
        "CWD </scratch/p>, Specified CWD </w>, Input File <in.txt>, "
        "Output File <out.%J>, Error File (overwrite) <err.%J>, 4 Task(s), "
        "Requested Resources <span[hosts=1]>;")


def test_cwd_under_home_is_shown_as_home(monkeypatch):
    monkeypatch.setattr(joblong.jv, "home_of", lambda user: "/home/alice")
    r = row(user="alice", spec={"subcwd": "/home/alice/proj"})
    assert "CWD <$HOME/proj>" in lines_of(r)[2]


def test_pending_job_shows_pending_reasons_with_host_names():
    reasons = json.dumps([["Not enough job slot(s)", ["hostA", "hostB"]]])
    lines = lines_of(row(pend_reason=reasons))
    i = lines.index(" PENDING REASONS:")
    assert lines[i + 1] == " Not enough job slot(s): hostA, hostB;"
    assert not any("Started" in line for line in lines)


def test_new_job_reason():
    assert " New job is waiting for scheduling;" in lines_of(row())


def test_running_job_start_and_usage_lines():
    lines = lines_of(row(**RUN))
    assert lines[3] == (
        f"{long_time(NOW - 50)}: Started 3 Task(s) on Host(s) <2*node1> "
        "<node2>, Allocated 3 Slot(s) on Host(s) <2*node1> <node2>, "
        "Execution CWD </scratch/p>;")
    assert lines[4].startswith(f"{long_time(NOW)}: Resource usage collected.")
    # these indented lines join the previous one once unwrapped, as in LSF
    text = long_format([row(**RUN)], None, {}, now=NOW)
    assert " " * 21 + "The CPU time used is 53 seconds." in text
    assert " " * 21 + "MEM: 344 Mbytes" in text
    assert " " * 21 + "PGID: 10;  PIDs: 10 11 12" in text
    assert "Status <RUN>" in unwrap(text)


def test_spool_output_path_when_no_output_file_was_given():
    r = row(outfile="/spool/output/u/1.out", **RUN)
    assert "Output File (spool) </spool/output/u/1.out>" in \
        unwrap(long_format([r], None, {}, now=NOW))
    r = row(outfile="o.txt", spec={"stdout": "o.txt"}, **RUN)
    assert "(spool)" not in long_format([r], None, {}, now=NOW)


def test_output_that_went_to_the_fallback_file_is_said_after_the_start():
    moved = {"stdout": {"file": "/root/x", "reason": "Permission denied"},
             "to": "/spool/output/u/1.out"}
    lines = lines_of(row(spec={"stdout": "/root/x",
                               "output_fallback": moved}, **RUN))
    assert lines[4] == (
        f"{long_time(NOW - 50)}: Output file </root/x> could not be opened "
        "(Permission denied); the job's output was written to "
        "</spool/output/u/1.out> instead.")


def test_done_job_lines_and_memory_usage():
    r = row(stat="DONE", start_time=NOW - 50, end_time=NOW - 10,
            exec_hosts="node1", exit_code=0, cpu_time=1.25,
            max_mem=int(2.5 * 1024 ** 2), avg_mem=343 * 1024)
    text = unwrap(long_format([r], None, {}, now=NOW))
    end = long_time(NOW - 10)
    assert f"{end}: Done successfully. The CPU time used is 1.2 seconds." \
        in text.splitlines()
    assert f"{end}: Completed <done>." in text.splitlines()
    assert "\n MEMORY USAGE:\n MAX MEM: 2.5 Gbytes;  AVG MEM: 343 Mbytes\n" \
        in text
    assert re.search(r"MAX MEM: (.*?);", text).group(1) == "2.5 Gbytes"


def test_killed_job_lines():
    r = row(stat="EXIT", start_time=NOW - 50, end_time=NOW - 10,
            exec_hosts="node1", exit_code=130, cpu_time=0.3,
            exit_reason="TERM_OWNER")
    lines = lines_of(r)
    end = long_time(NOW - 10)
    assert f"{end}: Exited with exit code 130. The CPU time used is 0.3 " \
        "seconds." in lines
    assert f"{end}: Completed <exit>; TERM_OWNER: job killed by owner." \
        in lines


def test_job_killed_while_pending_has_no_cpu_time():
    r = row(stat="EXIT", end_time=NOW - 10, exit_reason="TERM_OWNER")
    lines = lines_of(r)
    assert f"{long_time(NOW - 10)}: Exited." in lines
    assert not any("Started" in line for line in lines)


def test_limit_blocks():
    lines = lines_of(row(spec={"runlimit": 10085, "memlimit": 4000 * 1024}))
    i = lines.index(" RUNLIMIT                ")
    assert lines[i + 1] == " 10085.0 min"
    i = lines.index(" MEMLIMIT")
    assert lines[i + 1] == "      3.9 G"


def test_queue_run_limit_applies_when_the_job_has_none():
    r = row()
    text = joblong.job_record(r, {"runlimit": [60.0, 60.0]}, NOW)
    assert "\n 60.0 min\n" in text


def test_records_are_separated_by_78_dashes():
    text = long_format([row(jobid=1), row(jobid=2)], None, {}, now=NOW)
    assert text.startswith("\nJob <1>,")
    assert f"\n{SEPARATOR}\n\nJob <2>," in text
    assert len(SEPARATOR) == 78 and set(SEPARATOR) == {"-"}
    assert text.count(SEPARATOR) == 1
