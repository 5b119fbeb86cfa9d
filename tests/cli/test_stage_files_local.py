"""bsub -f on a one-host cluster: the copies in, back and both ways, %J,
-outdir, and bad input (the SSH-host tests show the same across hosts
that share no file system: tests/cluster/test_stage_files.py)."""


def _bjobs_l(cluster, jobid, command="bjobs"):
    r = cluster.run(command, "-l", str(jobid))
    assert r.rc == 0 and r.err == "", r
    return r.joined


def test_files_go_in_before_and_come_back_after(make_cluster, tmp_path):
    cluster = make_cluster()
    sub, run = tmp_path / "sub", tmp_path / "run"
    sub.mkdir()
    run.mkdir()
    (sub / "in.txt").write_text("hello\n")
    (sub / "log").write_text("old\n")
    jobid = cluster.submit(
        "-cwd", str(run), "-f", "in.txt > data.txt", "-f", "out.%J < res",
        "-f", "log << res", "-f", "in.txt >< both",
        "cat data.txt > res; echo more >> both", cwd=sub)
    cluster.wait_stat(jobid, "DONE")
    assert (run / "data.txt").read_text() == "hello\n"
    assert _wait_file(sub / f"out.{jobid}") == "hello\n"
    assert _wait_file(sub / "log", "old\nhello\n") == "old\nhello\n"
    assert _wait_file(sub / "in.txt", "hello\nmore\n") == "hello\nmore\n"
    text = _bjobs_l(cluster, jobid)
    assert ('Copy Files "in.txt > data.txt" "out.%J < res" "log << res" '
            '"in.txt >< both"') in text


def test_a_copy_in_that_cannot_be_written_exits_the_job(make_cluster,
                                                          tmp_path):
    cluster = make_cluster()
    (tmp_path / "in.txt").write_text("x\n")
    jobid = cluster.submit("-f", "in.txt > nodir/in.txt", "touch ran",
                           cwd=tmp_path)
    cluster.wait_stat(jobid, "EXIT")
    assert not (tmp_path / "ran").exists()
    text = _bjobs_l(cluster, jobid)
    assert "Unable to copy file <in.txt> on submission host <" in text
    assert "to <nodir/in.txt> on execution host: Directory nonexistent" \
        in text
    assert "Unable to copy file <in.txt>" in _bjobs_l(cluster, jobid,
                                                      "bhist")


def test_a_missing_remote_file_and_a_missing_append_target(make_cluster,
                                                             tmp_path):
    cluster = make_cluster()
    jobid = cluster.submit("-f", "a < none", "-f", "b << made",
                           "echo x > made", cwd=tmp_path)
    cluster.wait_stat(jobid, "DONE")
    want = (f"Unable to copy file <made> to <{tmp_path}/b> on submission "
            "host <")
    _wait_for_text(cluster, jobid, want)
    text = _bjobs_l(cluster, jobid)
    assert (f"Unable to copy file <none> to <{tmp_path}/a> on submission "
            "host <") in text
    assert "No such file or directory" in text
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_bad_arguments_are_refused_before_anything_is_sent(make_cluster,
                                                             tmp_path):
    cluster = make_cluster()
    for arg, msg in [
            ("a >> b", 'Invalid file operation ">>" specification in -f '
                       '"a >> b". Job not submitted.'),
            ("> b", 'Invalid local file specification in -f "> b". Job not '
                    'submitted.'),
            ("nothere > x", f"-f: {tmp_path}/nothere: No such file or "
                            "directory. Job not submitted.")]:
        r = cluster.run("bsub", "-f", arg, "true", cwd=tmp_path)
        assert (r.rc, r.out, r.err.strip()) == (255, "", msg), r
    r = cluster.run("bjobs", "-a")
    assert "No job found" in r.err or r.out.strip() == "", r


def _wait_file(path, want=None, timeout=20):
    from tests.lib.xcecluster import wait_for
    return wait_for(lambda: path.exists() and (
        want is None or path.read_text() == want) and path.read_text(),
        timeout=timeout, what=f"{path}")


def _wait_for_text(cluster, jobid, want):
    from tests.lib.xcecluster import wait_for
    wait_for(lambda: want in _bjobs_l(cluster, jobid), timeout=20,
             what=want)


def test_bmod_replaces_the_files_of_a_pending_job(make_cluster, tmp_path):
    cluster = make_cluster()
    (tmp_path / "a").write_text("from a\n")
    (tmp_path / "b").write_text("from b\n")
    run = tmp_path / "run"
    run.mkdir()
    jobid = cluster.submit("-H", "-cwd", str(run), "-f", "a > x",
                           "cat y > back 2>&1", cwd=tmp_path)
    r = cluster.run("bmod", "-f", "b > y", "-f", "got < back", str(jobid),
                    cwd=tmp_path)
    assert (r.rc, r.err) == (0, ""), r
    assert 'Copy Files "b > y" "got < back"' in _bjobs_l(cluster, jobid)
    r = cluster.run("bmod", "-f", "a >> b", str(jobid), cwd=tmp_path)
    assert (r.rc, r.err.strip()) == (255, 'Invalid file operation ">>" '
                                     'specification in -f "a >> b". Job not '
                                     'modified.'), r
    assert cluster.run("bresume", str(jobid)).rc == 0
    cluster.wait_stat(jobid, "DONE")
    assert not (run / "x").exists()
    assert _wait_file(tmp_path / "got") == "from b\n"
    jobid = cluster.submit("-H", "-f", "a > x", "true", cwd=tmp_path)
    assert cluster.run("bmod", "-fn", str(jobid)).rc == 0
    assert "Copy Files" not in _bjobs_l(cluster, jobid)


def test_more_than_the_bound_is_refused(make_cluster, tmp_path):
    from xce.model.stagefiles import STAGE_MAX
    cluster = make_cluster()
    (tmp_path / "big").write_bytes(b"x" * (STAGE_MAX // 2 + 1))
    r = cluster.run("bsub", "-f", "big > a", "-f", "big > b", "true",
                    cwd=tmp_path)
    assert r.rc == 255 and r.out == "", r
    assert r.err.strip() == (
        f"-f: the files to copy to the execution host are {STAGE_MAX + 1}+ "
        f"bytes, more than the {STAGE_MAX} bytes a job may carry. Job not "
        "submitted."), r
