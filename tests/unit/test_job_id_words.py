"""The one parser of job ids that every command uses (xce.client.ids)."""

import pytest

from xce.client import ids
from xce.errors import XceError


@pytest.fixture(autouse=True)
def cluster_max_jobid(monkeypatch):
    """The cluster's MAX_JOBID as read from its store: LSF's largest here,
    so these tests read no store."""
    monkeypatch.setattr(ids, "_configured", [ids.LSF_MAX_JOBID])


@pytest.mark.parametrize("word, parsed", [
    ("123", (123, None)), ("123[7]", (123, 7)), (" 42 ", (42, None)),
    ("2147483646", (2147483646, None)), ("5[2147483646]", (5, 2147483646)),
])
def test_a_job_id_within_lsf_range_parses(word, parsed):
    assert ids.parse(word) == parsed


@pytest.mark.parametrize("word", [
    "abc", "12x", "-3", "1[", "1[x]", "", "2147483647", "5[2147483647]",
    "99999999999999999999", "1[99999999999999999999]", "\uff13", "1[\uff13]",
])
def test_anything_else_is_an_illegal_job_id(word):
    with pytest.raises(XceError) as e:
        ids.parse(word)
    assert str(e.value) == f"{word}: Illegal job ID."


def test_zero_in_a_list_means_every_job():
    assert ids.parse_list(["0", "7", "8[2]"]) == \
        ([["7", 7, None], ["8[2]", 8, 2]], True)
    assert ids.parse_list(["7"]) == ([["7", 7, None]], False)


def test_a_job_id_above_the_cluster_max_jobid_is_illegal(monkeypatch):
    monkeypatch.setattr(ids, "_configured", [1500000])
    assert ids.parse("1500000") == (1500000, None)
    with pytest.raises(XceError) as e:
        ids.parse("1500001[2]")
    assert str(e.value) == "1500001[2]: Illegal job ID."


def test_a_job_id_up_to_the_least_max_jobid_needs_no_store(monkeypatch):
    monkeypatch.setattr(ids, "_configured", [])
    monkeypatch.setenv("XCE_ENVDIR", "/nonexistent")
    assert ids.parse("999999") == (999999, None)
    assert ids._configured == []
