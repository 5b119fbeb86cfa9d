"""Queue, host and limit keys xce has no feature for are not carried: the
migrator leaves them out and reports why, a limit naming a consumer xce
does not track is left out whole, and the same keys written by hand in
xce.yaml are refused with that reason.  NEW_JOB_SCHED_DELAY only times
LSF's scheduler: not needed, carried and warned about."""

import pytest

from xce.config import keys, unenforced
from xce.config.load import ConfigError, load
from xce.config.migrate import migrate

from tests.lib.builders import site, site_yaml

QUEUE_KEYS = ("FAIRSHARE_QUEUES SLOT_MEMORY_RESERVE RESOURCE_RESERVE CHKPNT "
              "MIG ROUND_ROBIN_POLICY RUNTIME DISPATCH_ORDER JOB_IDLE "
              "JOB_OVERRUN JOB_UNDERRUN JOB_WARNING_ACTION PEND_TIME_LIMIT "
              "ELIGIBLE_PEND_TIME_LIMIT APS_PRIORITY QUEUE_GROUP "
              "INTERRUPTIBLE_BACKFILL MAX_RSCHED_TIME CPU_FREQUENCY "
              "MAX_SLOTS_IN_POOL USE_PRIORITY_IN_POOL").split()
LIMIT_KEYS = "INELIGIBLE LIC_PROJECTS".split()

LSF = {
    "lsf.shared": "Begin Cluster\nClusterName\nc\nEnd Cluster\n",
    "lsf.cluster.c": "Begin Host\nHOSTNAME model type server\n"
                     "h1 ! ! 1\nEnd Host\n",
    "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\n"
                  "CHKPNT = /ckpt 30\nJOB_OVERRUN = 60\n"
                  "PEND_TIME_LIMIT = 120\nNEW_JOB_SCHED_DELAY = 2\n"
                  "End Queue\n",
    "lsb.hosts": "Begin Host\nHOST_NAME MXJ MIG\nh1 4 30\nEnd Host\n",
    "lsb.resources": "Begin Limit\nNAME = bylic\nLIC_PROJECTS = p1\n"
                     "SLOTS = 8\nEnd Limit\n\n"
                     "Begin Limit\nNAME = swap\nUSERS = all\nSLOTS = 20\n"
                     "RESOURCE = [lic,2]\nEnd Limit\n",
}


def test_no_key_of_these_is_left_accepted_and_each_says_why():
    for scope, names in (("queue", QUEUE_KEYS), ("limit", LIMIT_KEYS),
                         ("host", ["CHKPNT", "MIG"])):
        for name in names:
            key = keys.lookup(scope, name)
            assert key.status == keys.NOT_CARRIED, (scope, name)
            assert key.why and key.why != keys.UNKNOWN_WHY, (scope, name)
    key = keys.lookup("queue", "NEW_JOB_SCHED_DELAY")
    assert key.status == keys.NOT_NEEDED and "mbschd" in key.why


def _migrated(tmp_path, lsf=None):
    src = tmp_path / "lsf"
    src.mkdir()
    for name, body in (lsf or LSF).items():
        (src / name).write_text(body)
    return migrate(str(src), str(tmp_path / "etc"))


def test_the_migrator_leaves_them_out_with_why_and_the_result_loads(
        tmp_path):
    result = _migrated(tmp_path)
    dropped = {e.label.split(" = ")[0]: e.why
               for e in result.migration.entries
               if e.status == keys.NOT_CARRIED}
    assert dropped["queue normal CHKPNT"].startswith(
        "xce does not checkpoint or migrate jobs")
    assert "job exceptions" in dropped["queue normal JOB_OVERRUN"]
    assert "RTM" in dropped["queue normal PEND_TIME_LIMIT"]
    assert "checkpoint" in dropped["host h1 MIG"]
    # lsf.shared defines no lic: the limit is carried without it.
    assert dropped["limit swap RESOURCE"] == \
        "lic: no such numeric resource in resources"
    queue = result.tree["queues"]["normal"]
    assert "CHKPNT" not in queue and "JOB_OVERRUN" not in queue
    assert queue["NEW_JOB_SCHED_DELAY"] == 2        # not needed: shown
    # The LIC_PROJECTS limit is left out whole: its SLOTS alone would cap
    # every job of the cluster at 8 slots.
    assert dropped["limit bylic SLOTS"].startswith(
        "LIC_PROJECTS: License Scheduler")
    assert result.tree["limits"] == [
        {"NAME": "swap", "USERS": ["all"], "SLOTS": 20}]
    cfg = load(tmp_path / "etc")
    assert unenforced.lines(cfg.raw) == [
        "queue key NEW_JOB_SCHED_DELAY (normal): not needed in xce, not "
        "acted on: " + keys.lookup("queue", "NEW_JOB_SCHED_DELAY").why]


def _hand_written(host=None, queue=None, limits=()):
    """xce.yaml of one host and queue normal, with the keys given."""
    return site_yaml("c", {"h1": {"launch": "none", **(host or {})}},
                     queues={"normal": {"PRIORITY": 30, **(queue or {})}},
                     limits=limits)


