"""Real workflow tools, unchanged, against a real xce cluster.

dask-jobqueue's LSFCluster and Snakemake's LSF executor plugin drive bsub,
bjobs and bkill and read lsf.conf exactly as they do on an LSF site.  They
are installed from PyPI by `make test` (the `tools` extra).
"""

import os
import subprocess
import sys

import pytest

from tests.lib.xcecluster import BIN

# Two independent rules, then one that needs both: snakemake submits a and
# b together, and c only once bjobs has shown both DONE.  A chain a -> b -> c
# proved nothing more and cost a round of status checks per link.
SNAKEFILE = """\
rule all:
    input: "c.txt"

rule a:
    output: "a.txt"
    shell: "echo 1 > {output}"

rule b:
    output: "b.txt"
    shell: "echo 2 > {output}"

rule c:
    input: "a.txt", "b.txt"
    output: "c.txt"
    shell: "cat {input} > {output}; echo 3 >> {output}"
"""


def _site_env(cluster):
    return {"XCE_ENVDIR": str(cluster.envdir),
            "LSF_ENVDIR": str(cluster.envdir),
            "PATH": f"{BIN}:{os.environ.get('PATH', '')}"}


def test_dask_jobqueue_two_workers_compute_a_sum(make_cluster, monkeypatch):
    dask_jobqueue = pytest.importorskip("dask_jobqueue")
    distributed = pytest.importorskip("distributed")
    cluster = make_cluster(mxj=4)
    for key, value in _site_env(cluster).items():
        monkeypatch.setenv(key, value)
    # Loopback only: the scheduler and the workers talk over 127.0.0.1.
    lsf = dask_jobqueue.LSFCluster(
        cores=1, memory="512MB", queue="normal", walltime="00:10",
        interface="lo", use_stdin=True, python=sys.executable,
        log_directory=str(cluster.root / "dask-logs"))
    try:
        lsf.scale(2)
        with distributed.Client(lsf) as client:
            client.wait_for_workers(2, timeout=120)
            assert len(client.scheduler_info()["workers"]) == 2
            assert client.submit(sum, [1, 2, 3]).result() == 6
            total = sum(client.gather(client.map(lambda x: x * 2, range(10))))
            assert total == 90
    finally:
        lsf.close()
    r = cluster.run("bjobs", "-a", "-noheader", "-o", "jobid stat job_name")
    workers = [l.split() for l in r.out.splitlines() if "dask-worker" in l]
    assert len(workers) == 2


def test_snakemake_lsf_executor_runs_a_three_rule_workflow(make_cluster,
                                                           tmp_path):
    pytest.importorskip("snakemake_executor_plugin_lsf")
    cluster = make_cluster(mxj=4)
    work = tmp_path / "workflow"
    work.mkdir()
    (work / "Snakefile").write_text(SNAKEFILE)
    env = dict(os.environ, **_site_env(cluster))
    # The plugin waits 20 s before its first bjobs, then every
    # --seconds-between-status-checks, 10 s more after a look that finds
    # nothing finished.  At 1 s: c is looked at once too early, then 11 s
    # later, and the end waits 1 s instead of 10.
    r = subprocess.run([str(BIN / "snakemake"), "--executor", "lsf",
                        "--jobs", "3", "--default-resources",
                        "lsf_queue=normal",
                        "--seconds-between-status-checks", "1"],
                       cwd=work, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert (work / "c.txt").read_text() == "1\n2\n3\n"
    r = cluster.run("bjobs", "-a", "-noheader", "-w")
    assert len([l for l in r.out.splitlines() if " DONE " in l]) == 3
