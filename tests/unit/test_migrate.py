"""Migration of LSF configuration trees to xce.yaml (library level).

Runs the hand-made sites under tests/unit/data/lsf and every source of the
shared LSF configuration corpus through ``migrate`` and checks facts a
reader can see in the LSF files.
"""

import os
import shutil
from pathlib import Path

import pytest

from xce.config import keys
from xce.config.lsf import hostnames, report
from xce.config.lsfview import write_lsf_view
from xce.config.migrate import MigrateError, migrate
from xce.envdir import read_lsf_conf

DATA = Path(__file__).resolve().parent / "data" / "lsf"
REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "lsf-config-corpus"
CONFIGDIR = "lsbatch/alpha/configdir"

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason="LSF config corpus not found at ../shared/lsf-config-corpus "
    "next to the repository")


def load_yaml(text):
    yaml = pytest.importorskip("ruamel.yaml")
    return yaml.YAML(typ="safe").load(text)


@pytest.fixture(scope="module")
def site():
    return migrate(str(DATA / "site"), check=True)


def entries(result, status):
    return [(str(e.origin) if e.origin else None, e.label, e.why)
            for e in result.migration.entries if e.status == status]


# -- the hand-made IBM-layout site ------------------------------------------
def test_site_files_are_found_in_the_ibm_layout(site):
    assert site.cluster == "alpha"
    assert site.files_read == [
        "lsf.conf", "lsf.shared", "lsf.cluster.alpha"] + [
        f"{CONFIGDIR}/{name}" for name in (
            "lsb.params", "lsb.queues", "lsb.hosts", "lsb.users",
            "lsb.resources", "lsb.applications", "lsb.modules")]
    assert site.files_missing == []


def test_site_cluster_and_parameters(site):
    tree = site.tree
    assert tree["cluster"] == {"name": "alpha", "admins": ["lsfadmin",
                                                           "alice"],
                               "spool": "spool"}
    params = tree["parameters"]
    assert params["DEFAULT_QUEUE"] == ["normal", "short"]
    assert params["CLEAN_PERIOD"] == 7200
    assert params["JOB_TERMINATE_INTERVAL"] == 20
    assert params["LSF_UNIT_FOR_LIMITS"] == "MB"
    assert params["LSB_JOB_MEMLIMIT"] == "y"       # the last one wins
    assert "LSF_MASTER_LIST" not in params
    assert "MAX_CONCURRENT_QUERY" not in params


def test_site_queues_with_priorities_limits_and_include(site):
    queues = site.tree["queues"]
    assert {name: q["PRIORITY"] for name, q in queues.items()} == {
        "normal": 30, "short": 40, "night": 10}
    normal = queues["normal"]
    assert normal["USERS"] == ["all", "~guest"]
    assert normal["HOSTS"] == ["hg_compute", "alpha01+2", "others"]
    assert normal["UJOB_LIMIT"] == 10
    assert normal["RUNLIMIT"] == "60 720"
    assert normal["MEMLIMIT"] == "1000 2000"
    assert normal["DESCRIPTION"] == "For normal jobs, of all sizes."
    short = queues["short"]
    assert (short["HJOB_LIMIT"], short["QJOB_LIMIT"], short["PJOB_LIMIT"],
            short["RUNLIMIT"]) == (2, 100, 1.5, 10)
    assert short["PRE_EXEC"] == '/bin/echo "pre # exec"'
    assert "RC_HOSTS" not in short
    assert queues["night"]["USERS"] == ["grp_all"]
    assert queues["night"]["DESCRIPTION"] == "Overnight jobs"


def test_site_hosts_join_lsf_cluster_and_lsb_hosts(site):
    hosts = site.tree["hosts"]
    assert list(hosts) == ["alpha01", "alpha02", "node001", "node002",
                           "node003", "node004", "client1", "default"]
    assert hosts["alpha01"] == {
        "address": "alpha01", "launch": "auto", "model": "PC200",
        "type": "X86_64", "server": True, "resources": ["bigmem", "cs"],
        "MXJ": 8, "JL/U": 2, "r1m": "3.5/4.5",
        # lsf.cluster's r1m (LIM's busy threshold) apart from lsb.hosts'
        "lim_thresholds": {"r1m": 3.5}}
    assert "lim_thresholds" not in hosts["node001"]     # "()" is unset
    assert hosts["node001"]["DISPATCH_WINDOW"] == "18:00-8:00"
    assert hosts["client1"]["server"] is False
    assert "model" not in hosts["alpha02"]
    assert hosts["default"] == {"MXJ": "!"}


