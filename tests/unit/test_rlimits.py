"""The limits of bsub -c -v -S -F -D -C -p -T: reading values, the queue's
pairs, CPU normalisation, what the agent is sent and what it does."""

import signal
from types import SimpleNamespace

import pytest

from xce.agent import rlimits as agent
from xce.controller import rlimits as ctl
from xce.lang import rlimits
from xce.store.lsbfields import limit_values


def _limit(name):
    return rlimits.BY_NAME[name]


@pytest.mark.parametrize("name, value, unit, expected", [
    ("FILELIMIT", "100", "KB", 100), ("FILELIMIT", "2", "MB", 2048),
    ("DATALIMIT", "1G", "KB", 1024 ** 2), ("CORELIMIT", "0", "KB", 0),
    ("PROCESSLIMIT", "4", "KB", 4), ("CPULIMIT", "1:30", "KB", (90.0, None)),
    ("CPULIMIT", "10/hostA", "KB", (10.0, "hostA"))])
def test_job_values_in_their_units(name, value, unit, expected):
    assert rlimits.job_value(_limit(name), value, unit) == expected


@pytest.mark.parametrize("name, value, key", [
    ("FILELIMIT", "0", "LIMIT_NOT_POSITIVE"),
    ("STACKLIMIT", "１０", "LIMIT_NOT_POSITIVE"),     # full-width digits
    ("THREADLIMIT", "1e3", "LIMIT_NOT_POSITIVE"),
    ("PROCESSLIMIT", "2147483648", "LIMIT_TOO_BIG"),
    ("CPULIMIT", "2:90", "LIMIT_BAD_SPEC"),
    ("CPULIMIT", "0.5", "LIMIT_BAD_SPEC"),           # fractions not asked
    ("CPULIMIT", "0", "LIMIT_NOT_POSITIVE"),
    ("CPULIMIT", "99999999", "LIMIT_TOO_BIG")])
def test_bad_job_values_name_the_catalogue_text(name, value, key):
    with pytest.raises(rlimits.LimitError) as e:
        rlimits.job_value(_limit(name), value)
    assert (e.value.key, e.value.name, e.value.value) == (key, name, value)


def test_queue_values_are_default_and_maximum():
    assert rlimits.queue_value(_limit("PROCESSLIMIT"), "5 10") == [5, 10]
    assert rlimits.queue_value(_limit("SWAPLIMIT"), "2G") == [2 ** 21] * 2
    assert rlimits.queue_value(_limit("CPULIMIT"), "0.5 10/m1") == [
        (0.5, None), (10.0, "m1")]
    assert rlimits.queue_value(_limit("FILELIMIT"), "-") is None
    for name, value, key in (("FILELIMIT", "1 2", "LIMIT_ONE_VALUE"),
                             ("DATALIMIT", "9 2", "LIMIT_DEFAULT_ABOVE_MAX")):
        with pytest.raises(rlimits.LimitError) as e:
            rlimits.queue_value(_limit(name), value)
        assert e.value.key == key


def _cfg(models=None, hosts=None, params=None):
    return SimpleNamespace(
        raw={"host_models": models or {}}, params=params or {},
        hosts={name: SimpleNamespace(model=model)
               for name, model in (hosts or {}).items()})


def _queue(rl=None, **raw):
    return SimpleNamespace(rlimits=rl or {}, raw=raw)


class Refused(Exception):
    pass


def test_cpu_time_is_normalised_by_cpu_factors():
    cfg = _cfg({"fast": 4.0, "slow": 1.0}, {"a": "fast", "b": "slow"})
    q = _queue()
    # Without a host the fastest host normalises: 10 min there is 40 on b.
    assert ctl.cpu_seconds(cfg, q, {"cpulimit": 10}, "b") == 2400
    assert ctl.cpu_seconds(cfg, q, {"cpulimit": 10}, "a") == 600
    spec = {"cpulimit": 10, "cpulimit_host": "slow"}
    assert ctl.cpu_seconds(cfg, q, spec, "a") == 150
    # The queue's DEFAULT_HOST_SPEC wins over the fastest host.
    assert ctl.cpu_seconds(cfg, _queue(DEFAULT_HOST_SPEC="b"),
                           {"cpulimit": 10}, "b") == 600


def test_queue_defaults_fill_and_maximums_refuse():
    cfg = _cfg()
    q = _queue({"filelimit": [200, 200], "processlimit": [5, 10],
                "cpulimit": [[10.0, None], [20.0, None]]})
    spec = {}
    ctl.check(cfg, q, spec, Refused)
    assert spec == {"filelimit": 200, "processlimit": 5, "cpulimit": 10.0}
    for over in ({"processlimit": 11}, {"cpulimit": 21.0}):
        with pytest.raises(Refused, match="Cannot exceed queue's hard"):
            ctl.check(cfg, q, dict(over), Refused)
    with pytest.raises(Refused, match="nohost: Bad host specification"):
        ctl.check(cfg, q, {"cpulimit": 1, "cpulimit_host": "nohost"}, Refused)


