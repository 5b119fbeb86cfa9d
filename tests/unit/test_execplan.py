"""The queue keys around a job's execution, from lsb.queues through the
migrator and the xce.yaml loader to the one place that orders them."""

import pytest

from xce.config import keys
from xce.config.load import ConfigError, load
from xce.config.migrate import migrate
from xce.controller import execplan

QUEUES = """\
Begin Queue
QUEUE_NAME = wrapped
PRIORITY = 30
PRE_EXEC = /bin/echo "pre %J"
POST_EXEC = /usr/local/bin/clean --job %J
HOST_PRE_EXEC = /sbin/health
HOST_POST_EXEC = /sbin/tidy
JOB_STARTER = sh -c "ulimit -c 0; %USRCMD"
PRE_POST_EXEC_USER = root
LOCAL_MAX_PREEXEC_RETRY = 3
LOCAL_MAX_PREEXEC_RETRY_ACTION = EXIT
End Queue
"""


def _site(tmp_path, queues=QUEUES):
    site = tmp_path / "lsf"
    site.mkdir()
    (site / "lsb.queues").write_text(queues)
    (site / "lsb.params").write_text(
        "Begin Parameters\nDEFAULT_QUEUE = wrapped\nEnd Parameters\n")
    return site


def test_the_migrator_carries_them_as_enforced():
    for name in ("PRE_EXEC", "POST_EXEC", "HOST_PRE_EXEC", "HOST_POST_EXEC",
                 "JOB_STARTER", "PRE_POST_EXEC_USER",
                 "LOCAL_MAX_PREEXEC_RETRY",
                 "LOCAL_MAX_PREEXEC_RETRY_ACTION"):
        assert keys.lookup("queue", name).status == keys.ENFORCED, name
    assert keys.lookup("params", "MAX_PREEXEC_RETRY").status == \
        keys.NOT_CARRIED


def test_migrated_keys_load_and_run_in_lsf_order(tmp_path):
    target = tmp_path / "etc"
    migrate(str(_site(tmp_path)), str(target))
    cfg = load(target)
    q = cfg.queues["wrapped"]
    assert q.exec_commands["PRE_EXEC"] == '/bin/echo "pre %J"'
    assert q.prepost_user == "root"
    job = {"queue": "wrapped", "jobid": 7, "idx": 2,
           "spec": {"pre_exec": "mine %J", "post_exec": "after",
                    "login_shell": "/bin/bash"}}
    plan = execplan.start_fields(cfg, job)
    assert [(s["level"], s["cmd"], s["user"]) for s in plan["pre"]] == [
        ("host", "/sbin/health", "root"), ("queue", '/bin/echo "pre 7"',
                                           "root"), ("job", "mine 7", None)]
    assert [(s["level"], s["user"]) for s in plan["post"]] == [
        ("job", None), ("queue", "root"), ("host", "root")]
    assert plan["starter"] == 'sh -c "ulimit -c 0; %USRCMD"'
    assert plan["login_shell"] == "/bin/bash"
    assert execplan.retry_limit(cfg, "wrapped") == (3, "EXIT")


def test_a_plain_job_in_a_plain_queue_has_nothing_around_it(tmp_path):
    target = tmp_path / "etc"
    migrate(str(_site(tmp_path, "Begin Queue\nQUEUE_NAME = wrapped\n"
                                "End Queue\n")), str(target))
    cfg = load(target)
    job = {"queue": "wrapped", "jobid": 1, "idx": 0, "spec": {}}
    assert execplan.start_fields(cfg, job) == {}
    assert execplan.retry_limit(cfg, "wrapped") == (
        execplan.RETRY_UNLIMITED, "SUSPEND")


@pytest.mark.parametrize("line, word", [
    ("LOCAL_MAX_PREEXEC_RETRY_ACTION: SOMETIMES", "SOMETIMES"),
    ("PRE_POST_EXEC_USER: two users", "two users"),
    ("LOCAL_MAX_PREEXEC_RETRY: 0", "LOCAL_MAX_PREEXEC_RETRY"),
    ("PRE_EXEC: ''", "PRE_EXEC")])
def test_bad_values_are_refused_with_file_line_and_key(tmp_path, line, word):
    (tmp_path / "xce.yaml").write_text(
        "cluster:\n  name: c\nqueues:\n  normal:\n    PRIORITY: 30\n"
        f"    {line}\n")
    with pytest.raises(ConfigError) as e:
        load(tmp_path)
    [error] = e.value.errors
    assert "xce.yaml:6" in error and word in error, error
