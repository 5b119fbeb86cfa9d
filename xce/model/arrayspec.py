"""Job array specifications in job names: `bsub -J "name[1-100:2,200]%5"`.

    parse_job_name("sim[1-5,7]%2") -> ArraySpec("sim", (1, 2, 3, 4, 5, 7), 2)
    parse_job_name("plain")        -> ArraySpec("plain", (), None)
    format_index_ranges([1, 2, 3, 7]) -> "1-3,7"

Pure, stdlib only.  Errors carry bsub's wording (reference section 1.2):
`Bad job name` for brackets that are not a trailing array spec,
`Job array index error` for a malformed or empty index list, and
`Job array index too large` past MAX_JOB_ARRAY_SIZE.
"""

import re
from dataclasses import dataclass
from typing import Optional, Tuple

MAX_JOB_ARRAY_SIZE = 1000  # lsb.params default
MAX_JOB_NAME_LENGTH = 4094

BAD_NAME = "Bad job name"
INDEX_ERROR = "Job array index error"
INDEX_TOO_LARGE = "Job array index too large"

_SPEC = re.compile(r"(?P<name>[^\[\]]*)\[(?P<spec>[^\[\]]*)\]"
                   r"(?:%(?P<limit>[^\[\]]*))?\Z", re.DOTALL)
_ITEM = re.compile(r"(\d+)(?:-(\d+)(?::(\d+))?)?\Z", re.ASCII)
_SPEC_CHARS = re.compile(r"[\d\s,:\-]*\Z", re.ASCII)


