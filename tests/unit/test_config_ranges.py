"""Every numeric key of xce.yaml has a range (xce/config/ranges.py): a value
out of it is a file:line error of the loader, the migrator leaves it out,
and xce.yaml(5) prints the same table."""

import re
from pathlib import Path

import pytest

from xce.config import ranges, restart
from xce.config.load import ConfigError, load

from tests.lib.builders import migrated_site

MAN = Path(__file__).resolve().parents[2] / "man" / "man5" / "xce.yaml.5"
BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
{params}
hosts:
  h1:
    launch: none
{host}
queues:
  normal:
    DESCRIPTION: the queue
{queue}
"""


def _write(tmp_path, params="", host="", queue=""):
    (tmp_path / "xce.yaml").write_text(BASE.format(
        params=params, host=host, queue=queue))


def _errors(tmp_path, **parts):
    _write(tmp_path, **parts)
    with pytest.raises(ConfigError) as e:
        load(tmp_path)
    return e.value.errors


@pytest.mark.parametrize("part, line, message", [
    ("queue", "UJOB_LIMIT: -5", "UJOB_LIMIT: -5: must be a whole number "
     "from 0 to 2147483646 (slots)"),
    ("queue", "QJOB_LIMIT: -1", "QJOB_LIMIT: -1: must be a whole number "
     "from 0 to 2147483646 (slots)"),
    ("queue", "PRIORITY: -30", "PRIORITY: -30: must be a whole number from "
     "1 to 2147483646"),
    ("queue", "NICE: 40", "NICE: 40: must be a whole number from -20 to 20"),
    ("queue", "PJOB_LIMIT: -0.5", "PJOB_LIMIT: -0.5: must be a number, 0 or "
     "more (slots per processor)"),
    ("host", "MXJ: -4", "MXJ: -4: must be a whole number from 0 to "
     "2147483646 or ! (slots)"),
    ("host", "ssh_timeout: -1", "ssh_timeout: -1: must be a number above 0, "
     "at most 3600 (seconds)"),
    ("host", "port: 70000", "port: 70000: must be a whole number from 1 to "
     "65535"),
    ("params", "CLEAN_PERIOD: -1", "CLEAN_PERIOD: -1: must be a whole number "
     "from 1 to 2147483646 (seconds)"),
    # 0 would forget (and move out of the store) a job as it ends.
    ("params", "CLEAN_PERIOD: 0", "CLEAN_PERIOD: 0: must be a whole number "
     "from 1 to 2147483646 (seconds)"),
    ("params", "MAX_JOB_ARRAY_SIZE: -1", "MAX_JOB_ARRAY_SIZE: -1: must be a "
     "whole number from 1 to 2147483646 (elements)"),
    ("params", "MAX_JOBID: 5", "MAX_JOBID: 5: must be a whole number from "
     "999999 to 2147483646"),
    ("params", "JOB_TERMINATE_INTERVAL: -10", "JOB_TERMINATE_INTERVAL: -10: "
     "must be a whole number from 0 to 2147483646 (seconds)"),
    ("params", "XCE_HOST_LOST_GRACE: -300", "XCE_HOST_LOST_GRACE: -300: must "
     "be a whole number from 0 to 2147483646 (seconds)"),
    ("params", "XCE_REQUEST_TIMEOUT: 0", "XCE_REQUEST_TIMEOUT: 0: must be a "
     "number above 0, at most 86400 (seconds)"),
    ("params", "XCE_LOAD_PASS_INTERVAL: 3601", "XCE_LOAD_PASS_INTERVAL: "
     "3601: must be a number from 0 to 3600 (seconds)"),
    ("params", "XCE_LOAD_PASS_INTERVAL: soon", "XCE_LOAD_PASS_INTERVAL: "
     "soon: must be a number from 0 to 3600 (seconds)"),
    ("params", "HIST_HOURS: .inf", "HIST_HOURS: inf: must be a number, 0 or "
     "more (hours)"),
])
def test_a_value_out_of_its_range_names_file_line_and_key(
        tmp_path, part, line, message):
    indent = "  " if part == "params" else "    "
    errors = _errors(tmp_path, **{part: indent + line})
    path = tmp_path / "xce.yaml"
    row = path.read_text().splitlines().index(indent + line) + 1
    assert errors == [f"{path}:{row}: {message}"]


@pytest.mark.parametrize("value", [
    "1" * 40, "'３'", "'1_000'", "true", "2.5", "'0x10'"])
def test_a_count_is_ascii_digits_within_the_range(tmp_path, value):
    errors = _errors(tmp_path, queue=f"    UJOB_LIMIT: {value}")
    assert len(errors) == 1 and ": UJOB_LIMIT: " in errors[0], errors


def test_the_bounds_themselves_and_unset_values_are_taken(tmp_path):
    _write(tmp_path, params="  MAX_JOB_ARRAY_SIZE: 2147483646\n"
           "  MAX_JOBID: 999999\n  CLEAN_PERIOD: '-'\n  HIST_HOURS: 0.5",
           host="    MXJ: '!'\n    port: 65535",
           queue="    UJOB_LIMIT: 0\n    NICE: -20\n    QJOB_LIMIT: '-'")
    cfg = load(tmp_path)
    assert cfg.params["MAX_JOB_ARRAY_SIZE"] == 2147483646
    assert cfg.queues["normal"].ujob_limit == 0
    assert cfg.queues["normal"].qjob_limit is None


@pytest.mark.parametrize("value", ["0", "'10 5'", "'-1'", "'1:99'",
                                   "'99999999999999999999'", "'１０'"])
def test_a_run_limit_is_above_0_with_its_default_not_above_its_maximum(
        tmp_path, value):
    errors = _errors(tmp_path, queue=f"    RUNLIMIT: {value}")
    assert len(errors) == 1 and ": RUNLIMIT: " in errors[0], errors


@pytest.mark.parametrize("value", ["0", "'-5'", "'1' + '0' * 40", "'4Q'"])
def test_a_memory_limit_is_above_0_and_not_beyond_2_to_the_53_kb(
        tmp_path, value):
    value = eval(value) if "+" in value else value
    errors = _errors(tmp_path, queue=f"    MEMLIMIT: {value}")
    assert len(errors) == 1 and ": MEMLIMIT: " in errors[0], errors


def test_only_the_first_problem_of_a_key_is_reported(tmp_path):
    errors = _errors(tmp_path, queue="    UJOB_LIMIT: lots")
    assert len(errors) == 1 and "'lots' is not a whole number" in errors[0]


def test_the_man_page_prints_the_table_of_ranges():
    text = MAN.read_text()
    block = re.search(r'\.\\" ranges begin\n(.*?)\.\\" ranges end', text,
                      re.S)
    assert block, "xce.yaml.5 has no ranges block"
    expected = "\n".join(ranges.man_lines()) + "\n"
    assert block.group(1) == expected, (
        "xce.yaml.5's table of ranges differs from xce.config.ranges; "
        "put these lines between the markers:\n" + expected)


def test_the_keys_named_in_the_lsf_documentation_have_ranges():
    for scope, names in (
            ("queue", "PRIORITY UJOB_LIMIT QJOB_LIMIT HJOB_LIMIT NICE"),
            ("host", "MXJ JL/U"), ("user", "MAX_JOBS"),
            ("params", "CLEAN_PERIOD MAX_JOB_ARRAY_SIZE MAX_JOBID "
             "JOB_TERMINATE_INTERVAL MBD_SLEEP_TIME MAX_JOB_NUM")):
        for name in names.split():
            assert ranges.range_of(scope, name) is not None, (scope, name)


def test_the_migrator_leaves_out_a_value_out_of_its_range(tmp_path):
    result = migrated_site(tmp_path, {
        "lsb.params": "Begin Parameters\nCLEAN_PERIOD = -1\n"
                      "MAX_JOB_ARRAY_SIZE = 5000\nEnd Parameters\n",
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = -30\n"
                      "UJOB_LIMIT = 4\nEnd Queue\n"})
    assert "CLEAN_PERIOD" not in result.tree["parameters"]
    assert result.tree["parameters"]["MAX_JOB_ARRAY_SIZE"] == 5000
    assert "PRIORITY" not in result.tree["queues"]["normal"]
    assert result.tree["queues"]["normal"]["UJOB_LIMIT"] == 4
    load(tmp_path / "etc")      # what was carried loads


def _two_configs(tmp_path, before, after):
    configs = []
    for n, text in enumerate((before, after)):
        where = tmp_path / str(n)
        where.mkdir()
        (where / "xce.yaml").write_text(text)
        configs.append(load(where))
    return configs


def test_restart_keys_are_named_with_their_line(tmp_path):
    text = BASE.format(params="", host="    address: 10.0.0.1", queue="")
    moved = text.replace("name: c", "name: d").replace(
        "10.0.0.1", "10.0.0.2") + "  short:\n    PRIORITY: 3\n"
    old, new = _two_configs(tmp_path, text, moved)
    errors = restart.changed(old, new)
    assert [e.split(": ")[1] for e in errors] == [
        "cluster.name", "hosts.h1.address"]
    assert errors[0].startswith(f"{new.path}:2: cluster.name: c -> d: ")
    assert re.match(rf"{re.escape(str(new.path))}:\d+: hosts\.h1\.address: "
                    r"10\.0\.0\.1 -> 10\.0\.0\.2: needs a controller restart",
                    errors[1])


def test_a_new_queue_or_host_needs_no_restart(tmp_path):
    text = BASE.format(params="", host="", queue="")
    more = text.replace("hosts:\n", "hosts:\n  h2:\n    launch: none\n") + \
        "  short:\n    PRIORITY: 3\n"
    old, new = _two_configs(tmp_path, text, more)
    assert restart.changed(old, new) == []
