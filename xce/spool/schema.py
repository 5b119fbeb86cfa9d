"""The controller's reading of the request schema (xce.spool.fields).

Each request kind becomes a msgspec struct tagged by its ``kind``; a spool
file is decoded and validated against them in one pass, so a wrong type, a
value out of range, an unknown or missing field, or nesting deeper than
the schema allows is refused before any handler runs or anything is
committed.  The handlers then get plain dicts without the fields the
request left out.  Stored job rows are checked against the same
declaration at start-up (plus what the controller itself adds).

msgspec is imported here only: commands use xce.spool.check instead.
"""

from typing import Annotated, Any, Literal, Optional, Union

import msgspec
from msgspec import UNSET, Meta, UnsetType

from xce.model import states
from xce.spool import fields as F


def _annotation(t, structs):
    if t.kind is F.Str:
        ann = Annotated[str, Meta(min_length=t.min, max_length=t.max)]
    elif t.kind is F.Int:
        ann = Annotated[int, Meta(ge=t.lo, le=t.hi)]
    elif t.kind is F.Num:
        ann = Annotated[float, Meta(gt=t.above, le=t.hi)]
    elif t.kind is F.Bool:
        ann = bool
    elif t.kind is F.OneOf:
        ann = Literal[t.values]
    elif t.kind is F.ListOf:
        ann = Annotated[list[_annotation(t.item, structs)],
                        Meta(min_length=t.min, max_length=t.max)]
    elif t.kind is F.Tuple:
        ann = tuple[tuple(_annotation(i, structs) for i in t.items)]
    elif t.kind is F.MapOf:
        ann = Annotated[dict[_annotation(t.key, structs),
                             _annotation(t.value, structs)],
                        Meta(max_length=t.max)]
    elif t.kind is F.Ref:
        ann = structs[t.name]
    elif t.kind is F.Anything:
        ann = Any
    else:
        raise TypeError(f"no msgspec type for {t!r}")
    return Optional[ann] if t.null else ann


def _struct(name, table, structs, forbid=True, **options):
    members = []
    for field_name, f in table.items():
        ann = _annotation(f.type, structs)
        if f.required:
            members.append((field_name, ann))
        else:
            members.append((field_name, Union[ann, UnsetType], UNSET))
    return msgspec.defstruct(name, members, kw_only=True,
                             forbid_unknown_fields=forbid, **options)


def _build():
    structs = {}
    for name, table in F.STRUCTS.items():
        structs[name] = _struct(name, table, structs)
    common = {"version": F.Field(F.Int(F.VERSION, F.VERSION, null=False),
                                 required=True),
              "id": F.Field(F.Str(64, null=False), required=True)}
    kinds = tuple(_struct(f"Request_{kind}", {**table, **common}, structs,
                          tag_field="kind", tag=kind)
                  for kind, table in F.REQUESTS.items())
    stored = _struct("StoredSpec", {**F.SPEC, **F.RUNTIME}, structs,
                     forbid=False)
    return msgspec.json.Decoder(Union[kinds]), stored


_DECODER, _STORED_SPEC = _build()
_PLAIN = msgspec.json.Decoder()


class BadRequest(ValueError):
    """``str()`` is one line saying what is wrong and where."""


def decode(data):
    """The request in *data* as a plain dict; BadRequest if it is not one
    the schema allows.  Validated first (typed, so no deeper than the
    schema), then read again as plain data: the handlers see exactly the
    fields the request has, lists as lists."""
    try:
        _DECODER.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise BadRequest(one_line(str(e)))
    except RecursionError:
        # Skipping a value before the kind is known recurses; msgspec
        # stops at the interpreter's limit.  The schema is never that deep.
        raise BadRequest("request is nested too deeply")
    return _PLAIN.decode(data)


def one_line(text, limit=300):
    """A message safe for one log or reply line: what the user wrote may
    appear in it (an unknown field's name)."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


# The columns of a stored job the controller needs to load and run it.
_COLUMNS = {"jobid": int, "idx": int, "user": str, "queue": str,
            "command": str, "nslots": int, "attempt": int, "seq": (int, float)}


def stored_job_problem(row, spec):
    """Why a stored job cannot be loaded (row from the jobs table, *spec*
    its parsed spec), or None when it can."""
    for column, kind in _COLUMNS.items():
        value = row.get(column)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"column {column} holds {type(value).__name__}"
    if row.get("stat") not in states.ALL:
        return f"column stat holds {one_line(repr(row.get('stat')), 40)}"
    try:
        msgspec.convert(spec, _STORED_SPEC)
    except msgspec.ValidationError as e:
        return "spec: " + one_line(str(e))
    return None
