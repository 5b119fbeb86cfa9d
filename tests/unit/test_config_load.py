"""xce.yaml loading: validation with file:line, groups, LSF host conventions."""

import pytest

from xce.config.load import ConfigError

from tests.lib.builders import site

BASE = """\
cluster:
  name: c
parameters:
  DEFAULT_QUEUE: normal
"""


def _load(tmp_path, text):
    return site(tmp_path, BASE + text)


def test_unknown_queue_key_names_file_line_and_a_guess(tmp_path):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "queues:\n  normal:\n    PRIORTY: 3\n")
    assert e.value.errors == [
        f"{tmp_path / 'xce.yaml'}:7: PRIORTY: unknown queue key "
        "(did you mean PRIORITY?)"]


def test_unknown_section_and_bad_values(tmp_path):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "queus: {}\nqueues:\n  normal:\n    UJOB_LIMIT: x\n"
              "    RUNLIMIT: '1 2 3'\n")
    text = "\n".join(e.value.errors)
    assert "queus: unknown section key (did you mean queues?)" in text
    assert "UJOB_LIMIT: 'x' is not a whole number" in text
    assert ":9: RUNLIMIT: 1 2 3: too many values" in text


def test_default_queue_must_exist(tmp_path):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "queues:\n  other: {PRIORITY: 1}\n")
    assert "DEFAULT_QUEUE: normal: No such queue" in e.value.errors[0]


def test_invalid_yaml_names_the_line(tmp_path):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "queues:\n  normal: [\n")
    assert e.value.errors[0].startswith(f"{tmp_path / 'xce.yaml'}:")
    assert "not valid YAML" in e.value.errors[0]


def test_lsb_hosts_conventions(tmp_path):
    cfg = _load(tmp_path, """\
hosts:
  default: {MXJ: 4, JL/U: 1}
  a: {MXJ: '!'}
  b: {}
  cli: {server: false}
queues:
  normal: {PRIORITY: 1}
""")
    assert sorted(cfg.hosts) == ["a", "b"]
    assert (cfg.hosts["a"].mxj, cfg.hosts["a"].jl_u) == (None, 1)
    assert (cfg.hosts["b"].mxj, cfg.hosts["b"].jl_u) == (4, 1)


def test_queue_hosts_and_users_expand_groups(tmp_path):
    cfg = _load(tmp_path, """\
hosts:
  n01: {}
  n02: {}
  n03: {}
  big: {}
host_groups:
  hg: ['n[01-03]', '~n02']
user_groups:
  chem: {members: [alice, bob]}
  all_g: {members: [chem, carol]}
queues:
  normal:
    PRIORITY: 1
    HOSTS: [hg, big+2]
    USERS: [all, '~bob']
  night:
    PRIORITY: 2
    HOSTS: [n01, others]
    USERS: [all_g]
""")
    normal, night = cfg.queues["normal"], cfg.queues["night"]
    assert normal.hosts == ["n01", "n03", "big"]
    assert normal.allows("alice") and not normal.allows("bob")
    assert night.hosts == ["n01", "n02", "n03", "big"]
    assert night.allows("carol") and night.allows("bob")
    assert not night.allows("dave")


def test_queue_hosts_keep_their_preference_levels(tmp_path):
    """HOSTS = hg big+2 others+1: every host of the queue with its level
    (a group's hosts share it, others take theirs); none without +N."""
    cfg = _load(tmp_path, """\
hosts:
  n01: {}
  n02: {}
  big: {}
  spare: {}
host_groups:
  hg: [n01, n02]
queues:
  normal:
    PRIORITY: 1
    HOSTS: hg+3 big+2 others+1
  night:
    PRIORITY: 2
    HOSTS: [n01, big]
""")
    normal, night = cfg.queues["normal"], cfg.queues["night"]
    assert normal.hosts == ["n01", "n02", "big", "spare"]
    assert normal.host_levels == {"n01": 3, "n02": 3, "big": 2,
                                  "spare": 1}
    assert night.host_levels == {}


def test_first_execution_host_marks_are_refused(tmp_path):
    """HOSTS = hostA! b: LSF's first-execution-host candidate is refused
    with its reason (it was taken as a host named 'a!', never used)."""
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "hosts:\n  a: {}\n  b: {}\n"
              "queues:\n  normal:\n    HOSTS: a! b\n")
    assert e.value.errors == [
        f"{tmp_path / 'xce.yaml'}:10: HOSTS: a!: xce does not choose a "
        "first execution host (!); name the host without it"]


def test_group_cycles_are_errors(tmp_path):
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "host_groups:\n  a: [b]\n  b: [a]\n"
              "queues:\n  normal: {PRIORITY: 1}\n")
    assert "group cycle" in e.value.errors[0]


