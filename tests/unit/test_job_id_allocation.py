"""How the controller picks a new job's id under lsb.params MAX_JOBID
(xce.model.jobid.allocate): in sequence, starting again at 1 after
MAX_JOBID, skipping ids of jobs it still knows."""

from xce.model.jobid import allocate


def test_ids_follow_the_counter_below_max_jobid():
    assert allocate(41, 999999, {}) == 41


def test_the_largest_id_is_given_then_the_sequence_starts_at_one():
    assert allocate(999999, 999999, {}) == 999999
    assert allocate(1000000, 999999, {}) == 1


def test_ids_still_in_use_are_skipped_after_the_wrap():
    in_use = {1: {0}, 2: {0, 3}, 4: {0}}
    assert allocate(1000000, 999999, in_use) == 3


def test_an_id_in_use_before_the_limit_wraps_past_it():
    assert allocate(9, 10, {9: {0}, 10: {0}, 1: {0}}) == 2


def test_a_lowered_max_jobid_below_the_counter_starts_again_at_one():
    assert allocate(5000000, 2000000, {}) == 1


def test_no_id_is_given_when_every_id_is_in_use():
    assert allocate(3, 5, dict.fromkeys(range(1, 6), {0})) is None
    assert allocate(3, 5, dict.fromkeys(range(1, 5), {0})) == 5
