"""bjobs -o / -json formatting on hand-made job rows (no cluster)."""

import json

import pytest

from xce.client.jobs import format as jobfields
from xce.client.jobs.format import format_fields, parse_format, render_json
from xce.client.text.units import mem_bytes, mem_in_unit
from xce.errors import XceError
from xce.store.schema import JOB_COLUMNS

NOW = 1_700_000_000.0


def row(**kw):
    r = dict.fromkeys(JOB_COLUMNS)
    spec = kw.pop("spec", {})
    r.update(jobid=1, idx=0, stat="PEND", user="alice", queue="normal",
             name="job", command="sleep 1", submit_time=NOW - 100,
             from_host="login1", nslots=1,
             spec=json.dumps(dict({"project": "default", "nslots": [1, 1]},
                                  **spec)))
    r.update(kw)
    return r


RUN = dict(stat="RUN", start_time=NOW - 50, exec_hosts="node1 node1",
           nslots=2, pids="10 11", pgid=10, cpu_time=3.0, max_mem=2048)
DONE = dict(stat="DONE", start_time=NOW - 50, end_time=NOW - 10,
            exec_hosts="node1", exit_code=0, cpu_time=1.5, max_mem=300,
            avg_mem=200)
KILLED = dict(stat="EXIT", start_time=NOW - 50, end_time=NOW - 10,
              exec_hosts="node1", exit_code=130, exit_reason="TERM_OWNER")


def fmt(rows, fields, as_json=False, noheader=False, **kw):
    return format_fields(rows, fields, as_json, noheader, None, {}, now=NOW,
                         **kw)


def test_bare_names_are_unpadded_and_header_is_upper_case():
    out = fmt([row(jobid=12, **RUN)], "jobid stat")
    assert out == "JOBID STAT\n12 RUN"


def test_noheader_gives_only_values_as_snakemake_reads_them():
    out = fmt([row(jobid=7), row(jobid=8, **DONE)], "jobid stat",
              noheader=True)
    assert out == "7 PEND\n8 DONE"


def test_delimiter_separates_columns_and_empty_values_are_dashes():
    out = fmt([row(**RUN)], "jobid stat start_time exit_code "
              "delimiter='|'")
    header, line = out.splitlines()
    assert header == "JOBID|STAT|START_TIME|EXIT_CODE"
    jobid, stat, start, code = line.split("|")
    assert (jobid, stat, code) == ("1", "RUN", "-")
    assert len(start) == 12


def test_aliases_and_case_give_the_full_field_name_in_the_header():
    out = fmt([row()], "ID Name CMD proj")
    assert out.splitlines()[0] == "JOBID JOB_NAME COMMAND PROJ_NAME"
    assert out.splitlines()[1] == "1 job sleep 1 default"


def test_recommended_width_pads_and_explicit_width_truncates():
    out = fmt([row(queue="averyverylongqueue")], "jobid: queue:5 stat")
    assert out.splitlines() == ["JOBID   QUEUE STAT", "1       avery PEND"]


def test_right_justified_width():
    out = fmt([row(jobid=42)], "jobid:-6 stat")
    assert out.splitlines() == [" JOBID STAT", "    42 PEND"]


def test_job_name_is_cut_from_the_front_with_a_star():
    out = fmt([row(name="my_long_job_name")], "job_name:8", noheader=True)
    assert out == "*ob_name"


def test_unknown_field_is_an_error_naming_it():
    with pytest.raises(XceError) as e:
        parse_format("jobid bogus stat")
    assert str(e.value) == \
        "<bogus> in the format string is not a valid field name."
    assert e.value.exit_code == 255


def test_bad_width_is_an_error():
    with pytest.raises(XceError):
        parse_format("jobid:abc")


def test_delimiter_must_be_one_character():
    with pytest.raises(XceError):
        parse_format("jobid stat delimiter='||'")


def test_all_expands_to_every_field():
    columns, _ = parse_format("all")
    assert [c.name for c in columns][:3] == ["jobid", "jobindex", "stat"]
    assert len(columns) == len(jobfields.FIELDS)


def test_exit_code_and_reason_of_a_killed_job():
    out = fmt([row(**KILLED)], "exit_code exit_reason delimiter='|'",
              noheader=True)
    assert out == "130|TERM_OWNER: job killed by owner"


def test_exit_code_is_empty_for_done_and_unfinished_jobs():
    out = fmt([row(**DONE), row(**RUN)], "exit_code", noheader=True)
    assert out == "-\n-"


def test_pend_reason_has_no_leading_space():
    out = fmt([row()], "pend_reason", noheader=True)
    assert out == "New job is waiting for scheduling;"
    hosts = json.dumps([["Not enough job slot(s)", ["a", "b"]]])
    out = fmt([row(pend_reason=hosts)], "pend_reason", noheader=True)
    assert out == "Not enough job slot(s): 2 hosts;"


