"""What a job's start message tells its agent about mail and requeue.

The agent sends the job's mail (xce.agent.mail), as LSF's sbatchd does;
the controller decides from the job and the configuration, once, at
dispatch, so that no scheduling pass ever waits on a mail server:

- ``begin``: bsub -B, a mail when the job starts;
- ``end``: the job report by mail at the end -- with bsub -N, and always
  when the job has no -o (LSF's default), then with the job's output after
  the report (``output``); xce keeps its copy of that output under the
  spool as well (bjobs -l names it);
- ``to``: bsub -u, else LSB_MAILTO with !U as the job's owner;
- delivery: LSB_MAILPROG (a sendmail-compatible program), else
  LSB_MAILSERVER (SMTP, xce's own client), else the host's
  /usr/sbin/sendmail or /usr/lib/sendmail if it has one.

``requeue_exit`` is the job's requeue exit value list (its -Q, else its
queue's REQUEUE_EXIT_VALUES): the job sees it as LSB_EXIT_REQUEUE, and
the agent mails no report of a run that will be requeued.
"""

from xce.controller import requeue
from xce.model import mailconf
from xce.model.requeue import normalised


def start_fields(ctl, job):
    """Entries of the job's start message (see the module's text)."""
    out = {}
    values = requeue.values(ctl.cfg, job["spec"], job["queue"])
    if values:
        out["requeue_exit"] = normalised(values)
    mail = _mail(ctl.cfg, job)
    if mail is not None:
        out["mail"] = mail
    return out


def _mail(cfg, job):
    spec = job["spec"]
    # An interactive job's output went to its terminal: mail only with -N.
    no_output = not spec.get("stdout") and not spec.get("interactive")
    begin = bool(spec.get("mail_begin"))
    end = bool(spec.get("mail_notify")) or no_output
    if not (begin or end):
        return None
    hosts = (job["exec_hosts"] or "").split()
    admin = (cfg.admins or ["root"])[0]
    mail = {"to": spec.get("mail_user") or mailconf.recipient(
                cfg.params.get("LSB_MAILTO"), job["user"]),
            "from": f"{admin}@{hosts[0]}" if hosts else admin,
            "begin": begin, "end": end, "output": no_output}
    try:
        if cfg.params.get("LSB_MAILPROG"):
            mail["prog"] = mailconf.program(cfg.params["LSB_MAILPROG"])
        elif cfg.params.get("LSB_MAILSERVER"):
            mail["server"] = list(mailconf.server(
                cfg.params["LSB_MAILSERVER"]))
    except mailconf.BadMailSetting:     # the configuration check says so
        return None
    return mail
