"""The commands' error classes and ``text``, without the catalogue.

The catalogue of messages, xce.errors (MESSAGES), is a few hundred
strings: loading it costs a command almost a million instructions, and a
command that succeeds shows none of them.  The modules on bsub's and
bjobs' way take the error classes and ``text`` from here; ``text`` reads
the catalogue when a message is wanted.  xce.errors offers the same
objects, for everything else.
"""

# LSF commands exit(-1) on failure; the shell sees 255.
EXIT_FAILURE = 255


class XceError(Exception):
    """An error a user sees: one line on stderr and an exit code."""

    exit_code = EXIT_FAILURE

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class UsageError(XceError):
    """Bad command line: message, then the usage text, exit 255."""

    def __init__(self, message, usage=""):
        super().__init__(message)
        self.usage = usage


def text(key, context=None, /, **fields):
    """LSF's message for *key* (xce.errors.MESSAGES, or for a CONFIG_ key
    xce.confmessages) with its *fields* filled in, prefixed with
    ``context: `` when given."""
    from xce.errors import MESSAGES
    msg = MESSAGES.get(key)
    if msg is None and key.startswith("CONFIG_"):
        from xce.confmessages import CONFIG_MESSAGES
        msg = CONFIG_MESSAGES.get(key)
    if msg is None:
        msg = key
    if fields:
        msg = msg.format(**fields)
    return f"{context}: {msg}" if context else msg


def about(subject, key, **fields):
    """``subject: text``, the subject shown even when it is empty."""
    return f"{subject}: {text(key, **fields)}"
