"""-P of a project path covers its subtree, in bjobs and bacct alike: the
jobs of /phys/cms and /phys/cms/run3 are /phys's work (as its quota
counts them); a sibling whose name only starts alike (/physics) is not,
and a plain name still matches itself alone."""


def test_bjobs_and_bacct_show_a_project_subtree(cluster):
    where = {p: cluster.submit("-P", p, "true")
             for p in ("/phys", "/phys/cms", "/phys/cms/run3", "/physics",
                       "phys")}
    for jobid in where.values():
        cluster.wait_stat(jobid, "DONE")

    def jobs(project):
        r = cluster.run("bjobs", "-a", "-P", project, "-noheader", "-o",
                        "jobid")
        assert r.rc == 0, r
        return sorted(int(x) for x in r.out.split())

    assert jobs("/phys") == sorted(where[p] for p in
                                   ("/phys", "/phys/cms", "/phys/cms/run3"))
    assert jobs("/phys/cms/") == sorted(where[p] for p in
                                        ("/phys/cms", "/phys/cms/run3"))
    assert jobs("phys") == [where["phys"]]
    for project, done in (("/phys", 3), ("/phys/cms/run3", 1),
                          ("/physics", 1), ("/ph", 0)):
        r = cluster.run("bacct", "-P", project, "-u", "all")
        assert r.rc == 0, r
        assert f"Total number of done jobs:{done:>8}" in r.out, (project, r)
