"""Bad -R and -w through a real bsub and controller: one line on stderr
(the message a multi-line input would have split now quotes it on one
line), exit 255, no job, and the controller keeps running."""

BAD = [
    ("-w", "done(1)\n&& bogus("),
    ("-w", 'done("two\nlines")'),
    ("-w", "numrun(1,\n2)"),
    ("-R", "select[mem>\n]"),
    ("-R", "rusage[mem=1:duration=0]\nspan[hosts=1]"),
    ("-R", "{mem>1} || {mem>2}"),
    ("-R", "select[mem>1] select[mem>2]"),
]


def test_bad_requirement_is_one_line_exit_255_and_nothing_changes(cluster):
    # One cluster for all: each input is its own assertion message.
    for flag, text in BAD:
        r = cluster.run("bsub", flag, text, "true")
        assert (r.rc, r.out) == (255, ""), (text, r)
        assert len(r.err.splitlines()) == 1, (text, r.err)
        assert r.err.endswith(". Job not submitted.\n"), (text, r.err)
        assert cluster.proc.poll() is None, text
    r = cluster.run("bjobs", "-a")
    assert r.out == "" and r.err == "No job found\n"
