"""esub, epsub and eexec run with the submitting user's rights, never
root's, with a real user.  Run under the real-users lock."""

import os
import shutil
import tempfile

import pytest

from tests.lib.realusers import user_names, users_fixture
from tests.lib.xcecluster import shared_cluster, wait_for

NAMES = user_names("es")
users = users_fixture(NAMES)


@pytest.fixture(scope="module")
def where():
    path = tempfile.mkdtemp(prefix="xce-es-")
    os.chmod(path, 0o1777)
    serverdir = os.path.join(path, "serverdir")
    os.mkdir(serverdir)
    os.chmod(serverdir, 0o755)
    for name in ("esub", "epsub", "eexec"):
        prog = os.path.join(serverdir, name)
        with open(prog, "w") as f:
            f.write(f"#!/bin/sh\nid -un > {path}/{name}.$LSB_SUB_JOB_ID"
                    f"$LSB_JOBID\n")
        os.chmod(prog, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def shared(users, where):
    with shared_cluster("xce-es-", extra_params=(
            f"  LSF_SERVERDIR: {where}/serverdir\n")) as c:
        yield c


def test_esub_epsub_and_eexec_run_as_the_submitting_user(
        shared, users, where):
    owner = users[0]
    r = shared.run("bsub", "true", user=owner.name, cwd=owner.home)
    assert (r.rc, r.err) == (0, ""), r
    jobid = r.out.split("<", 1)[1].split(">", 1)[0]
    for name in ("esub", "epsub", "eexec"):
        path = os.path.join(where, f"{name}." + ("" if name == "esub" else jobid))
        wait_for(lambda: os.path.exists(path) and open(path).read().strip(),
                 what=path)
        assert open(path).read().strip() == owner.name, name
