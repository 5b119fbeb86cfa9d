"""Job mail settings, read the same way by the configuration check and the
controller (pure, stdlib only).

``LSB_MAILTO`` (lsf.conf): where job mail goes when bsub has no -u; ``!U``
stands for the job's owner (LSF's default, ``!U``; ``!U@example.com``
works too).  ``LSB_MAILPROG``: a sendmail-compatible program, by absolute
path.  ``LSB_MAILSERVER``: ``[SMTP:]host[:port]`` -- with it, and no
LSB_MAILPROG, xce delivers job mail by SMTP itself (LSF does so through
its lsmail program, which xce has no need of).
"""

MAILTO_DEFAULT = "!U"
OWNER = "!U"
SMTP_PORT = 25


class BadMailSetting(ValueError):
    pass


def recipient(mailto, user):
    """The address of a job's mail: *mailto* with !U as *user*."""
    return str(mailto or MAILTO_DEFAULT).strip().replace(OWNER, user)


def server(text):
    """(host, port) of LSB_MAILSERVER; BadMailSetting when it is none."""
    value = str(text or "").strip()
    if value[:5].upper() == "SMTP:":
        value = value[5:]
    host, sep, port = value.rpartition(":") if value.count(":") == 1 \
        else (value, "", "")
    if not sep:
        host, port = value, str(SMTP_PORT)
    if not host or any(c.isspace() for c in host) or not port.isdigit() \
            or not 0 < int(port) < 65536:
        raise BadMailSetting(text)
    return host, int(port)


def program(text):
    """LSB_MAILPROG: an absolute path; BadMailSetting otherwise."""
    value = str(text or "").strip()
    if not value.startswith("/") or any(c.isspace() for c in value):
        raise BadMailSetting(text)
    return value
