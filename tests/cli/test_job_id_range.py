"""Job ids past LSF's range (above 2147483646, the largest MAX_JOBID and
MAX_JOB_ARRAY_SIZE LSF accepts) get LSF's "Illegal job ID." from every
command that takes one: one line on stderr, exit 255, no traceback and no
request reaching the controller."""

import pytest

from tests.lib.xcecluster import shared_cluster

HUGE = "99999999999999999999"         # past a 64-bit integer, too
PAST_LSF = "2147483647"                # one past LSF's largest job id
HUGE_INDEX = "5[99999999999999999999]"
FULL_WIDTH_3 = "\uff13"              # a full-width 3: no job id either

# command line before the job id, for each command that takes one
COMMANDS = {
    "bjobs": ["bjobs"], "bjobs -l": ["bjobs", "-l"], "bhist": ["bhist"],
    "bhist -l": ["bhist", "-l"], "bacct": ["bacct"], "bpeek": ["bpeek"],
    "bjdepinfo": ["bjdepinfo"], "bstatus": ["bstatus"], "bread": ["bread"],
    "bpost": ["bpost", "-d", "note"], "bkill": ["bkill"], "bstop": ["bstop"],
    "bresume": ["bresume"], "bmod": ["bmod", "-q", "normal"],
    "btop": ["btop"], "bbot": ["bbot"], "brequeue": ["brequeue"],
    "bswitch": ["bswitch", "normal"], "xce explain": ["xce", "explain"],
}


@pytest.fixture(scope="module")
def running():
    # MAX_JOBID at LSF's largest: only LSF's own range bounds the ids here.
    with shared_cluster("xceids-", extra_params="  MAX_JOBID: 2147483646") as c:
        yield c


@pytest.mark.parametrize("word", [HUGE, PAST_LSF, HUGE_INDEX])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_job_id_past_lsf_range_is_illegal(running, command, word):
    r = running.run(*COMMANDS[command], word)
    assert (r.rc, r.out, r.err) == (255, "", f"{word}: Illegal job ID.\n")


@pytest.mark.parametrize("command", ["bjobs", "bkill", "bpeek", "bhist"])
def test_a_job_id_in_full_width_digits_is_illegal(running, command):
    r = running.run(*COMMANDS[command], FULL_WIDTH_3)
    assert (r.rc, r.out, r.err) == (255, "", f"{FULL_WIDTH_3}: Illegal job ID.\n")


def test_the_largest_lsf_job_id_is_only_not_found(running):
    r = running.run("bjobs", "2147483646")
    assert (r.rc, r.out, r.err) == (255, "", "Job <2147483646> is not found\n")
