"""The start message as an agent of each protocol version can take it:
a field the agent does not know is left out when it holds nothing, and
the job is refused (not run without it) when it holds something."""

import pytest

from xce.agent import protocol
from xce.config.load import load
from xce.controller import joblimits, startmsg

# What a start message carried at protocol 1 to 4 (agents of any version
# act on them).
BASE_FIELDS = {
    "op", "job", "idx", "attempt", "label", "user", "uid", "gid", "queue",
    "name", "jobfile", "command", "command_lines", "cwd", "subcwd", "env",
    "args", "stdin", "stdout", "stdout_mode", "stderr", "stderr_mode",
    "hosts", "runlimit", "memlimit", "terminate_interval", "from_host",
    "submit_time", "cluster", "restart", "exact_peak"}

YAML = """\
cluster:
  name: c
parameters:
  LSF_SERVERDIR: /opt/lsf/etc
  JOB_CWD_TTL: 2
queues:
  normal:
    PRIORITY: 30
    NICE: 5
    PRE_EXEC: /bin/true
    JOB_STARTER: nice
hosts:
  h1: {}
"""


class _Ctl:
    """What start_message reads of the controller."""

    def __init__(self, cfg, version):
        self.cfg = cfg
        self.hosts = {"h1": {"protocol": version}}

    def job_data(self, job):
        return {"env": {}, "jobfile": None}


def _job(**spec):
    return {"jobid": 7, "idx": 0, "attempt": 1, "queue": "normal",
            "name": "j", "user": "ann", "exec_hosts": "h1",
            "from_host": "h1", "submit_time": 0,
            "spec": {"command": "true", "cwd": "/", "subcwd": "/",
                     "uid": 1000, "gid": 1000, **spec}}


@pytest.fixture
def cfg(tmp_path):
    (tmp_path / "xce.yaml").write_text(YAML)
    return load(tmp_path)


FULL = dict(outdir="/o/%J", cpulimit=10, pre_exec="true", post_exec="true",
            login_shell="/bin/sh", mail_begin=True, requeue_exit="3",
            stdout="/o/out", specified_cwd="w/%J")


def test_every_field_of_a_start_message_is_base_or_versioned(cfg):
    msg = startmsg.start_message(_Ctl(cfg, protocol.VERSION), _job(**FULL))
    assert set(msg) - BASE_FIELDS - set(protocol.START_FIELDS) == set()
    # the loaded job carries every versioned field but the terminal of
    # bsub -I and the copies of -f (their own tests)
    assert set(protocol.START_FIELDS) - {"interactive", "xfiles"} <= \
        set(msg)
    assert max(v for v, _ in protocol.START_FIELDS.values()) <= \
        protocol.VERSION


def test_an_older_agent_is_refused_a_job_it_would_run_without_a_field(cfg):
    with pytest.raises(RuntimeError) as e:
        startmsg.start_message(_Ctl(cfg, 4), _job(**FULL))
    said = str(e.value)
    assert said.startswith("the agent on h1 speaks protocol 4, too old "
                           "for this job's ")
    for what in ("pre-execution commands (protocol 5)",
                 "output directory (-outdir) (protocol 5)",
                 "limits (-c -v -S -F -D -C -p -T) (protocol 5)",
                 "mail (-u -B -N) (protocol 5)",
                 "queue NICE value (protocol 6)", "eexec (protocol 7)"):
        assert what in said
    with pytest.raises(RuntimeError, match=r"protocol 6, .*eexec"):
        startmsg.start_message(_Ctl(cfg, 6), _job(stdout="/o/out"))


def test_fields_holding_nothing_are_left_out_for_an_older_agent():
    msg = {"op": "start", "outdir": None, "rlimits": {}, "nice": 0,
           "pre": [{"cmd": "x"}], "eexec": "/e"}
    fitted, missing = protocol.fit(msg, 4)
    assert "outdir" not in fitted and "rlimits" not in fitted
    assert "nice" not in fitted and fitted["pre"] == [{"cmd": "x"}]
    assert missing == ["pre-execution commands (protocol 5)",
                       "eexec (protocol 7)"]
    assert protocol.fit(msg, protocol.VERSION) == (msg, [])


def test_a_plain_job_reaches_a_version_1_agent_without_new_fields(tmp_path):
    (tmp_path / "xce.yaml").write_text(
        "cluster:\n  name: c\nqueues:\n  normal:\n    PRIORITY: 30\n"
        "hosts:\n  h1: {}\n")
    # (-o given: with none, the output is mailed, which needs protocol 5)
    msg = startmsg.start_message(_Ctl(load(tmp_path), 1),
                                 _job(stdout="/o/out"))
    assert set(msg) <= BASE_FIELDS


def test_bmod_c_of_a_running_job_needs_a_protocol_12_agent(cfg):
    job = _job()
    assert joblimits.cpu_refusal(_Ctl(cfg, 11), job, {"cpulimit"}) == (
        "the agent on h1 is too old to change a running job's CPU limit")
    assert joblimits.cpu_refusal(_Ctl(cfg, 11), job, {"runlimit"}) is None
    assert joblimits.cpu_refusal(_Ctl(cfg, 12), job, {"cpulimit"}) is None
