"""Reading a number from a command line the way LSF's commands do.

LSF's commands read numbers with C's ``isint_``/``atoi``: ASCII digits, an
optional sign, within a C ``int``.  Python's ``int()`` and ``str.isdigit``
take far more (``int('３') == 3``, ``'²'.isdigit()`` is true but ``int('²')``
raises, ``int('1_000') == 1000``, any length): every place that reads a
number a user typed goes through here instead, so that a full-width digit
or a 40-digit value gets the command's own error, never a wrong number or a
traceback.  Stdlib only, and no ``re``: every command reads a number, and
loading ``re`` costs one more than reading it.
"""

INT_MAX = 2147483647
_ASCII_DIGITS = "0123456789"


def whole(text, low=None, high=INT_MAX):
    """*text* as an int when it is ASCII digits (an optional sign) within
    [low, high]; None otherwise."""
    if not isinstance(text, str) or \
            not digits(text[1:] if text[:1] in ("+", "-") else text) or \
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
    # strip() stops at the first other character from either end.
    return isinstance(text, str) and text != "" and \
        not text.strip(_ASCII_DIGITS)
