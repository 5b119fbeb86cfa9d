"""The agent's load sampler on this very host: indices in LSF's units."""

import math
import time

from xce.agent.load import LoadSampler, _decay

INDICES = {"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp",
           "mem"}


def test_samples_carry_every_index_in_range():
    clock = [time.time()]
    sampler = LoadSampler(now=lambda: clock[0])
    for _ in range(2):
        load = sampler.sample()
        assert set(load) == INDICES
        assert 0.0 <= load["ut"] <= 1.0
        assert load["mem"] > 0 and load["tmp"] > 0
        assert min(load.values()) >= 0.0
        clock[0] += 5.0


def test_exponential_average_moves_toward_the_new_value():
    assert _decay(0.0, 1.0, 60.0, 60.0) == 1.0 - math.exp(-1.0)
    assert _decay(2.0, 2.0, 5.0, 15.0) == 2.0
    assert 0.0 < _decay(0.0, 1.0, 5.0, 15.0) < 0.5