@pytest.mark.parametrize("value, shown", [("2.5", "2.5"), ("true", "True"),
                                          ("'1e3'", "'1e3'")])
def test_whole_number_keys_refuse_fractions_and_booleans(tmp_path, value,
                                                          shown):
    """Not rounded to 2, nor read as 1: a clear file:line error."""
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, f"queues:\n  normal:\n    UJOB_LIMIT: {value}\n")
    assert e.value.errors == [f"{tmp_path / 'xce.yaml'}:7: UJOB_LIMIT: "
                              f"{shown} is not a whole number"]


def test_whole_number_keys_take_integers_and_their_text(tmp_path):
    cfg = _load(tmp_path, "queues:\n  normal:\n    UJOB_LIMIT: 4\n"
                "    QJOB_LIMIT: '12'\n")
    q = cfg.queues["normal"]
    assert (q.ujob_limit, q.qjob_limit) == (4, 12)


def test_queue_administrators_take_users_and_expand_user_groups(tmp_path):
    cfg = _load(tmp_path, """\
user_groups:
  ops: {members: [alice, bob]}
queues:
  normal:
    ADMINISTRATORS: ops carol
  night:
    PRIORITY: 2
""")
    assert cfg.queues["normal"].admins == ["alice", "bob", "carol"]
    assert cfg.queues["night"].admins == []


def test_host_architectures_name_models_with_lists_of_strings(tmp_path):
    good = ("queues:\n  normal: {}\nhost_models:\n  Intel_E5: 12.5\n"
            "host_architectures:\n  Intel_E5: [x6_4389_IntelRXeon]\n")
    cfg = _load(tmp_path, good)
    assert cfg.raw["host_architectures"]["Intel_E5"] == ["x6_4389_IntelRXeon"]
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, "queues:\n  normal: {}\nhost_models:\n  A: 1\n"
              "host_architectures:\n  B: [x86_64]\n  A: {x: 1}\n")
    text = "\n".join(e.value.errors)
    assert ":10: B: host model B is not in host_models" in text
    assert ":11: A: must map host models to lists of architecture " \
        "strings" in text


def test_a_key_whose_one_value_is_xces_behaviour_refuses_the_others(tmp_path):
    ok = ("parameters:\n  DEFAULT_QUEUE: normal\n  JOB_ACCEPT_INTERVAL: 0\n"
          "  PARALLEL_SCHED_BY_SLOT: y\n  LSF_GPU_AUTOCONFIG: Y\n"
          "  RELAX_JOB_DISPATCH_ORDER: N\n  LSB_MOD_ALL_JOBS: Y\n"
          "  LSF_STRICT_RESREQ: Y\n"
          "queues:\n  normal:\n    JOB_ACCEPT_INTERVAL: 0\n")
    site(tmp_path, "cluster:\n  name: c\n" + ok)
    bad = ok.replace("INTERVAL: 0", "INTERVAL: -1").replace(
        "SLOT: y", "SLOT: N").replace("ORDER: N", "ORDER: Y").replace(
        "JOBS: Y", "JOBS: N").replace("RESREQ: Y", "RESREQ: N")
    with pytest.raises(ConfigError) as e:
        site(tmp_path, "cluster:\n  name: c\n" + bad)
    text = "\n".join(e.value.errors)
    assert ":5: JOB_ACCEPT_INTERVAL:" in text       # below its range
    assert ":6: PARALLEL_SCHED_BY_SLOT: xce schedules parallel jobs by " \
        "job slots (Y)" in text
    assert ":8: RELAX_JOB_DISPATCH_ORDER: xce keeps the strict" in text
    assert ":9: LSB_MOD_ALL_JOBS: bmod changes a started job's" in text
    assert ":13: JOB_ACCEPT_INTERVAL:" in text
    assert ":10: LSF_STRICT_RESREQ: xce refuses an rusage[] of a resource " \
        "that is not consumable" in text


def test_default_limit_ignore_user_group_takes_y_or_n_only(tmp_path):
    """DEFAULT_LIMIT_IGNORE_USER_GROUP: Y and N both load (see
    test_limits for what each does); anything else is refused."""
    for value in ("Y", "N", "yes", "n"):
        site(tmp_path, "cluster:\n  name: c\nqueues:\n  normal: {}\n"
             f"parameters:\n  DEFAULT_LIMIT_IGNORE_USER_GROUP: {value}\n")
    with pytest.raises(ConfigError) as e:
        site(tmp_path, "cluster:\n  name: c\nqueues:\n  normal: {}\n"
             "parameters:\n  DEFAULT_LIMIT_IGNORE_USER_GROUP: maybe\n")
    assert "xce.yaml:6: DEFAULT_LIMIT_IGNORE_USER_GROUP: 'maybe' is not " \
        "Y or N" in "\n".join(e.value.errors)