def test_site_host_groups_keep_lsf_syntax_and_expand(site):
    groups = site.tree["host_groups"]
    assert groups == {"hg_compute": ["node[001-004]"],
                      "hg_all": ["all", "~client1"],
                      "hg_nested": ["hg_compute", "alpha01", "~node002"]}
    real = [h for h in site.tree["hosts"] if h != "default"]
    assert hostnames.expand(["hg_nested"], groups, real) == [
        "node001", "node003", "node004", "alpha01"]
    assert hostnames.expand(["hg_all"], groups, real) == [
        "alpha01", "alpha02", "node001", "node002", "node003", "node004"]


def test_site_users_groups_and_limits(site):
    tree = site.tree
    assert tree["users"] == {"default": {"MAX_JOBS": 10},
                             "alice": {"MAX_JOBS": 20, "JL/P": 2},
                             "grp_chem@": {"MAX_JOBS": 5}}
    assert tree["user_groups"] == {
        "grp_chem": {"members": ["alice", "bob"],
                     "USER_SHARES": "[alice, 2] [bob, 1]"},
        "grp_all": {"members": ["grp_chem", "carol"]}}
    members = {n: g["members"] for n, g in tree["user_groups"].items()}
    assert hostnames.expand(["grp_all"], members) == ["alice", "bob",
                                                       "carol"]
    assert tree["limits"] == [
        {"NAME": "chem_day", "USERS": ["grp_chem"],
         "PER_HOST": ["hg_compute"], "SLOTS": 8},
        {"NAME": "l_short", "USERS": ["all", "~root"], "QUEUES": ["short"],
         "SLOTS": 4},
        {"NAME": "l_big", "USERS": ["alice"], "QUEUES": ["normal"],
         "PER_HOST": ["all"], "MEM": "200G"},
        {"NAME": "proj", "PER_PROJECT": ["p1", "p2"], "JOBS": 3}]


def test_site_applications_resources_types_models(site):
    tree = site.tree
    assert tree["applications"] == {"app1": {
        "DESCRIPTION": "First application", "RUNLIMIT": 30,
        "JOB_STARTER": "nice -n 5 %USRCMD"}}
    assert tree["resources"]["bigmem"] == {
        "TYPE": "Boolean", "DESCRIPTION": "Hosts with a lot of memory"}
    assert tree["resources"]["scratch"]["LOCATION"] == "[default]"
    assert tree["resources"]["scratch"]["INTERVAL"] == 60
    assert tree["host_types"] == ["X86_64", "LINUX64"]
    assert tree["host_models"] == {"PC200": 4.5, "XEON": 12.0}


def test_site_report_sorts_keys_by_status_from_the_key_table(site):
    enforced = entries(site, keys.ENFORCED)
    assert (f"{CONFIGDIR}/lsb.queues:4", "queue normal PRIORITY = 30",
            "") in enforced
    assert ("lsf.conf:3", "lsf.conf LSF_UNIT_FOR_LIMITS = MB", "") in enforced
    assert (f"{CONFIGDIR}/lsb.params:5", "parameters MBD_SLEEP_TIME = 10",
            "") in enforced
    assert (f"{CONFIGDIR}/lsb.users:10", "user alice JL/P = 2", "") in \
        enforced
    dropped = {(where, label) for where, label, _ in
               entries(site, keys.NOT_CARRIED)}
    assert ("lsf.conf:5", "lsf.conf LSF_MASTER_LIST = alpha01 alpha02") in \
        dropped
    assert ("lsf.conf:9", "lsf.conf SITE_SPECIFIC_THING = 1") in dropped
    assert (f"{CONFIGDIR}/lsb.queues:22", "queue short RC_HOSTS = all") in \
        dropped
    assert ("lsf.shared:4", "cluster beta") in dropped


