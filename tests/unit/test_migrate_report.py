"""What the migration report tells an administrator: each value left out
is said once, under Not carried, clearly, and labelled with the file it
came from."""

from xce.config.lsf import report
from xce.config.migrate import migrate


def _site(tmp_path, files):
    """A flat LSF directory with one host and one queue, plus *files*."""
    base = {
        "lsf.shared": "Begin Cluster\nClusterName\nc1\nEnd Cluster\n",
        "lsf.cluster.c1": ("Begin Host\nHOSTNAME model type server\n"
                           "hostA.example.com ! ! 1\nEnd Host\n"),
        "lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n",
    }
    base.update(files)
    for name, text in base.items():
        (tmp_path / name).write_text(text)
    return migrate(str(tmp_path), None, check=True)


def _lines(text, heading):
    """The lines under *heading* of a report."""
    block = text.split(f"\n{heading} (", 1)[1].split("\n\n", 1)[0]
    return block.splitlines()[1:]


def test_a_refused_value_is_said_once_with_its_file_and_a_plain_reason(
        tmp_path):
    result = _site(tmp_path, {
        "lsf.conf": "LSB_PACK_SKIP_ERROR=N\n",
        "lsb.params": ("Begin Parameters\nPARALLEL_SCHED_BY_SLOT = N\n"
                       "End Parameters\n")})
    text = report.render(result)
    dropped = _lines(text, "Not carried")
    pack = [line for line in dropped if "LSB_PACK_SKIP_ERROR" in line]
    slot = [line for line in dropped if "PARALLEL_SCHED_BY_SLOT" in line]
    assert len(pack) == 1 and len(slot) == 1
    assert pack[0].split()[:3] == ["lsf.conf:1", "lsf.conf",
                                   "LSB_PACK_SKIP_ERROR"]
    assert slot[0].split()[:3] == ["lsb.params:2", "parameters",
                                   "PARALLEL_SCHED_BY_SLOT"]
    for line in pack + slot:
        assert not line.endswith(" is not"), line
        assert line.endswith("is not supported"), line
        assert "N is not" not in line, line
    # Not repeated as a warning.
    assert "LSB_PACK_SKIP_ERROR" not in "\n".join(_lines(text, "Warnings"))
    assert "PARALLEL_SCHED_BY_SLOT" not in "\n".join(
        _lines(text, "Warnings"))


def test_a_host_named_like_an_install_time_placeholder_is_warned_about(
        tmp_path):
    # Build-AMI's lsf.cluster names its master MASTER_HOSTNAME, replaced
    # at install time; an upper-case name with an underscore is no host
    # name (RFC 1123), as @x@ and __X__ are not.
    result = _site(tmp_path, {"lsf.cluster.c1": (
        "Begin Host\nHOSTNAME model type server\n"
        "MASTER_HOSTNAME ! ! 1\nnode_1 ! ! 1\n__NODE__ ! ! 1\nEnd Host\n")})
    warned = {d.where(): d.message for d in result.diags.warnings}
    assert warned["lsf.cluster.c1:3"] == (
        "host name MASTER_HOSTNAME looks like an install-time placeholder; "
        "carried as written")
    assert "lsf.cluster.c1:4" not in warned
    assert "placeholder" in warned["lsf.cluster.c1:5"]
    assert "MASTER_HOSTNAME" in result.tree["hosts"]


def test_a_host_row_is_reported_by_the_name_lsb_hosts_wrote(tmp_path):
    # LSF_STRIP_DOMAIN: lsb.hosts writes hostA for hostA.example.com.
    result = _site(tmp_path, {
        "lsf.conf": "LSF_STRIP_DOMAIN=.example.com\n",
        "lsb.hosts": ("Begin Host\nHOST_NAME MXJ\nhostA 4\n"
                      "default 1\nEnd Host\n")})
    labels = {str(e.origin): e.label for e in result.migration.entries}
    assert labels["lsb.hosts:3"] == "host hostA MXJ = 4"
    assert result.tree["hosts"]["hostA"]["MXJ"] == 4


