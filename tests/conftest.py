"""Fixtures shared by the end-to-end tests, the machine lock of tests that
need the machine alone, and the suite's wall time."""

import contextlib
import fcntl
import os
import shutil
import tempfile
import time

import psutil
import pytest

from tests.cluster import _registry
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
    if hasattr(config, "workerinput"):
        return      # an xdist worker: the controller (this run's process) reports
    # After pytest's own "N passed in ..." line, so it is the last line.
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    spent = time.time() - psutil.Process().create_time()
    verdict = "within" if spent <= SUITE_BUDGET_S else "OVER"
    reporter.write_line(f"suite_wall_time {spent:.0f} s ({verdict} the "
                        f"budget of {SUITE_BUDGET_S} s for the whole suite)")


# The suite runs in parallel (pytest-xdist, `make test`).  A test that needs
# the machine alone (it changes something machine-wide that other tests
# see, or looks at every process, user or namespace) is marked
# ``@pytest.mark.xdist_group("machine")``: --dist loadgroup gives all of
# them to one worker, one after the other, and while one runs it holds this
# machine-wide lock exclusively; every other test holds it shared.  The
# lock covers other test sessions on the machine too.  See tests/README.md.
MACHINE_GROUP = "machine"


@contextlib.contextmanager
def machine_lock(alone):
    """Hold the machine lock, exclusively when *alone*.  A writer first
    takes the gate, which new readers pass through, so that a stream of
    tests holding it shared cannot keep an exclusive one waiting forever."""
    d = _registry.state_dir()     # with the test hosts' locks
    with open(d / "machine.gate", "a") as gate, open(d / "machine", "a") as f:
        fcntl.flock(gate, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            fcntl.flock(f, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def needs_machine_alone(item):
    return any(m.args[:1] == (MACHINE_GROUP,) or m.kwargs.get("name") == MACHINE_GROUP
               for m in item.iter_markers("xdist_group"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # Setup and teardown included: a module's fixtures are made and removed
    # within the protocol of its first and last test.
    with machine_lock(needs_machine_alone(item)):
        yield
