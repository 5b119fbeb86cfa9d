"""The merge of a job with its application profile (xce.lang.appmerge),
rule by rule, and the profile keys the key table calls enforced."""

import json

import pytest

from xce.config import keys
from xce.config.appconf import AppConf
from xce.lang import resreq
from xce.lang import appmerge

APP = AppConf(name="a", limits={"runlimit": 10, "memlimit": 2048,
                                "cpulimit": 5, "cpulimit_host": "hm",
                                "filelimit": 100},
              resreq="select[bigmem] order[mem] rusage[mem=100]",
              requeue="99", rerunnable=True)


@pytest.mark.parametrize("job, expected", [
    # limits: the profile fills what the job left unset ...
    ({}, {"runlimit": 10, "memlimit": 2048, "cpulimit": 5,
          "cpulimit_host": "hm", "filelimit": 100}),
    # ... and the job's own value wins (its CPU host with it)
    ({"runlimit": 3, "memlimit": 10, "cpulimit": 1, "filelimit": 7},
     {"runlimit": 3, "memlimit": 10, "cpulimit": 1, "cpulimit_host": None,
      "filelimit": 7}),
    # requeue exit values and rerunnable: bsub -Q / -r / -rn win
    ({}, {"requeue_exit": "99", "rerunnable": True}),
    ({"requeue_exit": "3", "rerunnable": False},
     {"requeue_exit": "3", "rerunnable": False}),
    # the profile's requirement is kept for the merge with the job's
    ({}, {"app_resreq": "select[bigmem] order[mem] rusage[mem=100]"}),
])
def test_fill(job, expected):
    spec = dict(job)
    appmerge.fill(APP, spec)
    for key, value in expected.items():
        assert spec.get(key) == value, key


def test_an_empty_profile_changes_nothing():
    spec = {"runlimit": None, "resreq": ["x"]}
    appmerge.fill(AppConf(name="e"), spec)
    assert spec == {"runlimit": None, "resreq": ["x"]}


def _merged(job, app):
    return resreq.parse(appmerge.resreq_strings(job, app)[0])


@pytest.mark.parametrize("job, app, select, order, span, rusage", [
    # select: the job's terms AND the profile's
    (["select[swp>1]"], "select[bigmem]", {"swp", "bigmem"}, None, None,
     None),
    # order and span: the job's when it has one, else the profile's
    ([], "order[mem] span[hosts=1]", None, "mem", "hosts=1", None),
    (["order[ut]"], "order[mem]", None, "ut", None, None),
    # rusage: per resource the job's amount, the profile's others added
    (["rusage[mem=5]"], "rusage[mem=100:swp=7]", None, None, None,
     {"mem": 5, "swp": 7}),
])
def test_resreq(job, app, select, order, span, rusage):
    rr = _merged(job, app)
    text = str(rr)
    if select:
        for name in select:
            assert name in str(rr.select), (name, text)
    if order:
        assert order in str(rr.order), text
    if span:
        assert span in str(rr.span), text
    if rusage:
        for name, amount in rusage.items():
            assert f"{name}={amount}" in text.replace(".0", ""), text


def test_no_profile_requirement_leaves_the_job_strings():
    assert appmerge.resreq_strings(["a", "b"], None) == ["a", "b"]


def test_applied_keys_are_the_enforced_profile_keys():
    enforced = set(keys.enforced("application"))
    assert enforced == set(appmerge.APPLIED_KEYS)


# Every rule of the three-layer merge bjobs -l shows as "Combined:": the
# job's -R, then its profile's RES_REQ, then its queue's RES_REQ.
@pytest.mark.parametrize("job, app, queue, expected", [
    # nothing anywhere
    ([], None, None, None),
    # select: every layer's terms ANDed, job first
    (["select[swp>1]"], "select[bigmem]", "select[type==any]",
     "select[(swp > 1) && bigmem && (type == any)]"),
    # order: the job's, else the profile's, else the queue's
    (["order[ut]"], "order[mem]", "order[r15s]", "order[ut]"),
    ([], "order[mem]", "order[r15s]", "order[mem]"),
    ([], None, "order[r15s]", "order[r15s]"),
    # span: the same precedence
    (["span[hosts=1]"], "span[ptile=2]", None, "span[hosts=1]"),
    ([], "span[ptile=2]", "span[hosts=1]", "span[ptile=2]"),
    # rusage: per resource the nearer layer's amount, the others added
    (["rusage[mem=5]"], "rusage[mem=100:swp=7]", "rusage[tmp=3:swp=1]",
     "rusage[mem=5.00:swp=7.00:tmp=3.00]"),
])
def test_combined_three_layers(job, app, queue, expected):
    assert appmerge.combined(job, app, queue) == expected


def test_refill_replaces_the_old_profiles_values_and_keeps_the_jobs():
    spec = {"runlimit": 3, "resreq": ["x"]}
    appmerge.fill(APP, spec)
    assert spec["runlimit"] == 3 and spec["memlimit"] == 2048
    assert "memlimit" in spec[appmerge.FILLED_KEY]
    other = AppConf(name="b", limits={"memlimit": 1}, resreq="order[ut]")
    moved = appmerge.refill(other, spec)
    assert (moved["runlimit"], moved["memlimit"], moved["app_resreq"]) == (
        3, 1, "order[ut]")
    assert "filelimit" not in moved and "requeue_exit" not in moved
    gone = appmerge.refill(None, spec)
    assert gone == {"runlimit": 3, "resreq": ["x"]}
    new, removed = appmerge.changes(spec, moved)
    assert new["memlimit"] == 1 and "filelimit" in removed


@pytest.mark.parametrize("text, env", [
    ("A='x y', B=2", {"A": "x y", "B": "2"}),
    ('A="q,r"', {"A": "q,r"}),
    ("A=1,B='',C=z", {"A": "1", "B": "", "C": "z"}),
])
def test_env_vars_of_a_profile(tmp_path, text, env):
    from tests.lib.builders import site
    cfg = site(tmp_path, "queues:\n  normal: {}\napplications:\n  a:\n"
               f"    ENV_VARS: {json.dumps(text)}\n"
               "    SUCCESS_EXIT_VALUES: 3 7\n")
    assert cfg.apps["a"].env == env
    assert cfg.apps["a"].success == {3, 7}


@pytest.mark.parametrize("key, value, message", [
    ("ENV_VARS", "'=1'", "must be name='value'"),
    ("SUCCESS_EXIT_VALUES", "3 256", "must be exit values"),
])
def test_bad_env_vars_and_exit_values(tmp_path, key, value, message):
    from tests.lib.builders import site
    from xce.config.load import ConfigError
    with pytest.raises(ConfigError) as e:
        site(tmp_path, "queues:\n  normal: {}\napplications:\n  a:\n"
             f"    {key}: {value}\n")
    assert f"{key}: " in str(e.value) and message in str(e.value)
