"""Fixtures shared by the end-to-end tests, and the suite's wall time."""

import os
import shutil
import tempfile
import time

import psutil
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
def open_cluster():
    """A cluster under a world-readable directory, so that another user
    can submit to it (pytest's own temporary directories are private)."""
    made = []

    def make(**kw):
        root = tempfile.mkdtemp(prefix="xce-open-")
        os.chmod(root, 0o755)
        made.append((Cluster(root, **kw).start(), root))
        return made[-1][0]
    try:
        yield make
    finally:
        for c, root in made:
            c.stop()
            shutil.rmtree(root, ignore_errors=True)


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


# The whole suite is meant to run in under 20 minutes (`make test`); the
# figure is printed at the end of every run so a slow change shows.  It is
# counted from the start of the pytest process: this file may be loaded
# only at collection, after the session has started.
SUITE_BUDGET_S = 20 * 60


def pytest_unconfigure(config):
    # After pytest's own "N passed in ..." line, so it is the last line.
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    spent = time.time() - psutil.Process().create_time()
    verdict = "within" if spent <= SUITE_BUDGET_S else "OVER"
    reporter.write_line(f"suite_wall_time {spent:.0f} s ({verdict} the "
                        f"budget of {SUITE_BUDGET_S} s for the whole suite)")
