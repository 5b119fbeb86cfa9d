"""Job ids as users type them to any command, read in one place.

``123`` names a job (every element of an array), ``123[7]`` one element;
anything else gets LSF's ``<word>: Illegal job ID.`` (exit 255).
"""

from xce.errors import XceError
from xce.model import jobid as jobids

# The word control commands take for "every job that matches".
ALL_JOBS = "0"


def illegal(word):
    """LSF's error for a word that is not a job id it accepts."""
    return XceError(f"{word}: Illegal job ID.")


def parse(word):
    """``"123"`` -> (123, None); ``"123[7]"`` -> (123, 7)."""
    try:
        return jobids.parse(word)
    except jobids.BadJobId:
        raise illegal(word)


def parse_list(words):
    """``[label, jobid, idx]`` triples and whether ``0`` (all) was given."""
    out, every = [], False
    for word in words:
        if word == ALL_JOBS:
            every = True
            continue
        out.append([word, *parse(word)])
    return out, every
