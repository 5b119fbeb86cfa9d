"""Real unprivileged users for end-to-end tests, as a context manager.

    with real_users(["xcu1a", "xcu1b"]) as users:   # TestUser list
        ...

or, for a whole test module, ``users = users_fixture(names)``.

Skips the test when not root, or when the installed Python cannot be
run by another user (fails instead under CI).  Tests using it must run
under the machine-wide real-users lock (see tests/cluster/README.md).
"""

import contextlib
import os
import subprocess

import pytest

from tests.cluster.users import make_users, remove_users
from tests.lib.xcecluster import BIN


def usable_by(user):
    r = subprocess.run(["/usr/bin/setpriv", f"--reuid={user}",
                        f"--regid={user}", "--init-groups", "--",
                        str(BIN / "python"), "-c", "import xce, click"],
                       capture_output=True)
    return r.returncode == 0


@contextlib.contextmanager
def real_users(names):
    if os.geteuid() != 0:
        pytest.skip("creating users needs root")
    made = make_users(names)
    try:
        if not usable_by(names[0]):
            msg = ("the installed Python is not reachable by other users "
                   "(build the venv from the system Python: make test does)")
            if os.environ.get("CI"):
                pytest.fail(msg)
            pytest.skip(msg)
        yield made
    finally:
        remove_users(names)


def users_fixture(names):
    """A module-scoped fixture: the TestUsers *names*, removed after the
    module (``users = users_fixture(NAMES)`` in a test module)."""
    @pytest.fixture(scope="module")
    def users():
        with real_users(names) as made:
            yield made
    return users


def user_names(tag):
    """Two user names unique to this process, *tag* telling tests apart."""
    base = f"xc{tag}{os.getpid() % 100000}"
    return [base + "a", base + "b"]
