"""Malformed spool requests, generated from the declared schema.

``files(seed, count)`` yields (file name, bytes): for every request kind
of xce.spool.fields, a valid request mutated in one way -- a field of the
wrong type, out of range, too long, nested too deep, missing, unknown --
or a file that is not a request at all (truncated, not JSON, not UTF-8,
empty, a bad name).  Seeded: the same seed gives the same files.
"""

import json
import random

from xce.spool import fields as F

# Values that are wrong for most fields, some of them valid for a few.
_DEEP = 1000


def _deep_list(levels):
    return "[" * levels + "]" * levels


def _deep_object(levels):
    return '{"a":' * levels + "1" + "}" * levels


_WRONG = [5, -1, 0, 2**31, 2**64, -2**63, 1.5, 1e308, "x", "", True, False,
          None, [], [1], ["a", "b"], {}, {"a": 1}, {"a": {"b": [None]}},
          "\udc80", "\u0000", "é" * 10]
_RAW_WRONG = ["NaN", "Infinity", "-0", "1e999", "01", '"\\ud800"',
              _deep_list(_DEEP), _deep_object(_DEEP)]


def _valid(t, rng):
    """A value the schema accepts for type *t*."""
    if t.kind is F.Str:
        return "true"[:max(t.min, min(t.max, 4))] or "t" * t.min
    if t.kind is F.Int:
        return max(t.lo, min(t.hi, 1))
    if t.kind is F.Num:
        return min(t.hi, t.above + 1)
    if t.kind is F.Bool:
        return rng.random() < 0.5
    if t.kind is F.OneOf:
        return rng.choice(t.values)
    if t.kind is F.ListOf:
        return [_valid(t.item, rng) for _ in range(max(t.min, 1))]
    if t.kind is F.Tuple:
        return [_valid(i, rng) for i in t.items]
    if t.kind is F.MapOf:
        return {"K": _valid(t.value, rng)}
    if t.kind is F.Ref:
        return _object(F.STRUCTS[t.name], rng)
    return None


_SAFE = {"command": "true", "cwd": "/tmp", "hold": True, "action": "stop",
         "op": "qopen", "nslots": [1, 1]}


def _object(table, rng):
    doc = {}
    for name, field in table.items():
        if field.required or rng.random() < 0.5:
            doc[name] = _SAFE.get(name, _valid(field.type, rng))
    return doc


def _too_big(t):
    """A value just past the declared bound of *t*, or None."""
    if t.kind is F.Str:
        return "y" * (t.max + 1) if t.max <= F.ARG_MAX_STR else None
    if t.kind is F.Int:
        return t.hi + 1
    if t.kind is F.Num:
        return t.hi * 2
    if t.kind is F.ListOf and t.max <= 100:
        return [_valid(t.item, random.Random(0))] * (t.max + 1)
    return None


def _paths(doc, table, prefix=()):
    """(path, declared type) of every field present, nested ones too."""
    for name, field in table.items():
        if name not in doc:
            continue
        yield prefix + (name,), field.type
        t = field.type
        if t.kind is F.Ref and isinstance(doc[name], dict):
            yield from _paths(doc[name], F.STRUCTS[t.name], prefix + (name,))


def _parent(doc, path):
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _mutate(doc, table, rng):
    """Change *doc* in one way; returns raw JSON text to splice in, if any."""
    paths = list(_paths(doc, table))
    path, t = rng.choice(paths)
    parent, key = _parent(doc, path), path[-1]
    how = rng.random()
    if how < 0.55:
        parent[key] = rng.choice(_WRONG)
    elif how < 0.70:
        parent[key] = "@RAW@"
        return rng.choice(_RAW_WRONG)
    elif how < 0.80:
        big = _too_big(t)
        parent[key] = big if big is not None else rng.choice(_WRONG)
    elif how < 0.90:
        required = [p for p, _ in paths if len(p) == 1 and
                    table.get(p[0]) and table[p[0]].required]
        if required:
            del doc[rng.choice(required)[0]]
        else:
            parent[key] = rng.choice(_WRONG)
    else:
        parent["unknown_" + str(rng.randrange(5))] = rng.choice(_WRONG)
    return None


def _envelope(kind, req_id, rng):
    """Damage to what every request has: version, kind, id."""
    doc = {"version": 1, "kind": kind, "id": req_id}
    what = rng.randrange(6)
    if what == 0:
        doc["version"] = rng.choice([0, 2, "1", None, 1.0])
    elif what == 1:
        doc["kind"] = rng.choice(["", "nosuchkind", 5, None, ["submit"],
                                  kind.upper()])
    elif what == 2:
        del doc["kind"]
    elif what == 3:
        doc["id"] = rng.choice(["other", 7, None, req_id + "x"])
    elif what == 4:
        del doc["id"]
    else:
        del doc["version"]
    return doc


def _request_bytes(kind, req_id, rng):
    table = F.REQUESTS[kind]
    body = _object(table, rng)
    raw = None
    if rng.random() < 0.1:
        doc = dict(body, **_envelope(kind, req_id, rng))
    else:
        raw = _mutate(body, table, rng) if body else None
        doc = dict(body, version=1, kind=kind, id=req_id)
    text = json.dumps(doc, separators=(",", ":"))
    if raw is not None:
        text = text.replace('"@RAW@"', raw, 1)
    return text.encode("utf-8", "surrogatepass")


def _broken_file(req_id, rng):
    """A file that is no request at all."""
    good = json.dumps({"version": 1, "kind": "submit", "id": req_id,
                       "spec": {"command": "true", "cwd": "/tmp",
                                "nslots": [1, 1]}}).encode()
    what = rng.randrange(8)
    if what == 0:
        return good[:rng.randrange(len(good))]          # truncated
    if what == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if what == 2:
        return b""
    if what == 3:
        return b"\xef\xbb\xbf" + good                    # a byte-order mark
    if what == 4:
        return good.replace(b"true", b"tr\xffue")        # not UTF-8
    if what == 5:
        return rng.choice([b"[]", b"null", b"1", b'"submit"', b"{}"])
    if what == 6:
        return good + b"garbage"
    return good.replace(b"{", b"[", 1)


def request_id(n):
    return f"{n:020d}-{90000 + n % 1000}-{n % 0xFFFFFFFF:08x}"


def files(seed, count):
    """(name, content) of *count* bad files, every kind in turn."""
    rng = random.Random(seed)
    kinds = sorted(F.REQUESTS)
    for n in range(count):
        req_id = request_id(n + 1)
        name = f"{req_id}.json"
        if n % 50 == 49:
            name = rng.choice([f"{req_id}.jsn", f"x{req_id}.json",
                               f"{n}.json", f".{req_id}.json"])
        if n % 10 == 9:
            yield name, _broken_file(req_id, rng)
        else:
            yield name, _request_bytes(kinds[n % len(kinds)], req_id, rng)