def test_report_prints_the_share_of_key_occurrences_enforced(site):
    text = report.render(site)
    found = report.counts(site.migration.entries)
    acting = sum(found.values()) - found[keys.NOT_NEEDED]
    share = 100.0 * found[keys.ENFORCED] / acting
    assert f"\nEnforced: {found[keys.ENFORCED]} of {acting} key occurrences " \
        f"that act in xce ({share:.1f}%); {found[keys.NOT_NEEDED]} more are " \
        "not needed in xce.\n" in text


def test_a_polling_interval_is_carried_and_reported_not_needed(tmp_path):
    (tmp_path / "lsb.params").write_text(
        "Begin Parameters\nSBD_SLEEP_TIME = 7\nEnd Parameters\n")
    result = migrate(str(tmp_path), check=True)
    assert result.tree["parameters"]["SBD_SLEEP_TIME"] == 7
    [(where, label, why)] = entries(result, keys.NOT_NEEDED)
    assert (where, label) == ("lsb.params:2", "parameters SBD_SLEEP_TIME = 7")
    assert "as they happen" in why
    assert "Carried, not needed in xce (1):" in report.render(result)
    assert "SBD_SLEEP_TIME: 7  # lsb.params:2, not needed in xce" in \
        result.yaml_text


def test_first_execution_host_marks_are_taken_off_and_reported(tmp_path):
    """HOSTS = hostA! hostB+2: the queue keeps its hosts and preference;
    the '!' (LSF's first execution host candidate), which xce refuses,
    is left out with a warning naming file and line, so xce.yaml loads."""
    (tmp_path / "lsb.queues").write_text(
        "Begin Queue\nQUEUE_NAME = normal\nHOSTS = hostA! hostB+2\n"
        "End Queue\n")
    result = migrate(str(tmp_path), check=True)
    assert result.tree["queues"]["normal"]["HOSTS"] == ["hostA", "hostB+2"]
    assert [str(d) for d in result.diags.warnings
            if "first execution host" in d.message] == [
        "lsb.queues:3: queue normal HOSTS: hostA!: xce does not choose a "
        "first execution host (!); name the host without it; carried "
        "without it"]


def test_output_and_script_switches_say_what_xce_always_does(tmp_path):
    """LSB_BSUB_PARSE_SCRIPT and LSB_STDOUT_DIRECT are switches for what
    xce always does: the report says so rather than "not a key xce
    knows"."""
    (tmp_path / "lsf.conf").write_text(
        "LSB_BSUB_PARSE_SCRIPT=Y\nLSB_STDOUT_DIRECT=Y\n")
    result = migrate(str(tmp_path), check=True)
    why = {label.split(" = ")[0]: why for _, label, why in
           entries(result, keys.NOT_CARRIED)}
    assert "#BSUB lines" in why["lsf.conf LSB_BSUB_PARSE_SCRIPT"]
    assert "as the job runs" in why["lsf.conf LSB_STDOUT_DIRECT"]
    assert "not a key xce knows" not in report.render(result)


def test_site_warnings_name_file_and_line(site):
    warnings = [str(d) for d in site.diags.warnings]
    assert "lsf.conf:10: LSB_JOB_MEMLIMIT set again (first at line 4); " \
        "the last value wins" in warnings
    assert any(w.startswith(f"{CONFIGDIR}/lsb.resources:16: PER_PROJECTS")
               for w in warnings)


def test_yaml_loads_back_and_names_sources_in_comments(site):
    assert load_yaml(site.yaml_text) == site.tree
    text = site.yaml_text
    assert f"    PRIORITY: 30  # {CONFIGDIR}/lsb.queues:4\n" in text
    assert "NICE" not in text
    assert "    RUN_WINDOW: 19:00-7:00" not in text   # would be a number
    assert "# Not carried over from the LSF files:" in text
    assert "#   lsf.conf:5: lsf.conf LSF_MASTER_LIST" in text


def test_report_lists_every_category(site):
    text = report.render(site)
    for heading in ("Carried and enforced (", "Accepted, not enforced (",
                    "Not carried (", "Warnings ("):
        assert heading in text
    assert text.rstrip().endswith("Nothing written (--check).")


