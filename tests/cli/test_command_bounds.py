"""Run and memory limits, slot counts, priorities and other numbers a user
types are refused where LSF refuses them, with LSF's words and exit 255,
and nothing is submitted or changed: fractions of a minute, 40-digit
values, full-width digits, an empty command, unknown hosts and users."""

import pytest

from tests.lib.xcecluster import Cluster

NOT_SUBMITTED = ". Job not submitted.\n"
BIG = "1234567890" * 4
FULL_WIDTH_3 = "\uff13"


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    # -sp needs MAX_USER_PRIORITY (else "Job priority control undefined").
    c = Cluster(tmp_path_factory.mktemp("bounds") / "c",
                extra_params="  MAX_USER_PRIORITY: 10\n")
    try:
        yield c.start()
    finally:
        c.stop()


def _refused(cluster, argv, err, env=None):
    r = cluster.run(*argv, env=env)
    assert (r.rc, r.out, r.err) == (255, "", err), r
    assert cluster.proc.poll() is None


@pytest.mark.parametrize("argv, err", [
    (["-W", "1.5"], "1.5: Bad RUNLIMIT specification"),
    (["-W", "0.01"], "0.01: Bad RUNLIMIT specification"),
    (["-W", "0"], "0: RUNLIMIT value should be a positive integer"),
    (["-W", BIG], f"{BIG}: RUNLIMIT value is too big"),
    (["-W", "35791395"], "35791395: RUNLIMIT value is too big"),
    (["-W", FULL_WIDTH_3], f"{FULL_WIDTH_3}: Bad RUNLIMIT specification"),
    (["-M", BIG], f"{BIG}: MEMLIMIT value should be a positive integer"),
    (["-M", "0"], "0: MEMLIMIT value should be a positive integer"),
    (["-M", FULL_WIDTH_3 + "G"],
     f"{FULL_WIDTH_3}G: MEMLIMIT value should be a positive integer"),
    (["-n", FULL_WIDTH_3], "Bad argument for option -n"),
    (["-n", BIG], "Bad argument for option -n"),
    (["-n", "-2"], "The number of processors must be a positive integer"),
    (["-sp", FULL_WIDTH_3], f"{FULL_WIDTH_3}: Illegal job priority"),
    (["-sp", "0"], "0: Illegal job priority"),
    (["-sp", BIG], f"{BIG}: Illegal job priority"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bsub_refuses_numbers_lsf_refuses(shared, argv, err):
    _refused(shared, ["bsub", *argv, "true"], err + NOT_SUBMITTED)


@pytest.mark.parametrize("command", ["", " ", "\t"])
def test_bsub_of_an_empty_command_is_an_empty_job(shared, command):
    _refused(shared, ["bsub", command], "Empty job" + NOT_SUBMITTED)


def test_nothing_refused_was_submitted_and_good_values_are_taken(shared):
    jobid = shared.submit("-W", "1:30", "-M", "1G", "-n", "1", "-sp", "3",
                          "-H", "true")
    r = shared.run("bjobs", "-a", "-noheader")
    assert [line.split()[0] for line in r.out.splitlines()] == [str(jobid)]
    assert shared.run("bkill", str(jobid)).rc == 0


def test_minutes_with_decimals_need_the_fractional_setting(shared):
    jobid = shared.submit("-W", "0.5", "-H", "true",
                          env={"XCE_FRACTIONAL_RUNLIMIT": "Y"})
    assert "RUNLIMIT" in shared.run("bjobs", "-l", str(jobid)).joined
    assert shared.run("bkill", str(jobid)).rc == 0


@pytest.mark.parametrize("argv, err", [
    (["-W", "1.5"], "1.5: Bad RUNLIMIT specification"),
    (["-W", BIG], f"{BIG}: RUNLIMIT value is too big"),
    (["-M", BIG], f"{BIG}: MEMLIMIT value should be a positive integer"),
    (["-n", FULL_WIDTH_3], "Bad argument for option -n"),
    (["-sp", BIG], f"{BIG}: Illegal job priority"),
    (["-sp", FULL_WIDTH_3], f"{FULL_WIDTH_3}: Illegal job priority"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bmod_refuses_the_same_values_and_changes_nothing(shared, argv, err):
    jobid = shared.submit("-H", "-W", "10", "true")
    _refused(shared, ["bmod", *argv, str(jobid)],
             err + ". Job not modified.\n")
    long = shared.run("bjobs", "-l", str(jobid)).joined
    assert "10.0 min" in long, long
    assert shared.run("bkill", str(jobid)).rc == 0


def test_bqueues_refuses_an_unknown_host_or_user(shared):
    _refused(shared, ["bqueues", "-m", "nosuchhost"],
             "nosuchhost: Bad host name, host group name or cluster name\n")
    _refused(shared, ["bqueues", "-u", "nosuchuser"],
             "nosuchuser: Unknown user\n")
    assert shared.run("bqueues", "-u", "root").rc == 0
    assert shared.run("bqueues", "-m", shared.name).rc == 0


@pytest.mark.parametrize("argv", [
    ["bread", "-i", FULL_WIDTH_3, "1"], ["bpost", "-i", BIG, "-d", "x", "1"],
    ["bjdepinfo", "-r", FULL_WIDTH_3, "1"], ["btop", "1", FULL_WIDTH_3],
    ["bhist", "-n", FULL_WIDTH_3], ["bkill", "-s", "\u00b9", "1"],
    ["bacct", "-C", ".-\u00b2,."]])
def test_other_commands_refuse_non_ascii_digits_in_one_line(shared, argv):
    r = shared.run(*argv)
    assert r.rc == 255 and r.out == "", r
    assert "Traceback" not in r.err and r.err.strip(), r


@pytest.mark.parametrize("value", ["abc", FULL_WIDTH_3, "-1", "0", BIG])
def test_a_bad_request_timeout_refuses_the_request_before_spooling(
        shared, value):
    before = shared.run("bjobs", "-a", "-noheader").out
    _refused(shared, ["bsub", "true"],
             f"XCE_REQUEST_TIMEOUT={value}: must be a number of seconds "
             "above 0, at most 86400\n", env={"XCE_REQUEST_TIMEOUT": value})
    assert shared.run("bjobs", "-a", "-noheader").out == before
