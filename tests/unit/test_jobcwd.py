"""The job's working directory (xce.model.jobcwd): one rule for bsub -cwd,
LSB_JOB_CWD, bmod -cwd and the controller's check of a submission; the
same input gives the same directory, or the same refusal, on each way."""

import posixpath

import pytest
from hypothesis import given, settings, strategies as st

from xce.client.submit import options as sub
from xce.controller import modify, submit
from xce.errors import text
from xce.model import jobcwd, outdir

SUB = "/home/ann/proj"


@pytest.mark.parametrize("asked, want", [
    (None, SUB),                                # no -cwd: where bsub ran
    (".", SUB), ("./", SUB), ("", None),
    ("run", SUB + "/run"), ("run/", SUB + "/run"),
    ("./run//out/.", SUB + "/run/out"),
    ("../other", "/home/ann/other"),
    ("../../../../..", "/"),
    ("/scratch/a/../b/", "/scratch/b"),         # absolute with ..
    ("//scratch//x/", "/scratch/x"),
    ("/", "/"), ("/..", "/"),
    ("%U/%J_%I", SUB + "/%U/%J_%I"),            # patterns kept for start
    ("/s/%JG/../x", "/s/x"),
])
def test_the_rule(asked, want):
    if want is None:
        with pytest.raises(jobcwd.BadCwd) as e:
            jobcwd.resolve(asked, SUB)
        assert e.value.key == "CWD_EMPTY"
    else:
        assert jobcwd.resolve(asked, SUB) == want


def test_the_submission_directory_alone_is_kept_as_it_is():
    # PWD as the shell keeps it (a '%' there is the directory's own).
    assert jobcwd.resolve(None, "/data/100%J") == "/data/100%J"


@pytest.mark.parametrize("asked, subcwd, key", [
    ("", SUB, "CWD_EMPTY"),
    ("a\0b", SUB, "CWD_NUL"),
    ("/" + "x" * jobcwd.MAX_LEN, SUB, "CWD_TOO_LONG"),
    # short as given, too long once under the submission directory
    ("x" * 4000, "/" + "s" * 200, "CWD_TOO_LONG"),
    ("rel", "relative/subcwd", "CWD_NOT_ABSOLUTE"),
    ("/abs", None, "CWD_NOT_ABSOLUTE"),
    (None, "", "CWD_NOT_ABSOLUTE"),
    ("rel", "/sub\0x", "CWD_NOT_ABSOLUTE"),
])
def test_bad_input_is_refused_with_its_key(asked, subcwd, key):
    with pytest.raises(jobcwd.BadCwd) as e:
        jobcwd.resolve(asked, subcwd)
    assert e.value.key == key
    assert "\n" not in text(e.value.key, **e.value.fields)


def test_a_long_path_that_resolves_short_is_checked_as_given_too():
    asked = "a/.." * 2000       # 8000 characters, resolving to SUB
    with pytest.raises(jobcwd.BadCwd) as e:
        jobcwd.resolve(asked, SUB)
    assert e.value.key == "CWD_TOO_LONG"
    assert jobcwd.resolve("/" + "x" * (jobcwd.MAX_LEN - 1), SUB) == \
        "/" + "x" * (jobcwd.MAX_LEN - 1)


@pytest.mark.parametrize("asked, yes", [
    ("/s/%J", True), ("%I", True), ("%U", True), ("%G", True),
    ("%P", True), ("%JG", True), ("%EJ", True), ("%EI", True), ("%H", True),
    ("/s/100%", False), ("/s/%j", False), ("/s/%X", False), (None, False),
    ("", False),
])
def test_a_dynamic_pattern_is_what_makes_lsf_create_the_directory(asked,
                                                                   yes):
    assert jobcwd.has_pattern(asked) is yes


def test_patterns_filled_at_start_are_made_normal_again():
    job = {"jobid": 42, "idx": 3, "user": "ann", "exec_hosts": "h1 h1"}
    spec = {"specified_cwd": "/s/%JG/%J_%I/",
            "cwd": jobcwd.resolve("/s/%JG/%J_%I/", SUB)}
    assert outdir.working_directory(job, spec) == "/s/42_3"   # no %JG
    spec["job_group"] = "/g/sub"
    assert outdir.working_directory(job, spec) == "/s/g/sub/42_3"
    # where it ran when it was missing
    assert outdir.working_directory(job, dict(spec, exec_cwd="/tmp")) == \
        "/tmp"


# -- the same rule on every way --------------------------------------------
def _by_bsub(asked, subcwd):
    try:
        return sub.resolve_cwd(asked, subcwd)
    except sub.SubmitError as e:
        return ("refused", str(e))


def _by_bmod(asked, subcwd):
    """The client's check, then the controller's resolution."""
    try:
        if asked is not None:
            sub.check_cwd(asked)
        return modify._working_directory({"specified_cwd": asked,
                                          "subcwd": subcwd})
    except (sub.SubmitError, submit.Rejected) as e:
        return ("refused", str(e))


def _by_submit_check(asked, subcwd):
    spec = {"specified_cwd": asked, "subcwd": subcwd, "cwd": "/forged"}
    try:
        submit.check_cwd(spec)
    except submit.Rejected as e:
        return ("refused", str(e))
    return spec["cwd"]


_NAME = st.sampled_from(["a", "b", "..", ".", "", "%J", "%I", "%U", "%JG",
                         "x y", "é", "100%", "\0"])
_PATH = st.lists(_NAME, max_size=8).map("/".join)
_ASKED = st.one_of(st.none(), _PATH, _PATH.map(lambda p: "/" + p),
                   st.text(max_size=40))
_SUBCWD = st.one_of(_PATH.map(lambda p: "/" + p.replace("\0", "")),
                    st.sampled_from(["rel", "", "/"]))


@settings(max_examples=400, deadline=None)
@given(_ASKED, _SUBCWD)
def test_bsub_bmod_and_the_controller_agree(asked, subcwd):
    got = _by_bsub(asked, subcwd)
    assert _by_bmod(asked, subcwd) == got
    assert _by_submit_check(asked, subcwd) == got
    if isinstance(got, str):
        # absolute, normal, and a fixed point of the rule
        assert got.startswith("/") and "\0" not in got
        if asked is not None:
            assert got == posixpath.normpath(got).replace("//", "/", 1)
            assert jobcwd.resolve(got, "/elsewhere") == got
            assert not got.endswith("/") or got == "/"