def test_exec_host_lists_one_entry_per_slot():
    out = fmt([row(**RUN)], "exec_host nexec_host nalloc_slot alloc_slot "
              "delimiter='|'", noheader=True)
    assert out == "node1:node1|1|2|2*node1"


def test_memory_fields_scale_and_take_a_unit():
    out = fmt([row(**RUN)], "max_mem max_mem::MB max_mem:-8:GB "
              "delimiter='|'", noheader=True)
    # "::MB" keeps the recommended width (15) and sets the unit.
    assert out == "2 Mbytes|" + "2.00M".ljust(15) + "|   0.00G"


def test_memory_text_units():
    assert mem_bytes(None) == ""
    assert mem_bytes(900) == "900 Kbytes"
    assert mem_bytes(344 * 1024 + 100) == "344 Mbytes"
    assert mem_bytes(int(2.5 * 1024 ** 2)) == "2.5 Gbytes"
    assert mem_bytes(48 * 1024 ** 2) == "48 Gbytes"
    assert mem_in_unit(10 * 1024, "G") == "0.01G"
    assert mem_in_unit(int(1.5 * 1024 ** 2), "S") == "1.5G"


def test_times_and_durations():
    out = fmt([row(**DONE, spec={"runlimit": 10})],
              "run_time pend_time cpu_used runtimelimit delimiter='|'",
              noheader=True)
    assert out == "40 second(s)|50|00:00:01|10.0"


def test_time_left_and_expected_finish_from_the_run_limit():
    out = fmt([row(**RUN, spec={"runlimit": 10})],
              "time_left finish_time delimiter='|'", noheader=True)
    left, finish = out.split("|")
    assert left == "0:09 L"
    assert finish.endswith(" L")


def test_no_rows_gives_no_text():
    assert fmt([], "jobid stat") == ""


def test_json_layout_is_lsf_s():
    out = fmt([row(jobid=5, **DONE, spec={"cwd": "/home/a"})],
              "jobid stat exit_code exec_cwd", as_json=True)
    assert out == "\n".join([
        "{",
        '  "COMMAND":"bjobs",',
        '  "JOBS":1,',
        '  "RECORDS":[',
        "    {",
        '      "JOBID":"5",',
        '      "STAT":"DONE",',
        '      "EXIT_CODE":"",',
        '      "EXEC_CWD":"\\/home\\/a"',
        "    }",
        "  ]",
        "}"])
    assert json.loads(out)["RECORDS"][0]["EXEC_CWD"] == "/home/a"


def test_json_values_are_all_strings_and_parse():
    out = fmt([row(**RUN), row(jobid=2)],
              "jobid user exit_code stat exit_reason pend_reason slots "
              "max_mem", as_json=True)
    data = json.loads(out)
    assert data["COMMAND"] == "bjobs" and data["JOBS"] == 2
    for record in data["RECORDS"]:
        assert all(isinstance(v, str) for v in record.values())
    assert data["RECORDS"][1]["PEND_REASON"] == \
        "New job is waiting for scheduling;"
    assert data["RECORDS"][0]["SLOTS"] == "2"


def test_json_ignores_widths_and_duplicate_fields():
    out = fmt([row(name="a_long_name")], "name:3 name", as_json=True)
    assert json.loads(out)["RECORDS"] == [{"JOB_NAME": "a_long_name"}]


def test_json_with_nothing_found_and_missing_ids():
    out = fmt([], "jobid stat", as_json=True, missing=["123"])
    data = json.loads(out)
    assert data == {"COMMAND": "bjobs", "JOBS": 1, "RECORDS": [
        {"JOBID": "123", "ERROR": "Job <123> is not found"}]}
    assert json.loads(fmt([], "jobid", as_json=True))["JOBS"] == 0


def test_render_json_escapes_slashes_and_quotes():
    out = render_json([[("COMMAND", 'a/b "c"')]])
    assert '"COMMAND":"a\\/b \\"c\\""' in out


def test_job_priority_is_the_one_bjobs_l_shows():
    jobs = [row(), row(jobid=2, spec={"user_priority": 7})]
    assert fmt(jobs, "job_priority", noheader=True) == "-\n7"
    params = {"MAX_USER_PRIORITY": "10", "JOB_PRIORITY_OVER_TIME": "1/1"}
    ticks = int(NOW // 60) - int((NOW - 100) // 60)
    assert format_fields(jobs, "priority", False, True, None, params,
                         now=NOW) == f"{5 + ticks}\n{7 + ticks}"
