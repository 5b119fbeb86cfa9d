"""Job ids as scripts pass them: index lists of an array
(``"123[1-4]"``, ``"123[1,3,7-9]"``, ``"123[1-10:3]"``) and long lists
of ids (``bjobs $(cat ids)``), end to end through a real controller."""


def _table_ids(out):
    return [line.split()[0] for line in out.splitlines()[1:] if line]


def test_index_lists_name_the_elements_of_an_array(make_cluster):
    cluster = make_cluster(mxj=1)
    job = cluster.submit("-J", "ten[1-10:3]", "sleep 60")
    cluster.wait_stat(f"{job}[1]", "RUN")
    r = cluster.run("bjobs", "-noheader", "-w", f"{job}[1-10:3]")
    assert r.rc == 0 and r.err == "", r
    assert [line.split()[0] for line in r.out.splitlines()] == \
        [f"{job}[1]", f"{job}[4]", f"{job}[7]", f"{job}[10]"]
    r = cluster.run("bjobs", "-w", f"{job}[4,10]")
    assert (r.rc, r.err) == (0, ""), r
    assert _table_ids(r.out) == [f"{job}[4]", f"{job}[10]"], r
    # Indices the array does not have are reported one by one, as LSF's
    # commands do (they expand the list into one id per index).
    r = cluster.run("bjobs", "-w", f"{job}[2-4]")
    assert r.rc == 0 and _table_ids(r.out) == [f"{job}[4]"], r
    assert r.err == f"Job <{job}[2]> is not found\nJob <{job}[3]> is not found\n"
    r = cluster.run("bstop", f"{job}[4-7:3]")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == f"Job <{job}[4]> is being stopped\n" \
                    f"Job <{job}[7]> is being stopped\n"
    assert cluster.stat(f"{job}[7]") == "PSUSP"
    r = cluster.run("bkill", f"{job}[1-4]")
    assert r.rc == 255, r
    assert r.out == f"Job <{job}[1]> is being terminated\n" \
                    f"Job <{job}[4]> is being terminated\n"
    assert r.err == f"Job <{job}[2]>: No matching job found\n" \
                    f"Job <{job}[3]>: No matching job found\n"
    cluster.wait_stat(f"{job}[1]", "EXIT")
    assert cluster.stat(f"{job}[7]") == "PSUSP"
    r = cluster.run("bhist", "-a", f"{job}[1,7]")
    assert r.rc == 0, r
    assert [line.split()[0] for line in r.out.splitlines()[2:] if line] == \
        [f"{job}[1]", f"{job}[7]"]


def test_malformed_index_lists_are_illegal_job_ids(make_cluster):
    cluster = make_cluster()
    for word in ("5[3-1]", "5[1-", "5[a]", "5[0-2]", "5[1-2:0]", "5[]"):
        for cmd in ("bjobs", "bkill"):
            r = cluster.run(cmd, word)
            assert (r.rc, r.out, r.err) == (
                255, "", f"{word}: Illegal job ID.\n"), (cmd, r)


def test_thousands_of_job_ids_are_answered(make_cluster):
    cluster = make_cluster()
    job = cluster.submit("-o", "/dev/null", "true")
    cluster.wait_stat(job, "DONE")
    ids = [str(job)] + [str(i) for i in range(job + 1, job + 3000)]
    r = cluster.run("bjobs", "-noheader", *ids)
    assert r.rc == 0 and r.out.split()[:3] == [str(job), r.out.split()[1],
                                               "DONE"], r
    assert r.err.count("is not found") == 2999
    r = cluster.run("bhist", "-a", *ids)
    assert r.rc == 0 and r.out.splitlines()[2].split()[0] == str(job), r


def test_job_names_with_index_lists_select_those_elements(make_cluster):
    cluster = make_cluster(mxj=1)
    job = cluster.submit("-J", "nm[1-5]", "sleep 60")
    cluster.wait_stat(f"{job}[1]", "RUN")
    r = cluster.run("bjobs", "-w", "-J", "nm[2-3]")
    assert (r.rc, r.err) == (0, ""), r
    assert _table_ids(r.out) == [f"{job}[2]", f"{job}[3]"]
    r = cluster.run("bkill", "-J", "nm[4,5]", "0")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == f"Job <{job}[4]> is being terminated\n" \
                    f"Job <{job}[5]> is being terminated\n"
    # A name that matches nothing is named, as LSF's bjobs (jobInfoErr).
    r = cluster.run("bjobs", "-J", "nm[7-9]")
    assert (r.rc, r.out, r.err) == (0, "", "Job <nm[7-9]> is not found\n"), r
    r = cluster.run("bjobs", "-p", "-q", "normal", "-J", "nomatch")
    assert (r.rc, r.out, r.err) == (
        0, "", "Job <nomatch> is not found in queue <normal>\n"), r
    r = cluster.run("bjobs", "-A", "-J", "nomatch")
    assert (r.rc, r.out, r.err) == (
        0, "", "Job array <nomatch> is not found\n"), r