# -- writing ------------------------------------------------------------------
def test_migrate_writes_yaml_and_lsf_view(tmp_path):
    target = tmp_path / "etc"
    result = migrate(str(DATA / "site"), str(target))
    assert result.written == ["xce.yaml", "lsf.conf",
                              "lsbatch/alpha/configdir/lsb.params"]
    assert load_yaml((target / "xce.yaml").read_text()) == result.tree
    conf = read_lsf_conf(target / "lsf.conf")
    assert conf["LSF_ENVDIR"] == str(target)
    assert conf["LSF_CONFDIR"] == str(target)
    assert conf["LSB_SHAREDIR"] == str(tmp_path / "etc" / "spool")
    assert conf["XCE_SPOOL_DIR"] == str(tmp_path / "etc" / "spool")
    assert conf["LSF_UNIT_FOR_LIMITS"] == "MB"
    assert conf["LSF_VERSION"] == "10.1"
    assert conf["LSB_JOB_MEMLIMIT"] == "y"
    params = (target / CONFIGDIR / "lsb.params").read_text()
    assert "Begin Parameters\nDEFAULT_QUEUE = normal short\n" in params
    assert "CLEAN_PERIOD = 7200\n" in params and "LSF_" not in params


def test_check_writes_nothing(tmp_path):
    migrate(str(DATA / "site"), str(tmp_path / "etc"), check=True)
    assert not (tmp_path / "etc").exists()


def test_existing_yaml_is_kept_as_backup(tmp_path):
    (tmp_path / "xce.yaml").write_text("old: 1\n")
    migrate(str(DATA / "bad"), str(tmp_path))
    assert (tmp_path / "xce.yaml.bak").read_text() == "old: 1\n"


def test_target_equal_to_source_is_refused(tmp_path):
    shutil.copytree(DATA / "bad", tmp_path / "lsf")
    with pytest.raises(MigrateError, match="overwrite the source"):
        migrate(str(tmp_path / "lsf"), str(tmp_path / "lsf"))


def test_write_lsf_view_from_a_plain_config(tmp_path):
    cfg = {"cluster": {"name": "xce"},
           "parameters": {"DEFAULT_QUEUE": "normal", "CLEAN_PERIOD": 3600,
                          "LSF_UNIT_FOR_LIMITS": "KB"}}
    written = write_lsf_view(str(tmp_path), cfg, str(tmp_path / "spool"))
    assert written == ["lsf.conf", "lsbatch/xce/configdir/lsb.params"]
    conf = read_lsf_conf(tmp_path / "lsf.conf")
    assert conf["LSB_CONFDIR"] == str(tmp_path / "lsbatch")
    assert conf["LSF_UNIT_FOR_LIMITS"] == "KB"
    text = (tmp_path / "lsbatch/xce/configdir/lsb.params").read_text()
    assert text.splitlines()[-4:] == [
        "Begin Parameters", "DEFAULT_QUEUE = normal", "CLEAN_PERIOD = 3600",
        "End Parameters"]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".tmp")]


# -- bad input ------------------------------------------------------------------
def test_garbage_becomes_warnings_with_line_numbers():
    result = migrate(str(DATA / "bad"), check=True)
    # A line is a warning, or (a value xce cannot take) not carried.
    warnings = {(d.path, d.line) for d in result.diags.warnings} | {
        (e.origin.path, e.origin.line) for e in result.migration.entries
        if e.status == keys.NOT_CARRIED and e.origin is not None}
    for where in [("lsb.queues", 1), ("lsb.queues", 4), ("lsb.queues", 5),
                  ("lsb.queues", 6), ("lsb.queues", 7), ("lsb.queues", 9),
                  ("lsb.queues", 12), ("lsb.queues", 15), ("lsb.hosts", 3),
                  ("lsb.hosts", 4), ("lsb.hosts", 5), ("lsb.hosts", 9),
                  ("lsb.hosts", 11), ("lsb.params", 2), ("lsb.params", 3)]:
        assert where in warnings
    tree = result.tree
    assert tree["queues"] == {"bad": {}, "truncated": {"PRIORITY": 7}}
    assert "DEFAULT_QUEUE" not in tree["parameters"]
    assert tree["hosts"]["h3"] == {}
    assert load_yaml(result.yaml_text) == tree


