"""bjobs -p1's single key reason (xce.client.jobs.pend_levels)."""

from xce.client.jobs.pend_levels import key_reason
from xce.model import jsoncodec

from tests.lib.builders import job_row


def _key(reasons):
    return key_reason(job_row(1, pend_reason=jsoncodec.dumps(reasons)))


def test_job_wide_reason_is_the_key():
    assert _key([["The queue has reached its job slot limit", None]]) == [
        " The queue has reached its job slot limit;"]


def test_key_is_the_asked_hosts_reason_not_the_hosts_left_out():
    """bsub -m on a closed host: the other hosts are only 'Not specified
    in job submission'; the key is why the asked host cannot run it."""
    assert _key([["Closed by LSF administrator", ["h1"]],
                 ["Not specified in job submission", ["h2", "h3", "h4"]]]
                ) == [" Closed by LSF administrator: 1 host;"]
    assert _key([["Not usable to the queue", ["h2", "h3"]],
                 ["Unable to reach slave batch server", ["h1"]]]) == [
        " Unable to reach slave batch server: 1 host;"]


def test_key_prefers_what_the_candidate_hosts_wait_for():
    assert _key([["Job's resource requirements not satisfied",
                  ["h1", "h2", "h3"]],
                 ["Not enough job slot(s)", ["h4"]]]) == [
        " Not enough job slot(s): 1 host;"]


def test_only_hosts_left_out_gives_the_most_common():
    assert _key([["Not specified in job submission", ["h2", "h3"]],
                 ["Not usable to the queue", ["h1"]]]) == [
        " Not specified in job submission: 2 hosts;"]