@pytest.mark.parametrize("host, queue, limits, key", [
    (None, {"JOB_IDLE": 0.1}, (), "JOB_IDLE"),
    (None, {"APS_PRIORITY": "WEIGHT[[FS, 1]]"}, (), "APS_PRIORITY"),
    ({"MIG": 30}, None, (), "MIG"),
    (None, None, [{"LIC_PROJECTS": "p1", "SLOTS": 8}], "LIC_PROJECTS"),
])
def test_a_hand_written_key_xce_leaves_out_is_refused_with_why(
        tmp_path, host, queue, limits, key):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, _hand_written(host, queue, limits))
    scope = "host" if host else "limit" if limits else "queue"
    why = keys.lookup(scope, key).why
    assert any(f"{key}: not supported by xce: {why}" in str(err)
               for err in e.value.errors), e.value.errors


def test_a_resource_limit_is_carried_when_lsf_shared_defines_it(tmp_path):
    lsf = dict(LSF, **{
        "lsf.shared": LSF["lsf.shared"] + "Begin Resource\n"
        "RESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\n"
        "lic Numeric () N (tokens)\nos String () () (release)\n"
        "End Resource\n",
        "lsb.resources": "Begin Limit\nNAME = tokens\nUSERS = all\n"
                         "RESOURCE = [lic,2]\nEnd Limit\n\n"
                         "Begin Limit\nNAME = bad\nUSERS = all\n"
                         "RESOURCE = [os,2]\nEnd Limit\n"})
    result = _migrated(tmp_path, lsf)
    assert result.tree["limits"][0] == {"NAME": "tokens", "USERS": ["all"],
                                        "RESOURCE": "[lic,2]"}
    assert "RESOURCE" not in result.tree["limits"][1]
    bad = [e for e in result.migration.entries
           if e.label == "limit bad RESOURCE = [os,2]"]
    assert [(e.status, str(e.origin), e.why) for e in bad] == [
        (keys.NOT_CARRIED, "lsb.resources:10",
         "os: no such numeric resource in resources")]
    cfg = load(tmp_path / "etc")
    assert limitconf_resources(cfg) == [{"lic": 2}, None]


def limitconf_resources(cfg):
    from xce.controller import limitconf
    return [lim.resources for lim in limitconf.limits(cfg, 0)]


def test_the_keys_xce_acts_on_still_load_beside_them(tmp_path):
    cfg = site(tmp_path, _hand_written(
        {"MXJ": 4}, {"NEW_JOB_SCHED_DELAY": 0},
        [{"USERS": "all", "SLOTS": 8}]))
    assert cfg.queues["normal"].priority == 30


def test_apps_limits_are_carried_when_their_profiles_are(tmp_path):
    # APPS / PER_APP are enforced (xce.scheduler.limits); a limit naming a
    # profile lsb.applications does not define is left out whole.
    lsf = dict(LSF, **{
        "lsb.applications": "Begin Application\nNAME = fluent\n"
                            "End Application\n",
        "lsb.resources": "Begin Limit\nNAME = ok\nPER_APP = fluent\n"
                         "SLOTS = 8\nEnd Limit\n\n"
                         "Begin Limit\nNAME = bad\nAPPS = nosuch\n"
                         "SLOTS = 2\nEnd Limit\n"})
    result = _migrated(tmp_path, lsf)
    assert result.tree["limits"] == [
        {"NAME": "ok", "PER_APP": ["fluent"], "SLOTS": 8}]
    dropped = {e.label.split(" = ")[0]: e.why
               for e in result.migration.entries
               if e.status == keys.NOT_CARRIED}
    assert dropped["limit bad SLOTS"].startswith(
        "APPS: nosuch: no such application profile")
    load(tmp_path / "etc")
    # Written by hand, an unknown profile is a configuration error.
    text = (tmp_path / "etc" / "xce.yaml").read_text().replace(
        "PER_APP: [fluent]", "PER_APP: [nosuch]")
    (tmp_path / "etc" / "xce.yaml").write_text(text)
    with pytest.raises(ConfigError) as e:
        load(tmp_path / "etc")
    assert any("PER_APP: nosuch: no such application profile" in str(err)
               for err in e.value.errors), e.value.errors


def test_slots_per_processor_needs_per_host(tmp_path):
    with pytest.raises(ConfigError) as e:
        site(tmp_path, _hand_written(limits=[
            {"USERS": "all", "SLOTS_PER_PROCESSOR": 2}]))
    assert any("SLOTS_PER_PROCESSOR: SLOTS_PER_PROCESSOR counts the "
               "processors of each host: the limit needs PER_HOST"
               in str(err) for err in e.value.errors), e.value.errors
    cfg = site(tmp_path, _hand_written(limits=[
        {"PER_HOST": "all", "SLOTS_PER_PROCESSOR": 2}]))
    assert cfg.raw["limits"][0]["SLOTS_PER_PROCESSOR"] == 2


def test_no_key_of_the_table_is_accepted_and_not_acted_on():
    """Honour or refuse (issue 13 point 1): every key xce knows is acted
    on, not needed or not carried -- never carried and ignored -- and each
    not-carried key says why."""
    accepted = [(k.scope, k.name) for k in keys._TABLE.values()
                if k.status == keys.ACCEPTED]
    assert accepted == []
    silent = [(k.scope, k.name) for k in keys._TABLE.values()
              if k.status == keys.NOT_CARRIED and not k.why]
    assert silent == []
