"""Job mail, as LSF's sbatchd sends it: at dispatch (bsub -B) and the job
report at the end (bsub -N, or always when the job has no -o: then the
job's output follows the report in the mail).

What to send and how comes in the start message's ``mail`` entry, built by
the controller from the job and the configuration (xce.controller.mail):
``to``, ``begin``, ``end``, ``output`` (no -o: append the output), and the
delivery: ``prog`` (LSB_MAILPROG, a sendmail-compatible program, run as
LSF runs it: ``prog -oi -F"LSF System" address`` with the message on its
standard input) or ``server`` ([host, port]: LSB_MAILSERVER, xce's own
SMTP delivery).

Sending never holds up the agent: messages go to one worker thread, which
talks SMTP with a timeout, or starts the mail program with posix_spawn and
does not wait for it (the agent's reaper collects it).  A slow or dead mail
server delays only other mail.
"""

import email.message
import email.utils
import logging
import os
import queue
import smtplib
import stat
import tempfile
import threading

from xce.agent import spawn
from xce.agent.report import ctime
from xce.model import requeue

log = logging.getLogger("xce.agent")

SENDER_NAME = "LSF System"
# Without LSB_MAILPROG or LSB_MAILSERVER: the host's sendmail, if any
# (LSF's default is /usr/lib/sendmail).
SENDMAILS = ("/usr/sbin/sendmail", "/usr/lib/sendmail")
SMTP_TIMEOUT = 30.0             # seconds for each step of one delivery
OUTPUT_MAX = 8 * 1024 * 1024    # bytes of job output put in one mail
_QUEUE_MAX = 10000


class Mailer:
    """One worker thread that delivers the agent's job mail in order."""

    def __init__(self, tmpdir):
        self.tmpdir = str(tmpdir)
        self._queue = queue.Queue(_QUEUE_MAX)
        self._thread = None
        self.sent = 0

    def submit(self, mail, message, output=None):
        """Queue *message* (an EmailMessage) for *mail*'s delivery;
        *output*: (fd, size) of the job's output to append, read (and
        closed) by the worker."""
        if not mail.get("prog") and not mail.get("server"):
            prog = next((p for p in SENDMAILS if os.access(p, os.X_OK)),
                        None)
            if prog is None:
                log.warning("no mail to %s: no LSB_MAILPROG, LSB_MAILSERVER"
                            " or sendmail on this host", mail.get("to"))
                close_output(output)
                return
            mail = dict(mail, prog=prog)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True,
                                            name="xce-mail")
            self._thread.start()
        try:
            self._queue.put_nowait((mail, message, output))
        except queue.Full:
            log.error("mail to %s dropped: %d messages waiting",
                      mail.get("to"), _QUEUE_MAX)
            close_output(output)

    def job_started(self, msg, home):
        """bsub -B: the dispatch mail."""
        if (msg.get("mail") or {}).get("begin"):
            self.submit(msg["mail"], begin_message(msg, msg["mail"], home))

    def output_for(self, msg, result):
        """No -o: the job's output file, opened before the report is
        appended to it, for the report mail (None otherwise)."""
        if not wanted_at_end(msg, result, output=True):
            return None
        moved = result.get("output_fallback") or {}
        out = moved["to"] if "stdout" in moved else msg["stdout"]
        return open_output(out, msg["uid"])

    def job_ended(self, msg, result, text, output):
        """-N, or no -o: the report *text* (and *output*) by mail."""
        if text is None or not wanted_at_end(msg, result):
            close_output(output)
            return
        self.submit(msg["mail"], end_message(msg["mail"], text), output)

    def _run(self):
        while True:
            mail, message, output = self._queue.get()
            try:
                if output is not None:
                    _append_output(message, output)
                deliver(mail, message, self.tmpdir)
                self.sent += 1
            except Exception as e:      # one bad mail must not stop the rest
                log.error("mail to %s not sent: %s", mail.get("to"), e)
            finally:
                close_output(output)


