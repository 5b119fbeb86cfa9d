"""A job's environment is the submitter's secret (tokens, passwords):
another local user reads the store (bjobs does), but no file of the spool
that user can open holds it, and the job still gets it.  Real users, run
under the real-users lock."""

import secrets
from pathlib import Path

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import BIN, shared_cluster

NAMES = user_names("pd")

users = users_fixture(NAMES)

# Run as the other user: every regular file under the spool it can read,
# and whether any holds the secret.
_SCAN = """
import os, sys
spool, secret = sys.argv[1], sys.argv[2].encode()
readable = found = 0
for top, dirs, files in os.walk(spool):
    for name in files:
        try:
            with open(os.path.join(top, name), "rb") as f:
                data = f.read()
        except OSError:
            continue
        readable += 1
        found += secret in data
print(readable, found)
"""


@pytest.fixture(scope="module")
def shared(users):
    with shared_cluster("xce-pd-", mxj=2) as c:
        yield c


def test_another_user_cannot_read_a_jobs_environment(shared, users):
    ann, bob = users
    token = secrets.token_hex(12)
    script = "#!/bin/sh\necho $XCE_TEST_TOKEN > out.txt\n"
    r = shared.run("bsub", "-H", input=script, user=ann.name, cwd=ann.home,
                   env={"XCE_TEST_TOKEN": token})
    assert r.rc == 0, r.err
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    assert shared.run("bjobs", "-noheader", str(jobid),
                      user=bob.name).rc == 0     # bob reads the store
    r = shared.run(str(BIN / "python"), "-c", _SCAN, str(shared.spool),
                   token, user=bob.name)
    readable, found = map(int, r.out.split())
    assert readable > 0 and found == 0, (r.out, r.err)
    assert shared.run("bresume", str(jobid), user=ann.name).rc == 0
    shared.wait_stat(jobid, "DONE")
    assert (Path(ann.home) / "out.txt").read_text() == f"{token}\n"
