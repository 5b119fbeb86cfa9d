"""JSON text in and out for the commands, without the json package's start-up.

``import json`` costs a command more than its own work: json's decoder and
encoder compile regular expressions when they load, which pulls in ``re``
and, through it, ``enum``, ``functools`` and ``collections`` (about a third
of what ``bsub`` executed before its first system call).  Their fast paths
are CPython's C codec, ``_json``; this module calls it directly, with the
arguments ``json.dumps``/``json.loads`` give it, so the text is the same,
byte for byte.

Anything off the fast path (a BOM, a value JSON cannot hold, bad text)
is handed to the json package itself, so that results and errors -- their
types and messages -- are exactly json's.  Without ``_json`` (another
Python) everything is json's.
"""

try:
    from _json import encode_basestring_ascii as _ascii
    from _json import make_encoder as _make_encoder
    from _json import make_scanner as _make_scanner
except ImportError:         # not CPython: the json package does it all
    _make_encoder = _make_scanner = None

_WHITESPACE = " \t\n\r"     # what json.decoder.WHITESPACE matches


def _json():
    import json
    return json


def _no_default(obj):
    raise TypeError("not JSON serializable")    # json.dumps then says why


def dumps(obj, *, separators=None):
    """``json.dumps(obj, separators=separators)``."""
    if _make_encoder is None:
        return _json().dumps(obj, separators=separators)
    item_sep, key_sep = separators or (", ", ": ")
    try:
        encode = _make_encoder({}, _no_default, _ascii, None, key_sep,
                               item_sep, False, False, True)
        return "".join(encode(obj, 0))
    except (TypeError, ValueError, RecursionError):
        return _json().dumps(obj, separators=separators)


def dumps_compact(obj):
    """``json.dumps(obj, separators=(",", ":"))``: what the spool carries."""
    return dumps(obj, separators=(",", ":"))


class _Context:
    # The attributes _json's scanner reads: json.JSONDecoder's defaults.
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"),
                      "NaN": float("nan")}.__getitem__


_scan = _make_scanner(_Context()) if _make_scanner is not None else None


def loads(text):
    """``json.loads(text)`` for str, bytes or bytearray."""
    if _scan is None or not isinstance(text, str) and not _utf8(text):
        return _json().loads(text)
    try:
        s = text if isinstance(text, str) else \
            text.decode("utf-8", "surrogatepass")
        if s.startswith("\ufeff"):
            raise ValueError("BOM")
        start = len(s) - len(s.lstrip(_WHITESPACE))
        obj, end = _scan(s, start)
        end = len(s) - len(s[end:].lstrip(_WHITESPACE))
        if end != len(s):
            raise ValueError("extra data")
        return obj
    except (StopIteration, ValueError, RecursionError, SystemError):
        # SystemError: on bad text _json raises json.decoder's
        # JSONDecodeError only when json.decoder is already loaded; in a
        # command that never loaded it, the scanner returns NULL instead.
        return _json().loads(text)      # raises json's own error


def _utf8(data):
    """True when json.detect_encoding would say plain UTF-8 for *data*."""
    if not isinstance(data, (bytes, bytearray)):
        return False
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff",
                        b"\0\0\xfe\xff")):
        return False
    head = data[:4]
    return not (len(head) in (2, 4) and 0 in head[:2])
