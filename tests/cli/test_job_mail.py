"""Job mail end to end, received by a real SMTP server (aiosmtpd) that the
test starts: bsub -B (at dispatch), -N (the report at the end, the output
staying in the -o file), no -o (LSF's default: report and output mailed),
-u and LSB_MAILTO, no mail for a run that is requeued, and a mail server
that never answers holds up neither the agent nor the controller."""

import email
import email.policy
import shutil
import socket
import threading

import pytest
from aiosmtpd.controller import Controller

from tests.lib.xcecluster import wait_for


class _Inbox:
    """aiosmtpd handler: every message received, with its envelope."""

    def __init__(self):
        self.mails = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content,
                                       policy=email.policy.default)
        with self.lock:
            self.mails.append((envelope.mail_from, envelope.rcpt_tos, msg))
        return "250 OK"

    def about(self, jobid):
        with self.lock:
            return [m for m in self.mails
                    if m[2]["Subject"].startswith(f"Job {jobid}:")]


@pytest.fixture(scope="module")
def smtp():
    inbox = _Inbox()
    with socket.socket() as s:      # a free port (aiosmtpd needs one given)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = Controller(inbox, hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield inbox, port
    finally:
        server.stop()


@pytest.fixture
def mailclu(make_cluster, smtp):
    inbox, port = smtp
    with inbox.lock:        # job ids start again at 1 in each cluster
        inbox.mails.clear()
    return make_cluster(extra_params=(
        f"  LSB_MAILSERVER: SMTP:127.0.0.1:{port}\n"
        "  LSB_MAILTO: '!U@example.org'\n"))


def _mails(inbox, jobid, count):
    return wait_for(lambda: len(inbox.about(jobid)) >= count and
                    inbox.about(jobid), timeout=20,
                    what=f"{count} mail(s) about job {jobid}")


def test_B_and_N_mail_the_start_and_the_report_to_the_u_address(
        mailclu, smtp, tmp_path):
    inbox, _ = smtp
    out = tmp_path / "out"
    jobid = mailclu.submit("-B", "-N", "-u", "ops@example.net", "-J", "mj",
                           "-o", str(out), "echo out-$((40+2))", cwd=tmp_path)
    mailclu.wait_stat(jobid, "DONE")
    begin, end = sorted(_mails(inbox, jobid, 2),
                        key=lambda m: "Started" not in m[2]["Subject"])
    host = socket.gethostname()
    for sender, rcpts, msg in (begin, end):
        assert rcpts == ["ops@example.net"]
        assert msg["To"] == "ops@example.net"
        assert msg["From"] == f"LSF System <root@{host}>"
        assert sender == f"root@{host}"
    assert begin[2]["Subject"] == f"Job {jobid}: <mj> in cluster " \
        f"<{mailclu.name}> Started"
    assert f"Job was executed on host(s) <{host}>, in queue <normal>" in \
        begin[2].get_content()
    assert end[2]["Subject"] == f"Job {jobid}: <mj> in cluster " \
        f"<{mailclu.name}> Done"
    body = end[2].get_content()
    assert "Successfully completed." in body
    assert "Resource usage summary:" in body
    # With -o the output stays in the file (the report is appended there).
    assert "out-42" not in body
    text = out.read_text()
    assert text.startswith("out-42\n") and "Successfully completed." \
        in text
    # bjobs -l wraps anywhere in a word, where the paths before put it.
    long = mailclu.long(jobid)
    assert "Mail <ops@example.net>" in long, long
    assert "Notify when job begins/ends" in long, long


def test_without_o_the_report_and_output_are_mailed_to_LSB_MAILTO(
        mailclu, smtp, tmp_path):
    inbox, _ = smtp
    jobid = mailclu.submit("echo hello-by-$((2*3)); exit 5", cwd=tmp_path)
    mailclu.wait_stat(jobid, "EXIT")
    [(sender, rcpts, msg)] = _mails(inbox, jobid, 1)
    assert rcpts == ["root@example.org"]           # LSB_MAILTO !U@...
    assert msg["Subject"].endswith(" Exited")
    body = msg.get_content()
    assert "Exited with exit code 5." in body
    summary = body.index("The output (if any) follows:")
    assert body.index("hello-by-6") > summary