def test_missing_include_is_an_error_with_file_and_line():
    with pytest.raises(MigrateError) as error:
        migrate(str(DATA / "badinclude"), check=True)
    assert str(error.value) == ("lsb.queues:5: #INCLUDE "
                                "queues.d/missing.queues: No such file or "
                                "directory")


def test_unreadable_file_is_an_error(tmp_path):
    shutil.copytree(DATA / "bad", tmp_path / "lsf")
    (tmp_path / "lsf" / "lsb.users").symlink_to(tmp_path / "nothing")
    with pytest.raises(MigrateError, match="^lsb.users: No such file"):
        migrate(str(tmp_path / "lsf"), str(tmp_path / "etc"))
    assert not (tmp_path / "etc").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_file_without_read_permission_is_an_error(tmp_path):
    shutil.copytree(DATA / "bad", tmp_path / "lsf")
    (tmp_path / "lsf" / "lsb.queues").chmod(0)
    with pytest.raises(MigrateError, match="lsb.queues: Permission denied"):
        migrate(str(tmp_path / "lsf"), check=True)


def _plain_file(directory):
    (directory / "f").write_text("")
    return directory / "f"


@pytest.mark.parametrize("make, message", [
    (lambda p: p, "no LSF configuration files"),
    (lambda p: p / "absent", "No such file or directory"),
    (_plain_file, "Not a directory")])
def test_source_that_is_not_an_lsf_directory_is_an_error(tmp_path, make,
                                                         message):
    with pytest.raises(MigrateError, match=message):
        migrate(str(make(tmp_path)), check=True)


# -- the shared corpus ------------------------------------------------------------
def corpus_sets():
    if not CORPUS.is_dir():
        return []
    dirs = {p.parent for p in CORPUS.rglob("*")
            if p.is_file() and p.name != "SOURCES.md"}
    return sorted(str(d.relative_to(CORPUS)) for d in dirs)


AZURE = ("Azure__cyclecloud-lsf/specs/default/chef/site-cookbooks/lsf/"
         "templates/conf")
# What a reader sees in each corpus set: cluster, queue priorities, default
# queue, hosts (in order) and host slot settings.
CORPUS_FACTS = {
    AZURE: dict(cluster="xce", queues={q: 30 for q in (
        "ondemand", "ondemandmpi", "lowprio", "gpu", "gpumpi", "manual")},
        default_queue="ondemand", hosts={"default": {"MXJ": "!"}}),
    "LavaLite-Compute__lavalite/etc": dict(
        cluster="lavacore", queues={"system": 30, "developers": 43},
        default_queue="system", hosts={"default": {"MXJ": "!"}}),
    "TeraprocSoftware__Build-AMI": dict(
        cluster="openlava", queues={"batch": 30, "interactive": 43},
        default_queue="batch", hosts={
            "MASTER_HOSTNAME": {"address": "MASTER_HOSTNAME",
                                "launch": "auto", "server": True,
                                "MXJ": "!"},
            "default": {"MXJ": "!"}}),
    "TeraprocSoftware__vagrant-openlava-R/resources": dict(
        cluster="xce", queues={"batch": 30, "interactive": 43}),
    "bytedance__volclava/config": dict(
        cluster="xce", queues={"normal": 30}, default_queue="normal",
        hosts={"default": {"MXJ": "!"}}),
    "regiscely__LSF_Docker_boinc": dict(cluster="xce",
                                        queues={"default": None}),
    "shaoboyang__jhlava/config": dict(cluster="jhlava",
                                      queues={"default": None}),
    "tmetsch__docker_compose_openlava": dict(
        cluster="openlava", queues={"default": None},
        host_names=["master", "node1", "node2", "node3"]),
    "tmetsch__mesos_openlava/etc": dict(
        cluster="openlava", queues={"normal": 30, "priority": 43},
        default_queue="normal", host_names=["node1"]),
    "tmetsch__mesos_openlava/tests/files": dict(
        cluster="openlava", host_names=["master", "node1"]),
    "towel1980__openlava/config": dict(cluster="xce"),
    "zjma__openlava/config": dict(
        cluster="openlava", queues={"normal": 30}, default_queue="normal",
        hosts={"default": {"MXJ": "!"}}),
}