def test_bjobs_display_enh_is_carried_as_what_bjobs_does(tmp_path):
    # LSF 10.1 lsf.conf: Y shows an array element as jobID[index] in the
    # JOBID column of bjobs; xce's bjobs always does (N is LSF's default).
    from xce.client.jobs.table import default_line
    row = dict(jobid=7, idx=3, user="u", stat="RUN", queue="normal",
               from_host="h", exec_hosts="h", name="a[1-5]",
               submit_time=0)
    assert default_line(row).startswith("7[3] ")
    result = _site(tmp_path, {"lsf.conf": "LSB_BJOBS_DISPLAY_ENH=Y\n"})
    status = {e.label: e for e in result.migration.entries}
    assert status["lsf.conf LSB_BJOBS_DISPLAY_ENH = Y"].status == "enforced"
    assert result.tree["parameters"]["LSB_BJOBS_DISPLAY_ENH"] in ("Y", True)
    result = _site(tmp_path, {"lsf.conf": "LSB_BJOBS_DISPLAY_ENH=N\n"})
    entry = {e.label: e for e in result.migration.entries}[
        "lsf.conf LSB_BJOBS_DISPLAY_ENH = N"]
    assert entry.status == "not carried"
    assert "JOBID column" in entry.why and "not documented" not in entry.why


def test_names_a_queue_or_limit_gives_that_do_not_exist_are_warned_about(
        tmp_path):
    result = _site(tmp_path, {
        "lsb.queues": ("Begin Queue\nQUEUE_NAME = normal\n"
                       "HOSTS = hostA.example.com+2 apple ~orange others\n"
                       "End Queue\n"),
        "lsb.resources": ("Begin Limit\nNAME = l1\n"
                          "QUEUES = normal regression low\nSLOTS = 4\n"
                          "End Limit\n")})
    warned = [(d.where(), d.message) for d in result.diags.warnings]
    assert ("lsb.queues:3", "queue normal HOSTS: apple is not a host or "
            "host group; ignored") in warned
    assert ("lsb.queues:3", "queue normal HOSTS: orange is not a host or "
            "host group; ignored") in warned
    assert ("lsb.resources:3", "limit l1 QUEUES: regression is not a "
            "queue; ignored") in warned
    assert ("lsb.resources:3", "limit l1 QUEUES: low is not a queue; "
            "ignored") in warned
    assert not [w for w in warned if "hostA" in w[1] or "others" in w[1]
                or "normal is" in w[1]]
    # Carried as written (a name that does not exist matches nothing).
    assert result.tree["limits"][0]["QUEUES"] == ["normal", "regression",
                                                  "low"]


def test_users_naming_no_user_or_group_are_warned_about(tmp_path):
    import pwd
    me = pwd.getpwuid(__import__("os").getuid()).pw_name
    result = _site(tmp_path, {
        "lsb.users": ("Begin UserGroup\nGROUP_NAME GROUP_MEMBER\n"
                      f"staff ({me})\nEnd UserGroup\n"),
        "lsb.queues": ("Begin Queue\nQUEUE_NAME = normal\n"
                       f"USERS = {me} staff nosuchuserxce\nEnd Queue\n"),
        "lsb.resources": ("Begin Limit\nNAME = l1\n"
                          "USERS = all ~nobodyxce\nSLOTS = 4\n"
                          "End Limit\n")})
    warned = [(d.where(), d.message) for d in result.diags.warnings]
    assert ("lsb.queues:3", "queue normal USERS: nosuchuserxce is not a "
            "user or user group; ignored") in warned
    assert ("lsb.resources:3", "limit l1 USERS: nobodyxce is not a user "
            "or user group; ignored") in warned
    assert not [w for w in warned if me + " is" in w[1] or "staff" in w[1]]
