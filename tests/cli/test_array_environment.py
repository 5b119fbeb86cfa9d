"""The variables an array element runs with: LSB_JOBINDEX_END and
LSB_JOBINDEX_STEP, LSF's bounds of the array (scripts loop with them);
a job that is not an array has neither, whatever its submitter's
environment held."""


def _env(cluster, path):
    return dict(line.split("=", 1) for line in
                (cluster.root / path).read_text().split("\n\n")[0]
                .splitlines() if "=" in line)


def test_array_elements_know_the_arrays_end_and_step(make_cluster):
    cluster = make_cluster()
    outer = {"LSB_JOBINDEX_END": "99", "LSB_JOBINDEX_STEP": "9"}
    stepped = cluster.submit("-J", "st[2-8:3]", "-o", "st.%I", "env",
                             env=outer)
    listed = cluster.submit("-J", "ls[1,5,7-8]", "-o", "ls.%I", "env")
    plain = cluster.submit("-o", "plain.out", "env", env=outer)
    for job, idx in ((stepped, 8), (listed, 8)):
        cluster.wait_stat(f"{job}[{idx}]", "DONE")
    cluster.wait_stat(plain, "DONE")
    for idx in (2, 5, 8):
        env = _env(cluster, f"st.{idx}")
        assert (env["LSB_JOBINDEX"], env["LSB_JOBINDEX_END"],
                env["LSB_JOBINDEX_STEP"]) == (str(idx), "8", "3"), env
    env = _env(cluster, "ls.5")
    assert (env["LSB_JOBINDEX"], env["LSB_JOBINDEX_END"],
            env["LSB_JOBINDEX_STEP"]) == ("5", "8", "1"), env
    env = _env(cluster, "plain.out")
    assert env["LSB_JOBINDEX"] == "0"
    assert "LSB_JOBINDEX_END" not in env and "LSB_JOBINDEX_STEP" not in env
