"""Through the real commands against a running cluster: an LSF option xce
does not implement is refused in one line naming it, exit 255, and nothing
is submitted or changed; a word that is no LSF option is LSF's "illegal
option" with the usage; the words of the issue are never read as other
options; the controller keeps running."""

import pytest

from tests.lib.xcecluster import Cluster


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("refusals") / "c")
    try:
        yield c.start()
    finally:
        c.stop()


def _jobs(cluster):
    return cluster.run("bjobs", "-a", "-noheader").out


@pytest.mark.parametrize("argv", [
    ["bsub", "-k", "chkdir", "echo", "hi"],
    ["bsub", "-ext", "foo", "echo", "hi"],
    ["bsub", "-IS", "bash"],
    ["bsub", "-clusters", "c2", "true"],
    ["bjobs", "-sum"],
    ["lsload", "-I", "r15s"],
], ids=lambda argv: " ".join(argv[:2]))
def test_an_lsf_option_xce_lacks_is_refused_and_nothing_happens(shared,
                                                               argv):
    before = _jobs(shared)
    r = shared.run(*argv)
    assert (r.rc, r.out) == (255, "")
    assert r.err == f"{argv[0]}: option {argv[1]} is not supported by xce\n"
    assert _jobs(shared) == before
    assert shared.proc.poll() is None


# Options whose output LSF's documentation leaves unsaid: refused with why.
UNDOCUMENTED = "LSF does not document "


@pytest.mark.parametrize("argv, why", [
    (["bkill", "-C", "why", "0"], "where it shows the reason"),
    (["bqueues", "-o", "queue_name"], "the fields' headers and widths"),
    (["bhosts", "-o", "host_name status"], "the fields' headers and widths"),
], ids=lambda v: " ".join(v[:2]) if isinstance(v, list) else "")
def test_an_option_of_undocumented_output_is_refused_saying_why(shared, argv,
                                                                why):
    running = shared.submit("sleep 60")
    shared.wait_stat(running, "RUN")
    before = _jobs(shared)
    r = shared.run(*argv)
    assert (r.rc, r.out) == (255, "")
    assert r.err == (f"{argv[0]}: option {argv[1]} is not supported by xce: "
                     f"{UNDOCUMENTED}{why}\n")
    assert _jobs(shared) == before          # bkill -C 0 killed nothing
    assert shared.stat(running) == "RUN"
    assert shared.run("bkill", str(running)).rc == 0
    # the kill ends the job after bkill returns: the next test's 'before'
    # must not catch it changing
    shared.wait_stat(running, "EXIT")


def test_bmod_refuses_an_option_it_lacks_and_the_job_is_unchanged(shared):
    jobid = shared.submit("-H", "-J", "kept", "true")
    r = shared.run("bmod", "-k", "chkdir", "-J", "other", str(jobid))
    assert (r.rc, r.out) == (255, "")
    assert r.err == "bmod: option -k is not supported by xce\n"
    assert shared.stored_job(jobid)["spec"]["name"] == "kept"
    r = shared.run("bmod", "-W", "5", "-Wn", str(jobid))
    assert r.rc == 255 and r.err.startswith(
        "bmod: -W and -Wn cannot be used together\nUsage: bmod ")
    assert shared.run("bkill", str(jobid)).rc == 0
    shared.wait_stat(jobid, "EXIT")


@pytest.mark.parametrize("argv", [
    ["bsub", "-Jname", "true"], ["bhosts", "-zz"], ["bkill", "-Y", "1"],
    ["badmin", "qopen", "-Y"]], ids=lambda argv: " ".join(argv[:2]))
def test_a_word_that_is_no_lsf_option_is_illegal(shared, argv):
    before = _jobs(shared)
    r = shared.run(*argv)
    word = next(w for w in argv[1:] if w.startswith("-"))
    assert (r.rc, r.out) == (255, "")
    first, usage = r.err.splitlines()
    assert first == f"{argv[0]}: illegal option -- {word[1:]}"
    assert usage.startswith(f"Usage: {argv[0]}")
    assert _jobs(shared) == before


def test_lsf_subcommands_xce_lacks_are_refused_by_name(shared):
    r = shared.run("badmin", "mbddebug")
    assert (r.rc, r.out, r.err) == (
        255, "", "badmin: mbddebug is not supported by xce\n")
    r = shared.run("lsadmin", "limdebug")
    assert (r.rc, r.out, r.err) == (
        255, "", "lsadmin: limdebug is not supported by xce\n")


@pytest.mark.parametrize("command", ["bsub", "bjobs", "bkill", "bqueues",
                                     "lsid", "badmin"])
def test_every_command_prints_its_version(shared, command):
    r = shared.run(command, "-V")
    assert r.rc == 0 and r.out == ""
    assert r.err.startswith("xce ") and "LSF 10.1" in r.err
