"""Queue NICE, as LSF 10.1 applies it: the queue's jobs run at that nice
value, and bqueues -l shows it in the NICE column."""

NICE_QUEUE = """\
  low:
    PRIORITY: 20
    NICE: 7
"""


def test_jobs_of_a_nice_queue_run_at_its_nice_value(make_cluster, tmp_path):
    cluster = make_cluster(extra_queues=NICE_QUEUE)
    low, normal = tmp_path / "low.out", tmp_path / "normal.out"
    a = cluster.submit("-q", "low", f"nice > {low}")
    b = cluster.submit(f"nice > {normal}")
    cluster.wait_stat(a, "DONE")
    cluster.wait_stat(b, "DONE")
    assert low.read_text() == "7\n"
    assert normal.read_text() == "0\n"
    r = cluster.run("bqueues", "-l", "low")
    assert r.rc == 0 and r.err == "", r
    lines = r.out.splitlines()
    header = lines.index("PARAMETERS/STATISTICS") + 1
    assert lines[header].split()[:2] == ["PRIO", "NICE"]
    assert lines[header + 1].split()[:2] == ["20", "7"]
