"""bsub -pack: one request for the whole file, each line reported by its
line number, and the errors of a pack file."""

import re


def test_pack_submits_every_line_and_reports_each(make_cluster, tmp_path):
    cluster = make_cluster(mxj=1)
    pack = tmp_path / "jobs.pack"
    pack.write_text("# comment line\n"
                    "-J p1 -q short sleep 0\n"
                    "\n"
                    "-J p2 sleep 0\n"
                    "-q nosuch sleep 0\n"
                    "-W abc sleep 0\n")
    r = cluster.run("bsub", "-pack", str(pack))
    lines = r.out.splitlines()
    assert re.fullmatch(r"Line#2 Job <\d+> is submitted to queue <short>\.",
                        lines[0]), r
    assert re.fullmatch(r"Line#4 Job <\d+> is submitted to default queue "
                        r"<normal>\.", lines[1]), r
    assert lines[2] == "4 lines parsed, 2 jobs submitted, 2 errors found."
    assert r.err.splitlines() == [
        "Line#5: nosuch: No such queue. Job not submitted.",
        "Line#6: abc: Bad RUNLIMIT specification. Job not submitted."]
    assert r.rc == 255
    q = cluster.run("bjobs", "-a", "-noheader", "-o", "name queue")
    assert sorted(q.out.split()) == sorted(["p1", "short", "p2", "normal"])


def test_pack_all_good_exits_zero_and_jobs_run(cluster, tmp_path):
    pack = tmp_path / "ok.pack"
    out = tmp_path / "o.txt"
    pack.write_text(f"-o {out} echo packed\n")
    r = cluster.run("bsub", "-pack", str(pack))
    assert r.rc == 0 and r.err == "", r
    assert r.out.splitlines()[-1] == \
        "1 lines parsed, 1 jobs submitted, 0 errors found."
    jobid = int(r.out.split("<", 1)[1].split(">", 1)[0])
    cluster.wait_stat(jobid, "DONE")
    assert "packed" in out.read_text()


def test_pack_refuses_a_command_and_a_missing_file(cluster, tmp_path):
    r = cluster.run("bsub", "-pack", str(tmp_path / "none"))
    assert r.rc == 255 and "No such file or directory" in r.err
    pack = tmp_path / "p"
    pack.write_text("sleep 0\n")
    r = cluster.run("bsub", "-pack", str(pack), "sleep", "1")
    assert r.rc == 255 and r.err.endswith("Job not submitted.\n"), r


def test_pack_line_without_command_or_with_K_is_an_error(cluster, tmp_path):
    pack = tmp_path / "p"
    pack.write_text("-J nocmd\n-K sleep 0\n")
    r = cluster.run("bsub", "-pack", str(pack))
    assert r.rc == 255
    assert r.err.splitlines() == [
        "Line#1: No command is specified. Job not submitted.",
        "Line#2: -K: Option not allowed in a pack file. Job not submitted."]
    assert r.out == "2 lines parsed, 0 jobs submitted, 2 errors found.\n"
