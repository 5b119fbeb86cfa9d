"""A job's own environment variables reach it as it exported them, whatever
names the shell wrappers around it use: in the job, its -E pre-exec and
-Ep post-exec, the site's eexec, a blaunch task and under bsub -I, with
-o/-e files and bsub -f copies, for every one-letter name, the names
older wrappers assigned, and names of the xce_ prefix the wrappers keep
for themselves."""

import json
import os
import shutil
import string
import sys
import tempfile

import pytest

from tests.lib.xcecluster import shared_cluster, wait_for

# A value with a quote, a space, a newline and a $ the shell must leave be.
NAMES = [*string.ascii_letters, "rc", "xce_d", "xce_o", "xce_e", "xce_f",
         "xce_c", "xce_x", "xce_l", "xce_r", "xce_s", "xce_rc", "xce_keep",
         "xce_fd3"]
# cd sets and exports OLDPWD, which the job must see as it was.
OWN = {name: f"job's {name} $d\n\"{name}\"" for name in NAMES}
OWN["OLDPWD"] = "/job's/own/old/directory"
# The eexec's LSB_EEXEC_ENVFILE sets one name of the reserved prefix too.
FROM_EEXEC = {"xce_eexec": "eexec's 'one'", "E_EXEC": "set"}


def _dump(path):
    """A shell command that writes its environment as JSON to *path*."""
    code = ("import json, os, sys; "
            "json.dump(dict(os.environ), open(sys.argv[1], 'w'))")
    return f"{sys.executable} -S -c \"{code}\" {path}"


@pytest.fixture(scope="module")
def where():
    path = tempfile.mkdtemp(prefix="xce-wenv-")
    os.chmod(path, 0o755)
    serverdir = os.path.join(path, "serverdir")
    os.mkdir(serverdir)
    eexec = os.path.join(serverdir, "eexec")
    with open(eexec, "w") as f:
        f.write("#!/bin/sh\n" + _dump('"$PWD/eexec.$LSB_JOBID"') + "\n" +
                "".join(f"echo \"{k}={v}\" >>\"$LSB_EEXEC_ENVFILE\"\n"
                        for k, v in FROM_EEXEC.items()))
    os.chmod(eexec, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(where):
    with shared_cluster("xce-wenv-", extra_params=(
            f"  LSF_SERVERDIR: {where}/serverdir\n")) as c:
        yield c


def _load(path):
    wait_for(lambda: os.path.exists(path) and os.path.getsize(path),
             what=path)
    with open(path) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def seen(cluster, where):
    """The environments the job's processes saw, by place."""
    work = os.path.join(where, "work")
    os.mkdir(work)
    with open(os.path.join(work, "in.txt"), "w") as f:
        f.write("staged\n")
    job = (f"cat staged.txt; echo to-err >&2; echo back > res; "
           f"{_dump('job.json')}; "
           f"blaunch -z \"$LSB_HOSTS\" {_dump(work + '/task.json')}")
    jobid = cluster.submit(
        "-cwd", work, "-o", "job.out", "-e", "job.err",
        "-f", "in.txt > staged.txt", "-f", "back.txt < res",
        "-E", _dump("pre.json"), "-Ep", _dump("post.json"), job,
        cwd=work, env=OWN)
    cluster.wait_stat(jobid, "DONE", "EXIT")
    places = {name: _load(os.path.join(work, f"{name}.json"))
              for name in ("job", "pre", "post", "task")}
    places["eexec"] = _load(os.path.join(work, f"eexec.{jobid}"))
    return jobid, work, places


@pytest.mark.parametrize("place", ["job", "pre", "post", "eexec", "task"])
def test_every_place_sees_the_jobs_own_values(seen, place):
    env = seen[2][place]
    assert sorted(k for k in OWN if env.get(k) != OWN[k]) == []


def test_the_eexecs_variables_reach_the_job_and_not_its_steps(seen):
    env = seen[2]["job"]
    assert {k: env.get(k) for k in FROM_EEXEC} == FROM_EEXEC
    assert "xce_eexec" not in seen[2]["pre"]


def test_output_error_and_copies_still_work(seen, cluster):
    jobid, work, _ = seen
    assert cluster.stat(jobid) == "DONE"
    with open(os.path.join(work, "job.out")) as f:
        assert f.read().startswith("staged\n")
    with open(os.path.join(work, "job.err")) as f:
        assert f.read() == "to-err\n"
    wait_for(lambda: os.path.exists(os.path.join(work, "back.txt")),
             what="the copy back")
    with open(os.path.join(work, "back.txt")) as f:
        assert f.read() == "back\n"


def test_no_wrapper_variable_reaches_a_job_that_has_none(cluster, where):
    """Nor an OLDPWD, which cd would set, when the job has none."""
    work = os.path.join(where, "plain")
    os.mkdir(work)
    env = {k: v for k, v in cluster.env.items() if k != "OLDPWD"}
    jobid = cluster.submit("-cwd", work, "-o", "out", "-e", "err",
                           "-env", "all, ~OLDPWD", "-E", _dump("pre.json"),
                           _dump("job.json"), cwd=work)
    cluster.wait_stat(jobid, "DONE")
    for place in ("job", "pre"):
        got = _load(os.path.join(work, f"{place}.json"))
        extra = set(got) - set(env)
        assert not extra & set(NAMES), (place, extra)
        assert "OLDPWD" not in got, place
        assert not {k for k in extra if k.lower().startswith("xce_")} - \
            ({"xce_eexec"} if place == "job" else set()), (place, extra)


def test_an_interactive_job_sees_its_own_values(cluster, where):
    work = os.path.join(where, "interactive")
    os.mkdir(work)
    r = cluster.run("bsub", "-I", "-cwd", work, _dump("job.json"),
                    cwd=work, env=OWN, input="")
    assert r.rc == 0, r
    env = _load(os.path.join(work, "job.json"))
    assert sorted(k for k in OWN if env.get(k) != OWN[k]) == []
    assert env.get("LSB_INTERACTIVE") == "Y"