def test_the_agent_gets_soft_and_hard_limits_in_bytes():
    q = _queue({"filelimit": [200, 200]})
    sent = ctl.agent_limits(_cfg(), q, {"filelimit": 100, "corelimit": 0,
                                        "cpulimit": 0.5, "processlimit": 3},
                            "h")
    assert sent == {"cpulimit": 30.0, "processlimit": 3, "setrlimit": [
        ["cpu", 30, None], ["fsize", 102400, 204800], ["core", 0, None]]}
    if agent.os.geteuid() == 0:
        assert agent.prlimit_argv(sent) == [
            agent.PRLIMIT, "--cpu=30:", "--fsize=102400:204800", "--core=0:",
            "--"]
    assert agent.prlimit_argv({"processlimit": 3}) == []


@pytest.mark.parametrize("mode, whole_job, per_process", [
    (None, True, True), ("y", True, False), ("N", False, True),
    (True, True, False)])
def test_lsb_job_cpulimit_picks_who_enforces_the_cpu_limit(
        mode, whole_job, per_process):
    """Unset: the agent checks the job's summed CPU time and setrlimit
    caps each process; Y: the job as a whole only; N: each process only."""
    cfg = _cfg(params={} if mode is None else {"LSB_JOB_CPULIMIT": mode})
    sent = ctl.agent_limits(cfg, _queue(), {"cpulimit": 0.5}, "h")
    assert ("cpulimit" in sent) == whole_job
    assert (["cpu", 30, None] in sent.get("setrlimit", [])) == per_process


def test_whole_job_limits_give_lsf_reasons_and_signals():
    limits = {"cpulimit": 3, "processlimit": 2, "threadlimit": 4,
              "swaplimit": 1000}
    assert agent.exceeded(limits, {"cpu": 2, "job_procs": 2}) is None
    assert agent.exceeded(limits, {"cpu": 3.5}) == "TERM_CPULIMIT"
    assert agent.exceeded(limits, {"job_procs": 3}) == "TERM_PROCESSLIMIT"
    assert agent.exceeded(limits, {"job_threads": 5}) == "TERM_THREADLIMIT"
    assert agent.exceeded(limits, {"vsize": 1001}) == "TERM_SWAP"
    assert agent.kill_signals("TERM_CPULIMIT")[0] == signal.SIGXCPU
    assert agent.kill_signals("TERM_SWAP")[0] == signal.SIGINT
    assert agent.reason_of_exit(limits, 128 + signal.SIGXCPU) == \
        "TERM_CPULIMIT"
    assert agent.reason_of_exit({}, 128 + signal.SIGXCPU) is None


def test_lsb_events_rlimits_hold_the_limits():
    values = limit_values({"cpulimit": 2, "filelimit": 10, "corelimit": 0,
                           "swaplimit": 40, "processlimit": 7,
                           "threadlimit": 9})
    assert values == [120, 10, -1, -1, 0, -1, -1, -1, 40, -1, 7]


@pytest.mark.parametrize("line, message", [
    ("FILELIMIT: 1 2", "FILELIMIT: 1 2: FILELIMIT takes one value, the hard "
     "limit"),
    ("PROCESSLIMIT: 9 2", "PROCESSLIMIT: 9 2: the default PROCESSLIMIT is "
     "above the maximum"),
    ("THREADLIMIT: lots", "THREADLIMIT: lots: THREADLIMIT value should be a "
     "positive integer"),
    ("CPULIMIT: 10/nohost", "CPULIMIT: nohost: Bad host specification")])
def test_the_loader_refuses_bad_queue_limits(tmp_path, line, message):
    from tests.unit.test_config_ranges import _errors
    errors = _errors(tmp_path, queue="    " + line)
    assert len(errors) == 1 and errors[0].endswith(message), errors


def test_the_loader_reads_queue_limits(tmp_path):
    from tests.unit.test_config_ranges import _write
    from xce.config.load import load
    _write(tmp_path, params="  LSF_UNIT_FOR_LIMITS: MB",
           queue="    CPULIMIT: 10/h1\n    STACKLIMIT: 8\n    CORELIMIT: 0")
    q = load(tmp_path).queues["normal"]
    assert q.rlimits == {"cpulimit": [[10.0, "h1"], [10.0, "h1"]],
                         "stacklimit": [8192, 8192], "corelimit": [0, 0]}


def test_memory_is_killed_at_once_and_a_job_ended_once():
    msg = {"memlimit": 100, "rlimits": {"processlimit": 1}}
    assert agent.verdict(msg, None, {"rss": 101}) == (
        "TERM_MEMLIMIT", [signal.SIGKILL])
    assert agent.verdict(msg, None, {"rss": 10, "job_procs": 2}) == (
        "TERM_PROCESSLIMIT", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
    # Already being ended (by bkill, the run limit, ...): left alone.
    assert agent.verdict(msg, "TERM_OWNER", {"rss": 10,
                                             "job_procs": 2}) is None


@pytest.mark.parametrize("params, queue", [
    ("  DEFAULT_HOST_SPEC: nohost", ""),
    ("", "    DEFAULT_HOST_SPEC: nohost")])
def test_default_host_spec_names_a_host_or_model(tmp_path, params, queue):
    from tests.unit.test_config_ranges import _errors
    errors = _errors(tmp_path, params=params, queue=queue)
    assert len(errors) == 1 and errors[0].endswith(
        "DEFAULT_HOST_SPEC: nohost: Bad host specification"), errors
