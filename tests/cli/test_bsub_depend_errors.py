"""bsub -w naming a job that does not exist: LSF names the condition it
cannot match, not the whole expression, and the job is not submitted."""


def test_only_the_offending_condition_is_named(cluster):
    known = cluster.submit("-J", "known", "true")
    cases = {
        f"done({known}) && ended(999999)": "ended(999999)",
        "done(known) || exit(nosuch, 2)": "exit(nosuch,2)",
        f"!started(999998) && done({known})": "started(999998)",
        f"done({known}[3])": f"done({known}[3])",
    }
    for expr, part in cases.items():
        r = cluster.run("bsub", "-w", expr, "true")
        assert (r.rc, r.out, r.err) == (
            255, "", f"{part}: No matching job found. Job not submitted.\n"), \
            expr
    r = cluster.run("bjobs", "-a", "-noheader")
    assert len(r.out.splitlines()) == 1         # only the known job
