"""bsub -m "host_list": the syntax of the list of hosts a job may run on.

Each word is a host or host group name, optionally followed by ``+`` and a
preference level (``+`` alone is level 1, no ``+`` level 0), or the keyword
``others`` (every host not named, at its own level).  Only the syntax is
checked here; the controller checks the names against the configuration
and the scheduler uses the levels (xce.scheduler.asked).
"""

import re

OTHERS = "others"

_WORD = re.compile(r"(?P<name>[^\s+!@]+)(?:\+(?P<level>\d{0,9}))?", re.ASCII)


class BadHostList(ValueError):
    """``str()`` is bsub's message before ". Job not submitted."."""


def parse(words):
    """[(name, level)] of the words of -m, in order; BadHostList when a
    word is malformed.  First execution host marks (``!``) and remote
    clusters (``@``) are refused rather than ignored."""
    out = []
    for word in words:
        if word.endswith("!"):
            raise BadHostList(f"{word}: first execution host candidates "
                              "(!) are not supported by xce")
        m = _WORD.fullmatch(word)
        if m is None:
            raise BadHostList(f"{word}: Bad host name, host group name or "
                              "cluster name")
        level = m.group("level")
        out.append((m.group("name"),
                    0 if level is None else int(level) if level else 1))
    if not out:
        raise BadHostList("Bad host name, host group name or cluster name")
    if all(name == OTHERS for name, _ in out):
        # `others` means "the hosts not named": it needs a named one.
        raise BadHostList(f"{OTHERS}: Bad host name, host group name or "
                          "cluster name")
    return out


def split(text):
    """The words of one -m value (several may be given, LSF joins them)."""
    return text.split() if isinstance(text, str) else \
        [w for part in text for w in str(part).split()]