def deliver(mail, message, tmpdir):
    """Hand *message* to the mail program or the SMTP server."""
    to = mail["to"]
    if mail.get("prog"):
        fd, path = tempfile.mkstemp(dir=tmpdir, prefix="mail.")
        try:
            os.write(fd, message.as_bytes())
        finally:
            os.close(fd)
        try:
            # posix_spawn returns once the program runs with the file as
            # its standard input, so the name can go at once.
            spawn.spawn([mail["prog"], "-oi", f"-F{SENDER_NAME}", to],
                        {"PATH": "/usr/sbin:/usr/bin:/bin"}, stdin_path=path)
        finally:
            os.unlink(path)
        return
    host, port = mail["server"]
    with smtplib.SMTP(host, int(port), timeout=SMTP_TIMEOUT) as smtp:
        smtp.send_message(message, from_addr=mail["from"], to_addrs=[to])


def wanted_at_end(msg, result, output=False):
    """Is the report of this run mailed (with the output, if *output*)?
    Not when the job will be requeued for its exit value: LSF mails no
    requeued run."""
    mail = msg.get("mail") or {}
    if not mail.get("end") or (output and not mail.get("output")):
        return False
    values = requeue.parse_quietly(msg.get("requeue_exit"))
    return not (values and not result.get("reason") and
                values.action(result.get("exit_code")))


def begin_message(msg, mail, home):
    """The mail of bsub -B, sent when the job starts."""
    body = _facts(msg, home) + [f"Started at {ctime(msg['start_time'])}", ""]
    subject = (f"Job {msg['label']}: <{msg['name']}> in cluster "
               f"<{msg['cluster']}> Started")
    return _message(mail, subject, "\n".join(body) + "\n")


def end_message(mail, report_text):
    """The job report as a mail: the report's own Sender and Subject lines
    become the headers, the rest is the body."""
    lines = report_text.split("\n")
    subject, start = "", 0
    for i, line in enumerate(lines):
        if line.startswith("Subject: "):
            subject, start = line[len("Subject: "):], i + 1
            break
    body = "\n".join(lines[start:]).lstrip("\n")
    if mail.get("output"):
        body = body.replace("The output (if any) is above this job "
                            "summary.", "The output (if any) follows:")
    return _message(mail, subject, body)


def open_output(path, uid):
    """(fd, size) of the job's output file, opened for the mail; None when
    it is not a plain file of the job's user (never through a link: the
    agent may be root and the file is in the user's directory)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_uid != uid:
        os.close(fd)
        return None
    return fd, st.st_size


def _append_output(message, output):
    fd, size = output
    data = os.pread(fd, min(size, OUTPUT_MAX), 0)
    text = data.decode("utf-8", "replace")
    if size > OUTPUT_MAX:
        text += (f"\n[xce: the output is {size} bytes; the first "
                 f"{OUTPUT_MAX} are in this mail]\n")
    message.set_content(message.get_content() + "\n" + text)


def _facts(msg, home):
    hosts = " ".join(f"<{h}>" for h in dict.fromkeys(msg["hosts"]))
    return [f"Job <{msg['name']}> was submitted from host "
            f"<{msg['from_host']}> by user <{msg['user']}> in cluster "
            f"<{msg['cluster']}> at {ctime(msg['submit_time'])}",
            f"Job was executed on host(s) {hosts}, in queue <{msg['queue']}>,"
            f" as user <{msg['user']}> in cluster <{msg['cluster']}> at "
            f"{ctime(msg['start_time'])}",
            f"<{home}> was used as the home directory.",
            f"<{msg['cwd']}> was used as the working directory."]


def _message(mail, subject, body):
    m = email.message.EmailMessage()
    m["From"] = email.utils.formataddr((SENDER_NAME, mail["from"]))
    m["To"] = mail["to"]
    m["Subject"] = subject
    m["Date"] = email.utils.formatdate(localtime=True)
    m.set_content(body)
    return m


def close_output(output):
    if output is not None:
        try:
            os.close(output[0])
        except OSError:
            pass