@needs_corpus
def test_corpus_sets_are_the_known_ones():
    assert corpus_sets() == sorted(CORPUS_FACTS)


@needs_corpus
@pytest.mark.parametrize("name", sorted(CORPUS_FACTS))
def test_corpus_set_migrates_with_the_facts_of_its_files(name, tmp_path):
    facts = CORPUS_FACTS[name]
    result = migrate(str(CORPUS / name), str(tmp_path / "etc"))
    tree = result.tree
    assert load_yaml((tmp_path / "etc" / "xce.yaml").read_text()) == tree
    assert tree["cluster"]["name"] == facts["cluster"]
    if "queues" in facts:
        assert {q: v.get("PRIORITY") for q, v in tree["queues"].items()} \
            == facts["queues"]
    assert tree["parameters"].get("DEFAULT_QUEUE") == facts.get(
        "default_queue")
    if "hosts" in facts:
        assert tree["hosts"] == facts["hosts"]
    if "host_names" in facts:
        assert list(tree["hosts"]) == facts["host_names"]


@needs_corpus
def test_corpus_descriptions_are_joined_across_continuation_lines():
    tree = migrate(str(CORPUS / "TeraprocSoftware__Build-AMI"),
                   check=True).tree
    assert tree["queues"]["batch"]["DESCRIPTION"] == (
        "For normal low priority jobs, running only if hosts are lightly "
        "loaded.")
    assert tree["queues"]["interactive"]["DESCRIPTION"] == (
        "Jobs submitted for this queue are scheduled as urgent jobs.")
    assert tree["queues"]["batch"]["NICE"] == 20


@needs_corpus
def test_corpus_template_lines_and_ibm_keys():
    result = migrate(str(CORPUS / AZURE), check=True)
    warned = {(d.path, d.line) for d in result.diags.warnings
              if "Chef ERB" in d.message}
    assert {("lsb.hosts.erb", 40), ("lsb.hosts.erb", 41),
            ("lsb.hosts.erb", 42), ("lsf.cluster.erb", 47)} <= warned
    tree = result.tree
    assert tree["parameters"]["LSF_UNIT_FOR_LIMITS"] == "MB"
    assert tree["host_models"]["Intel_E5"] == 12.5
    assert tree["resources"]["nodearray"]["TYPE"] == "String"
    assert tree["resources"]["ngpus"] == {"LOCATION": "[default]"}
    assert tree["queues"]["gpumpi"]["RES_REQ"] == (
        "select[nodearray=='gpumpi' && cyclecloudmpi] same[placementgroup]")
    dropped = [e.label for e in result.migration.entries
               if e.status == keys.NOT_CARRIED]
    assert "lsf.conf LSF_ENABLE_EGO = N" in dropped   # the last one wins
    assert "scheduler plug-in schmod_advrsv" in dropped   # a missing feature
    not_needed = [e.label for e in result.migration.entries
                  if e.status == keys.NOT_NEEDED]
    assert "scheduler plug-in schmod_fairshare" in not_needed   # built in


@needs_corpus
def test_corpus_odd_rows_and_duplicates_are_reported():
    lavalite = migrate(str(CORPUS / "LavaLite-Compute__lavalite/etc"),
                       check=True)
    assert [str(d) for d in lavalite.diags.warnings] == [
        "lsb.hosts:18: row has 5 values for 4 columns: extra values ignored "
        "(OpenLava would drop this row)"]
    app = migrate(str(CORPUS / "regiscely__LSF_Docker_boinc"), check=True)
    docker = app.tree["applications"]["docker"]
    assert docker["DESCRIPTION"] == "Docker User Service"
    assert docker["ENV_VARS"] == (
        "LSB_DOCKER_OPTIONS='-v /gpfs/fpo/bwadata:/gpfs/fpo/bwadata'")
    # LSF's older starter(user) keyword is left out, with the reason.
    assert "CONTAINER" not in docker
    left = {e.label.split(" = ")[0]: e.why for e in app.migration.entries
            if e.status == keys.NOT_CARRIED}
    assert left["application docker CONTAINER"].startswith(
        "keyword starter() is not supported by xce: the runtime runs as "
        "the job's user")
    assert any(str(d).startswith("lsb.applications:6: DESCRIPTION set again")
               for d in app.diags.warnings)


