"""The commands' reading of the request schema (xce.spool.fields).

A command checks its request before spooling it, so a user hears at once
what the controller would refuse.  The controller checks again (it trusts
no command): see xce.spool.schema.  Stdlib only and cheap: bsub pays for
this on every submission.
"""

from xce.spool import fields as F


class BadRequest(ValueError):
    """``str()`` says what is wrong and where (``$.spec.command: ...``)."""


def check_request(kind, body):
    table = F.request(kind)
    if table is None:
        raise BadRequest(f"{kind}: unknown request kind")
    _object(body, table, "$")


def _object(value, table, path):
    if not isinstance(value, dict):
        raise BadRequest(f"{path}: expected an object")
    for key in value:
        if key not in table:
            raise BadRequest(f"{path}: unknown field {key!r}")
    for name, field in table.items():
        if name in value:
            _value(value[name], field.type, f"{path}.{name}")
        elif field.required:
            raise BadRequest(f"{path}: missing field {name!r}")


def _value(value, t, path):
    if value is None:
        if not t.null:
            raise BadRequest(f"{path}: may not be null")
        return
    check = _CHECKS[t.kind]
    why = check(value, t, path)
    if why:
        raise BadRequest(f"{path}: {why}")


def _str(value, t, path):
    if not isinstance(value, str):
        return "expected a string"
    if not t.min <= len(value) <= t.max:
        return f"length {len(value)} is outside {t.min}..{t.max}"
    if not value.isascii():
        try:
            value.encode()
        except UnicodeEncodeError:
            return "not valid Unicode (a lone surrogate)"
    return None


def _int(value, t, path):
    if type(value) is not int:
        return "expected a whole number"
    if not t.lo <= value <= t.hi:
        return f"{value} is outside {t.lo}..{t.hi}"
    return None


def _num(value, t, path):
    if type(value) not in (int, float) or value - value != 0:
        return "expected a finite number"
    if not t.above < value <= t.hi:
        return f"{value} is outside ({t.above}, {t.hi}]"
    return None


def _bool(value, t, path):
    return None if type(value) is bool else "expected true or false"


def _one_of(value, t, path):
    return None if value in t.values and isinstance(value, str) else \
        f"expected one of {', '.join(t.values)}"


def _list(value, t, path):
    if not isinstance(value, (list, tuple)):
        return "expected a list"
    if not t.min <= len(value) <= t.max:
        return f"{len(value)} items is outside {t.min}..{t.max}"
    for n, item in enumerate(value):
        _value(item, t.item, f"{path}[{n}]")
    return None


def _tuple(value, t, path):
    if not isinstance(value, (list, tuple)) or len(value) != len(t.items):
        return f"expected a list of {len(t.items)} items"
    for n, (item, item_type) in enumerate(zip(value, t.items)):
        _value(item, item_type, f"{path}[{n}]")
    return None


def _map(value, t, path):
    if not isinstance(value, dict):
        return "expected an object"
    if len(value) > t.max:
        return f"{len(value)} entries is more than {t.max}"
    for key, item in value.items():
        _value(key, t.key, f"{path} key")
        _value(item, t.value, f"{path}[{key!r}]")
    return None


def _ref(value, t, path):
    _object(value, F.struct(t.name), path)
    return None


_CHECKS = {F.Str: _str, F.Int: _int, F.Num: _num, F.Bool: _bool,
           F.OneOf: _one_of, F.ListOf: _list, F.Tuple: _tuple,
           F.MapOf: _map, F.Ref: _ref, F.Anything: lambda *_: None}