class ArraySpecError(ValueError):
    """A job name bsub rejects; `message` is what bsub prints."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ArraySpec:
    name: str
    indices: Tuple[int, ...] = ()  # sorted, unique; empty for a plain job
    limit: Optional[int] = None  # %N: at most N elements running

    @property
    def is_array(self):
        return bool(self.indices)

    def __str__(self):
        if not self.indices:
            return self.name
        text = "%s[%s]" % (self.name, format_index_ranges(self.indices))
        return text if self.limit is None else "%s%%%d" % (text, self.limit)

    def element_name(self, index):
        """The name LSF gives one element: `name[7]`."""
        return "%s[%d]" % (self.name, index)


def check_job_name(text):
    """bsub's own check: the syntax of a `-J` value, without the size limit
    (MAX_JOB_ARRAY_SIZE is the controller's) and without expanding ranges."""
    if not text or len(text) > MAX_JOB_NAME_LENGTH:
        raise ArraySpecError(BAD_NAME)
    match = _SPEC.match(text)
    if match is None:
        if "[" in text or "]" in text:
            raise ArraySpecError(BAD_NAME)
        return
    name, spec, limit = match.group("name", "spec", "limit")
    if not name or not _SPEC_CHARS.match(spec):
        raise ArraySpecError(BAD_NAME)
    for item in spec.split(","):
        _item_bounds(item)
    _parse_limit(limit)


def parse_job_name(text, max_size=MAX_JOB_ARRAY_SIZE):
    """Split a `-J` value into name, array indices and running limit."""
    if not text or len(text) > MAX_JOB_NAME_LENGTH:
        raise ArraySpecError(BAD_NAME)
    match = _SPEC.match(text)
    if match is None:
        if "[" in text or "]" in text:
            raise ArraySpecError(BAD_NAME)
        return ArraySpec(text)
    name, spec, limit = match.group("name", "spec", "limit")
    if not name or not _SPEC_CHARS.match(spec):
        raise ArraySpecError(BAD_NAME)
    indices = parse_index_list(spec, max_size)
    return ArraySpec(name, indices, _parse_limit(limit))


def parse_index_list(spec, max_size=MAX_JOB_ARRAY_SIZE):
    """`1-10:2,15` -> (1, 3, 5, 7, 9, 15); the text between the brackets."""
    found = set()
    for item in spec.split(","):
        start, end, step = _item_bounds(item)
        if end > max_size:  # checked before expanding a huge range
            raise ArraySpecError(INDEX_TOO_LARGE)
        found.update(range(start, end + 1, step))
    if len(found) > max_size:
        raise ArraySpecError(INDEX_TOO_LARGE)
    return tuple(sorted(found))


def end_and_step(text):
    """An array's LSB_JOBINDEX_END and LSB_JOBINDEX_STEP from its `-J`
    value: its largest index, and the step of a single stepped range
    (`sim[2-8:3]` -> (8, 3)); a list steps by 1 (`sim[1,5]` -> (5, 1))."""
    match = _SPEC.match(text or "")
    if match is None:
        return None
    items = [_item_bounds(item) for item in match.group("spec").split(",")]
    ends = [start + (end - start) // step * step
            for start, end, step in items]
    return max(ends), (items[0][2] if len(items) == 1 else 1)


def _item_bounds(item):
    """`1-10:2` -> (1, 10, 2); a single index `7` -> (7, 7, 1)."""
    match = _ITEM.match(item.strip())
    if match is None:
        raise ArraySpecError(INDEX_ERROR)
    start, end, step = (int(g) if g else None for g in match.groups())
    end = start if end is None else end
    step = 1 if step is None else step
    if start < 1 or end < start or step < 1:
        raise ArraySpecError(INDEX_ERROR)
    return start, end, step


def _parse_limit(text):
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d{1,9}\s*", text, re.ASCII) or int(text) < 1:
        raise ArraySpecError(INDEX_ERROR)
    return int(text)


def format_index_ranges(indices):
    """Compress indices into LSF's list form: [1, 2, 3, 5] -> "1-3,5"."""
    ordered = sorted(set(indices))
    parts = []
    start = prev = None
    for index in ordered:
        if prev is not None and index == prev + 1:
            prev = index
            continue
        if start is not None:
            parts.append(_run(start, prev))
        start = prev = index
    if start is not None:
        parts.append(_run(start, prev))
    return ",".join(parts)


def _run(start, end):
    return str(start) if start == end else "%d-%d" % (start, end)


def name_matches(job_name, pattern):
    """`bjobs -J` / `bkill -J`: `*` is a wildcard, brackets are literal
    (`sim[3]` names one element), an array's elements (`sim[3]`) also
    answer to the array's name (`sim`, `si*`), and an index list
    (`sim[1-3,7]`) names those elements."""
    job_name = job_name or ""
    match = _ELEMENT.match(job_name)
    listed = _listed(pattern)
    if listed is not None:
        base, items = listed
        return bool(match) and _in_items(int(match.group(2)), items) and \
            _name_regex(base).fullmatch(match.group(1)) is not None
    regex = _name_regex(pattern)
    if regex.fullmatch(job_name):
        return True
    return bool(match) and regex.fullmatch(match.group(1)) is not None


_ELEMENT = re.compile(r"(.*)\[(\d+)\]\Z", re.DOTALL | re.ASCII)
_LIST = re.compile(r"(.*)\[([\d\s,:\-]*[,:\-][\d\s,:\-]*)\]\Z",
                   re.DOTALL | re.ASCII)
_REGEXES = {}
_LISTS = {}


def _listed(pattern):
    """``("sim", ((1, 3, 1),))`` for a name ending in an index list
    (``sim[1-3]``), its (start, end, step) items unexpanded; None for any
    other name (``sim[3]`` is literal)."""
    if pattern not in _LISTS:
        if len(_LISTS) > 256:
            _LISTS.clear()
        match = _LIST.match(pattern)
        try:
            _LISTS[pattern] = None if match is None else (
                match.group(1), tuple(_item_bounds(item) for item in
                                      match.group(2).split(",")))
        except ArraySpecError:
            _LISTS[pattern] = None
    return _LISTS[pattern]


def _in_items(index, items):
    return any(start <= index <= end and (index - start) % step == 0
               for start, end, step in items)


def _name_regex(pattern):
    regex = _REGEXES.get(pattern)
    if regex is None:
        if len(_REGEXES) > 256:
            _REGEXES.clear()
        regex = _REGEXES[pattern] = re.compile(
            ".*".join(re.escape(p) for p in pattern.split("*")), re.DOTALL)
    return regex
