"""Fuzzing the spool as an ordinary user: 10,000 malformed request files of
every kind (tests/lib/requestfuzz) dropped into a running cluster by a real
unprivileged user.  Every one is answered or rejected, the controller never
dies, and it still runs that user's jobs afterwards.

Creates a real user: run under the machine-wide users lock.
"""

import os
import shutil
import tempfile
import time

import pytest

from tests.cluster.users import make_users, remove_users
from tests.lib import requestfuzz
from tests.lib.xcecluster import Cluster, wait_for

SEED = int(os.environ.get("XCE_FUZZ_SEED", "20261201"))
COUNT = 10_000
USER = f"xcz{os.getpid() % 100000}"

# Run as the user with the system Python: copy each file into spool/tmp,
# rename it into incoming/ and ring the doorbell now and then, as a
# command would (but with nothing checked first).
DROP = """
import os, socket, sys
src, spool = sys.argv[1], sys.argv[2]
bell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
for n, name in enumerate(sorted(os.listdir(src))):
    with open(os.path.join(src, name), "rb") as f:
        data = f.read()
    tmp = os.path.join(spool, "tmp", name)
    with open(tmp, "wb") as f:
        f.write(data)
    os.rename(tmp, os.path.join(spool, "incoming", name))
    if n % 250 == 0:
        try:
            bell.sendto(b"r", os.path.join(spool, "doorbell"))
        except OSError:
            pass
"""


@pytest.fixture(scope="module")
def fuzz_user():
    if os.geteuid() != 0:
        pytest.skip("creating users needs root")
    made = make_users([USER])
    try:
        yield made[0]
    finally:
        remove_users([USER])


@pytest.fixture
def fuzz_cluster(fuzz_user):
    """One host; its queue inactive, so a fuzzed request that happens to be
    a valid submission queues a job that never runs."""
    root = tempfile.mkdtemp(prefix="xce-fuzz-")
    os.chmod(root, 0o755)
    c = Cluster(root).start()
    try:
        r = c.run("badmin", "qinact", "normal")
        assert r.rc == 0, r
        yield c
    finally:
        c.stop()
        shutil.rmtree(root, ignore_errors=True)


def _write(stage, count):
    names = []
    for name, data in requestfuzz.files(SEED, count):
        (stage / name).write_bytes(data)
        names.append(name)
    os.chmod(stage, 0o755)
    for name in names:
        os.chmod(stage / name, 0o644)
    return names


def _accounted(spool, names, log):
    """(names neither answered nor rejected, names rejected): rejected/
    keeps only a few files per user, so the log's one line per rejected
    file counts them."""
    replies = set(os.listdir(spool / "replies"))
    rejected = {line.split("rejected spool file ", 1)[1].split(" ", 1)[0]
                for line in log.splitlines()
                if "rejected spool file " in line}
    return [n for n in names if n not in rejected and
            n not in replies], rejected


def test_malformed_requests_of_every_kind_are_answered_or_rejected(
        fuzz_cluster, fuzz_user):
    c, user = fuzz_cluster, fuzz_user
    pid = c.proc.pid
    stage = c.root / "fuzz"
    stage.mkdir()
    names = _write(stage, COUNT)
    began = time.monotonic()
    r = c.run("/usr/bin/python3", "-c", DROP, str(stage), str(c.spool),
              user=user.name, cwd=user.home, timeout=300)
    assert r.rc == 0, r
    c.run("bjobs")      # rings the doorbell once more
    wait_for(lambda: not os.listdir(c.spool / "incoming"), timeout=300,
             what="the controller to take every request")
    crashes = 0 if c.proc.poll() is None and c.proc.pid == pid else 1
    log = (c.spool / "store" / "controller.log").read_text()
    lost, rejected = _accounted(c.spool, names, log)
    failed = [line.split("Request failed: ", 1)[1] for line in
              log.splitlines() if "Request failed: " in line]
    print(f"\nrequest fuzz (seed {SEED}): {len(names)} files in "
          f"{time.monotonic() - began:.1f} s; rejected {len(rejected)}, "
          f"answered {len(names) - len(rejected) - len(lost)}, "
          f"handler failures isolated {len(failed)}; controller crashes "
          f"{crashes}, requests lost {len(lost)}")
    for reason in sorted(set(failed)):
        print(f"  isolated: {reason}")
    assert crashes == 0, c.log_tail()
    assert lost == [], lost[:10]
    assert "Traceback" not in log
    # Still serving, that user included.
    assert c.run("badmin", "qact", "normal").rc == 0
    r = c.run("bsub", "-o", "/dev/null", "true", user=user.name,
              cwd=user.home)
    assert r.rc == 0, r
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    c.wait_stat(jobid, "DONE", timeout=60)
