"""The information commands' layouts, from plain rows (no cluster)."""

import re

from xce.client.cluster import lsid as info
from xce.client.cluster import hosts as info_hosts
from xce.client.cluster import params as info_params
from xce.client.cluster import queues as info_queues


def _queue(name="normal", prio=30, open_=True, active=True, **conf):
    return {"name": name, "priority": prio, "open": open_, "active": active,
            "conf": conf}


def _host(name="hostA", status="ok", mxj=8, jl_u=None):
    return {"name": name, "status": status, "adm_closed": 0, "ncpus": 8,
            "mxj": mxj, "maxmem": 0, "maxswp": 0, "type": "", "model": "",
            "conf": {"jl_u": jl_u, "resources": []}, "load": {}}


# -- bqueues ------------------------------------------------------------------
def test_queue_rows_match_the_reference_sample():
    counts = info_queues.slot_counts({("normal", "PEND"): (2, 2),
                                      ("normal", "RUN"): (3, 3)})
    assert info_queues.short_table(
        [_queue("owners", 43), _queue(), _queue("night", 40, active=False)],
        counts) == "\n".join([
            "QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  "
            "PEND   RUN  SUSP",
            "owners           43  Open:Active       -    -    -    -     0"
            "     0     0     0",
            "normal           30  Open:Active       -    -    -    -     5"
            "     2     3     0",
            "night            40  Open:Inact        -    -    -    -     0"
            "     0     0     0"])


def test_slot_counts_put_each_state_in_its_column():
    counts = info_queues.slot_counts({
        ("q", "PEND"): (1, 4), ("q", "PSUSP"): (1, 1), ("q", "RUN"): (1, 2),
        ("q", "UNKWN"): (1, 1), ("q", "SSUSP"): (1, 1), ("q", "USUSP"): (1, 3),
        ("q", "ZOMBI"): (1, 5)})
    assert counts["q"] == {"pend": 5, "run": 3, "ssusp": 1, "ususp": 3,
                           "njobs": 12}


def test_queue_limits_show_numbers_and_dashes():
    q = _queue(qjob_limit=10, ujob_limit=2, hjob_limit=1, pjob_limit=1.5)
    line = info_queues.short_line(q, {})
    assert line[36:56] == "  10    2    2    1 "
    assert "  10    2  1.5    1" in info_queues.long_blocks([q], {})


def test_long_queue_names_lose_their_front_unless_wide():
    q = _queue("a_really_long_queue_name")
    assert info_queues.short_line(q, {}).startswith("*ong_queue_name ")
    assert info_queues.short_line(q, {}, wide=True).startswith(
        "a_really_long_queue_name  30  Open:Active")


def test_long_block_says_default_and_inact_adm_and_limits():
    q = _queue(active=False, default=True, description="Jobs go here",
               runlimit=[30, 120], memlimit=[None, 1048576])
    text = info_queues.long_blocks([q, _queue("other")], {})
    assert "QUEUE: normal\n  -- Jobs go here  This is the default queue.\n" \
        in text
    assert "Open:Inact_Adm" in text
    assert "DEFAULT LIMITS:\n\n RUNLIMIT\n 30.0 min\n" in text
    assert "MAXIMUM LIMITS:\n\n RUNLIMIT\n 120.0 min\n\n MEMLIMIT\n " \
        "1048576 K\n" in text
    assert "\n" + "-" * 79 + "\n\nQUEUE: other\n" in text


def test_two_default_queues_are_each_one_of_the_defaults():
    text = info_queues.long_blocks(
        [_queue("a", default=True), _queue("b", default=True)], {})
    assert text.count("This is one of the default queues.") == 2


# -- bhosts -------------------------------------------------------------------
def test_host_rows_match_the_reference_sample():
    hosts = [_host("hostA", mxj=8), _host("hostB", "closed_Adm", mxj=4),
             _host("hostC", "unavail", mxj=1)]
    counts = {"hostA": {"RUN": 2}, "hostB": {"RUN": 4}}
    assert info_hosts.short_table(hosts, counts) == "\n".join([
        "HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  "
        "USUSP    RSV",
        "hostA              ok              -      8      2      2      0"
        "      0      0",
        "hostB              closed          -      4      4      4      0"
        "      0      0",
        "hostC              unavail         -      1      0      0      0"
        "      0      0"])


def test_host_with_every_slot_used_is_closed_full():
    view = info_hosts.host_view(_host(mxj=2), {"hostA": {"RUN": 1,
                                                         "USUSP": 1}})
    assert view["status"] == "closed_Full"
    assert (view["njobs"], view["run"], view["ususp"]) == (2, 1, 1)
    # An admin's close wins over a full host, as in LSF.
    closed = info_hosts.host_view(_host(status="closed_Adm", mxj=1),
                                  {"hostA": {"RUN": 1}})
    assert closed["status"] == "closed_Adm"