def test_a_run_that_is_requeued_is_not_mailed(mailclu, smtp, tmp_path):
    inbox, _ = smtp
    jobid = mailclu.submit(
        "-Q", "3", 'n=$(cat runs 2>/dev/null || echo 0); n=$((n+1)); '
        'echo $n >runs; echo run-$n; [ $n -ge 2 ] || exit 3', cwd=tmp_path)
    mailclu.wait_stat(jobid, "DONE")
    [(_, _, msg)] = _mails(inbox, jobid, 1)
    assert "run-2" in msg.get_content()
    assert "run-1" not in msg.get_content()
    assert len(inbox.about(jobid)) == 1


def test_a_mail_server_that_never_answers_stalls_nothing(make_cluster,
                                                          tmp_path):
    # A listening socket nobody reads: connections complete, the SMTP
    # greeting never comes.
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    dead.listen(64)
    try:
        port = dead.getsockname()[1]
        cluster = make_cluster(extra_params=(
            f"  LSB_MAILSERVER: 127.0.0.1:{port}\n"))
        ids = [cluster.submit("-B", "-N", "-o", str(tmp_path / "o%J"),
                              "true", cwd=tmp_path) for _ in range(4)]
        ids.append(cluster.submit("echo no-o", cwd=tmp_path))
        # Below the 30 s an SMTP step may take (xce.agent.mail): a mail
        # sent on the agent's way would hold the first job past it.
        for jobid in ids:
            cluster.wait_stat(jobid, "DONE", timeout=25)
        r = cluster.run("bjobs", "-a")
        assert r.rc == 0 and str(ids[-1]) in r.out, r
        assert cluster.proc.poll() is None
    finally:
        dead.close()


@pytest.mark.skipif(shutil.which("msmtp") is None,
                    reason="needs msmtp (tests/install-deps.sh installs it)")
def test_LSB_MAILPROG_is_run_as_sendmail_with_the_report_on_its_input(
        make_cluster, smtp, tmp_path):
    """msmtp, a real sendmail-compatible client, told where the test's
    SMTP server is by the site's wrapper (LSF passes it only -oi, -F and
    the address)."""
    inbox, port = smtp
    with inbox.lock:
        inbox.mails.clear()
    prog = tmp_path / "mailprog"
    prog.write_text(f"#!/bin/sh\nexec msmtp --host=127.0.0.1 --port={port} "
                    f"--from=lsf@example.org \"$@\"\n")
    prog.chmod(0o755)
    cluster = make_cluster(extra_params=f"  LSB_MAILPROG: {prog}\n")
    jobid = cluster.submit("-N", "-u", "dev@example.net", "-o",
                           str(tmp_path / "out"), "exit 3", cwd=tmp_path)
    cluster.wait_stat(jobid, "EXIT")
    [(sender, rcpts, msg)] = _mails(inbox, jobid, 1)
    assert (sender, rcpts) == ("lsf@example.org", ["dev@example.net"])
    assert msg["Subject"] == f"Job {jobid}: <exit 3> in cluster " \
        f"<{cluster.name}> Exited"
    assert msg["From"].startswith("LSF System <")
    assert "Exited with exit code 3." in msg.get_content()


def test_bad_mail_address_is_refused(mailclu, tmp_path):
    for bad in ("a b", "", "x<y"):
        r = mailclu.run("bsub", "-u", bad, "true", cwd=tmp_path)
        assert (r.rc, r.out) == (255, ""), (bad, r)
        assert r.err == f"{bad}: Bad mail address. Job not submitted.\n", r
