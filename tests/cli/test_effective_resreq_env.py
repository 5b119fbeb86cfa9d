"""LSB_EFFECTIVE_RSRCREQ: a job runs knowing the resource requirement it
was dispatched with, the one bjobs -l shows as "Effective:" (IBM's list of
the variables set for job execution)."""


def _env(cluster, path):
    return dict(line.split("=", 1) for line in
                (cluster.root / path).read_text().split("\n\n")[0]
                .splitlines() if "=" in line)


def test_a_job_sees_its_effective_requirement(make_cluster):
    cluster = make_cluster(extra_queues="  req:\n    PRIORITY: 20\n"
                                        "    RES_REQ: order[r15s]\n")
    asked = cluster.submit("-q", "req", "-R", "rusage[mem=10]",
                           "-R", "span[hosts=1]", "-o", "asked.out", "env")
    plain = cluster.submit("-o", "plain.out", "env",
                           env={"LSB_EFFECTIVE_RSRCREQ": "stale"})
    cluster.wait_stat(asked, "DONE")
    cluster.wait_stat(plain, "DONE")
    shown = [line.split(":", 1)[1].strip() for line in
             cluster.run("bjobs", "-l", str(asked)).joined.splitlines()
             if line.startswith(" Effective:")]
    assert shown and shown[0] != "-", shown
    assert _env(cluster, "asked.out")["LSB_EFFECTIVE_RSRCREQ"] == shown[0]
    # Nothing asked, nothing set (not the submitter's own value either).
    assert "LSB_EFFECTIVE_RSRCREQ" not in _env(cluster, "plain.out")