def test_wide_host_view_names_the_closed_state_in_14_columns():
    line = info_hosts.short_line(_host(status="closed_Adm", jl_u=2), {},
                                 wide=True)
    assert line.startswith("hostA              closed_Adm         2      8")


def test_long_host_block_has_lsf_headings():
    text = info_hosts.long_blocks([_host()], {})
    lines = text.splitlines()
    assert lines[:3] == [
        "HOST  hostA",
        "STATUS           CPUF  JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    "
        "RSV DISPATCH_WINDOW",
        "ok               1.00     -      8      0      0      0      0      "
        "0      -"]
    assert " CURRENT LOAD USED FOR SCHEDULING:" in lines
    assert " LOAD THRESHOLD USED FOR SCHEDULING:" in lines


def test_unavailable_host_has_no_current_load():
    text = info_hosts.long_blocks([_host(status="unavail")], {})
    assert "CURRENT LOAD" not in text


# -- lsid, lsclusters, bparams --------------------------------------------------
class _Site:
    conf = {"XCE_CLUSTER_NAME": "alpha", "LSF_UNIT_FOR_LIMITS": "MB"}


def test_lsid_first_line_has_one_comma_after_the_version():
    text = info.lsid_text({"cluster": "alpha", "master": "m1"}, _Site())
    first = text.splitlines()[0]
    assert re.search(r"IBM Spectrum LSF Standard (.*),", first).group(1) == \
        "10.1.0.13"
    assert first.count(",") == 1
    assert text.splitlines()[-2:] == ["My cluster name is alpha",
                                      "My master name is m1"]


def test_lsid_falls_back_to_lsf_conf_without_a_store():
    assert "My cluster name is alpha" in info.lsid_text({}, _Site())


def test_lsclusters_layout():
    text = info.lsclusters_text({"cluster": "alpha", "master": "m1"},
                                [_host(), _host("hostB")], _Site())
    assert text.splitlines() == [
        "CLUSTER_NAME   STATUS   MASTER_HOST               ADMIN    HOSTS  "
        "SERVERS",
        "alpha          ok       m1                         root        2"
        "        2"]


def test_bparams_values_fill_defaults_and_find_the_default_queue():
    values = info_params.effective({"MBD_SLEEP_TIME": "5",
                                    "JOB_ACCEPT_INTERVAL": "2"},
                                   [_queue("a"), _queue("b", default=True)])
    assert values["DEFAULT_QUEUE"] == "b"
    assert info_params.summary(values).splitlines() == [
        "Default Queues:  b",
        "MBD_SLEEP_TIME used for calculations:  5 seconds",
        "Job Checking Interval:  30 seconds",
        "Job Accepting Interval:  10 seconds"]


def test_bparams_long_shows_user_priority_before_max_jobid():
    plain = info_params.long_text(info_params.effective({}, []))
    assert "MAX_USER_PRIORITY" not in plain
    values = info_params.effective({"MAX_USER_PRIORITY": "9",
                                    "JOB_PRIORITY_OVER_TIME": "3/20"}, [])
    lines = info_params.long_text(values).splitlines()
    at = lines.index("Maximal job priority defined for all users:")
    assert lines[at:at + 8] == [
        "Maximal job priority defined for all users:",
        "    MAX_USER_PRIORITY = 9", "The default job priority is: 4", "",
        "Job priority is increased by the system dynamically based on "
        "waiting time:",
        "    JOB_PRIORITY_OVER_TIME = 3/20 (minutes)", "",
        "The Maximum JobId defined in the system:"]


def test_bparams_all_and_showconf_are_name_value_lines():
    values = info_params.effective({"DEFAULT_QUEUE": "normal"}, [])
    text = info_params.all_text(values, _Site.conf)
    assert "    LSF_UNIT_FOR_LIMITS = MB" in text.splitlines()
    conf = info_params.showconf_text("mbd", values, _Site.conf, now=0)
    lines = conf.splitlines()
    assert lines[0].startswith("MBD configuration at ")
    assert all(re.fullmatch(r"    [A-Z_][A-Z0-9_]* = .*", x)
               for x in lines[1:])
    assert lines[1] == "    XCE_CLUSTER_NAME = alpha"


def test_a_limit_below_a_tenth_of_a_minute_keeps_its_decimals():
    """A RUNLIMIT/CPULIMIT block shows minutes with one decimal, as LSF
    does; a fraction below that (XCE_FRACTIONAL_RUNLIMIT) is not rounded
    to a 0.0 (no time at all) or to a tenth it is not."""
    from xce.client.text.limits import task_lines, time_lines
    assert time_lines("RUNLIMIT", 600) == ["", " RUNLIMIT", " 600.0 min"]
    assert time_lines("RUNLIMIT", 0.5)[2] == " 0.5 min"
    assert time_lines("RUNLIMIT", 0.02)[2] == " 0.02 min"
    assert time_lines("CPULIMIT", 0.05, "hostA")[2] == " 0.05 min of hostA"
    assert task_lines("2  3 4") == ["", " TASKLIMIT", " 2 3 4"]
    assert task_lines(None) == []