@needs_corpus
def test_corpus_resources_and_placeholders():
    jh = migrate(str(CORPUS / "shaoboyang__jhlava/config"), check=True)
    assert jh.tree["resources"]["cpuspeed"] == {
        "TYPE": "Numeric", "INTERVAL": 3600, "INCREASING": "Y",
        "DESCRIPTION": "CPU speed in GHz"}
    assert jh.tree["hosts"]["__HOSTNAME__"]["resources"] == ["cs"]
    assert any("placeholder" in d.message for d in jh.diags.warnings)
    zjma = migrate(str(CORPUS / "zjma__openlava/config"), check=True)
    not_needed = [e.label for e in zjma.migration.entries
                  if e.status == keys.NOT_NEEDED]
    assert "lsf.conf LSF_LIM_PORT = 16322" in not_needed
    # Recorded, but not written: the lsf.conf view must not point tools
    # at the old installation.
    assert "LSF_LIM_PORT" not in zjma.tree.get("parameters", {})
    assert "LSF_BINDIR" not in zjma.tree.get("parameters", {})
    assert "limits" not in zjma.tree        # every Limit is commented out


def test_truncated_or_scrambled_files_never_raise(tmp_path):
    """Cut every file of the site after each line, or feed it noise: the
    migration warns, it never fails with anything but a MigrateError."""
    import random
    rng = random.Random(4)
    source = tmp_path / "lsf"
    shutil.copytree(DATA / "site", source)
    # Many cuts migrate to the same text: each text is parsed once, and
    # every variant's tree is still compared with the parse of its text.
    parsed = {}
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        original = path.read_bytes()
        lines = original.splitlines(keepends=True)
        variants = [b"".join(lines[:cut]) for cut in range(len(lines))]
        noise = bytes(rng.randrange(256) for _ in range(300))
        variants += [noise, original.replace(b"(", b"").replace(b"=", b"")]
        for variant in variants:
            path.write_bytes(variant)
            try:
                result = migrate(str(source), check=True)
            except MigrateError:
                continue
            text = result.yaml_text
            if text not in parsed:
                parsed[text] = load_yaml(text)
            assert parsed[text] == result.tree
        path.write_bytes(original)


@needs_corpus
def test_corpus_detected_type_and_model_and_architectures_are_carried():
    mesos = migrate(str(CORPUS / "tmetsch__mesos_openlava/etc"), check=True)
    assert mesos.tree["host_architectures"] == {"IntelI5": ["x86_64"]}
    node1 = mesos.tree["hosts"]["node1"]
    assert "type" not in node1 and "model" not in node1   # the agent's
    enforced = [e.label for e in mesos.migration.entries
                if e.status == keys.ENFORCED]
    assert "host node1 model = !" in enforced
    assert "host node1 type = !" in enforced
    assert "host model IntelI5 ARCHITECTURE = x86_64" in enforced
    azure = migrate(str(CORPUS / "Azure__cyclecloud-lsf/specs/default/chef/"
                    "site-cookbooks/lsf/templates/conf"), check=True)
    assert azure.tree["host_architectures"]["ARM8l"] == [
        "AArch64Processorrev0aarch64", "CaviumThunderX"]
    assert "DEFAULT" not in azure.tree["host_architectures"]   # ()
    text = azure.yaml_text
    assert "# Not needed in xce (recorded, no value written):" in text
    assert "LSF_LIM_PORT = 7869: LSF daemon port" in text


def test_bjobs_consistent_exit_code_is_carried(tmp_path):
    (tmp_path / "lsf.conf").write_text("LSB_BJOBS_CONSISTENT_EXIT_CODE=Y\n")
    result = migrate(str(tmp_path), check=True)
    assert result.tree["parameters"]["LSB_BJOBS_CONSISTENT_EXIT_CODE"] == "Y"
    assert entries(result, "not carried") == []
