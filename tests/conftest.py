"""Fixtures shared by the end-to-end tests."""

import pytest

from tests.lib.xcecluster import Cluster


@pytest.fixture
def cluster(tmp_path):
    """A running one-host cluster; stopped and cleaned up after the test."""
    c = Cluster(tmp_path / "c")
    try:
        # Inside the try: a controller that dies at start-up may already
        # have launched its agent, which must not outlive the test.
        yield c.start()
    finally:
        c.stop()


@pytest.fixture
def make_cluster(tmp_path):
    """Build clusters with options; each is stopped after the test."""
    made = []

    def make(start=True, **kw):
        c = Cluster(tmp_path / f"c{len(made)}", **kw)
        made.append(c)
        return c.start() if start else c
    try:
        yield make
    finally:
        for c in made:
            c.stop()
