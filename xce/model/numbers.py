"""Reading a number from a command line the way LSF's commands do.

LSF's commands read numbers with C's ``isint_``/``atoi``: ASCII digits, an
optional sign, within a C ``int``.  Python's ``int()`` and ``str.isdigit``
take far more (``int('３') == 3``, ``'²'.isdigit()`` is true but ``int('²')``
raises, ``int('1_000') == 1000``, any length): every place that reads a
number a user typed goes through here instead, so that a full-width digit
or a 40-digit value gets the command's own error, never a wrong number or a
traceback.  Stdlib only.
"""

import re

INT_MAX = 2147483647
_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_DIGITS = re.compile(r"[0-9]+\Z")


def whole(text, low=None, high=INT_MAX):
    """*text* as an int when it is ASCII digits (an optional sign) within
    [low, high]; None otherwise."""
    if not isinstance(text, str) or not _WHOLE.match(text) or \
            len(text) > 20:
        return None
    value = int(text)
    if (low is not None and value < low) or \
            (high is not None and value > high):
        return None
    return value


def digits(text):
    """True when *text* is one or more ASCII digits (``str.isdigit`` also
    says yes to ``３`` and ``²``)."""
    return isinstance(text, str) and _DIGITS.match(text) is not None
