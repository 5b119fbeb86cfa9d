"""Host name patterns and group membership (format reference §2.7-2.8).

``node[001-128]``, ``rack[1-4]n[01-20]``, ``node[1-10,12]``, ``node[1:4]``
expand to names; ``node*`` matches known hosts; ``all``, ``~name`` and nested
groups are resolved for host groups and user groups.  Pure functions; bad
patterns and group cycles raise ``PatternError`` with a one-line message.
"""

import fnmatch
import itertools
import re

_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_PREFERENCE = re.compile(r"\+\d+\Z")
# Stop a typo like node[1-99999999] from eating the machine.
MAX_EXPANSION = 100000


class PatternError(ValueError):
    """A member list that cannot be expanded."""


def has_range(name):
    return bool(_BRACKETS.search(name))


def expand_range(name):
    """All names a bracket pattern stands for, in order."""
    parts = _BRACKETS.split(name)
    # parts alternates literal text and bracket contents.
    choices = []
    for index, part in enumerate(parts):
        choices.append(_numbers(part, name) if index % 2 else [part])
    total = 1
    for options in choices:
        total *= len(options)
    if total > MAX_EXPANSION:
        raise PatternError(f"{name}: expands to {total} names (more than "
                           f"{MAX_EXPANSION})")
    return ["".join(combo) for combo in itertools.product(*choices)]


def _numbers(spec, name):
    """Numbers of one bracket, ``1-10,12`` -> ['1', ..., '10', '12']."""
    numbers = []
    for piece in spec.split(","):
        piece = piece.strip()
        bounds = re.split(r"[-:]", piece)
        if len(bounds) == 1:
            bounds = bounds * 2
        if len(bounds) != 2 or not all(b.isdigit() for b in bounds):
            raise PatternError(f"{name}: bad range [{spec}]")
        low, high = bounds
        width = _width(low, high, name)
        if int(low) > int(high):
            raise PatternError(f"{name}: range [{piece}] runs backwards")
        numbers.extend(str(n).zfill(width)
                       for n in range(int(low), int(high) + 1))
    return numbers


def _width(low, high, name):
    """Zero padding of a range: the written width when a bound has one."""
    padded = [b for b in (low, high) if len(b) > 1 and b.startswith("0")]
    if not padded:
        return 0
    if len(low) != len(high):
        raise PatternError(f"{name}: bounds of different widths "
                           f"[{low}-{high}]")
    return len(low)


def strip_preference(name):
    """``hostA+3`` -> ``hostA`` (queue HOSTS preference suffix)."""
    return _PREFERENCE.sub("", name)


def first_host_marked(members):
    """The first member with LSF's first execution host mark
    (``hostA!``, ``hostA!+2``... ), or None."""
    return next((m for m in members if strip_preference(m).endswith("!")),
                None)


def without_first_host(member):
    """``hostA!+2`` -> ``hostA+2``."""
    base = strip_preference(member)
    return base.rstrip("!") + member[len(base):]


def preference_levels(members, groups, universe):
    """The ``+N`` levels of a queue's HOSTS: host -> its highest level
    (``"others"`` -> the level of the hosts not named); {} when no
    member has one (no preference).  Exclusions take no level."""
    if not any(_PREFERENCE.search(m) for m in members):
        return {}
    levels = {}
    for member in members:
        if member.startswith("~"):
            continue
        base = strip_preference(member)
        level = int(member[len(base) + 1:] or 0)
        names = [base] if base == "others" else \
            expand([base], groups, universe)
        for name in names:
            levels[name] = max(level, levels.get(name, level))
    return levels


def as_shown(value, groups):
    """A queue's USERS or HOSTS (a string or a list, as configured) as
    bqueues -l shows it: word by word, a group's name followed by ``/``
    (before its ``+N`` preference, after its ``~``): ``devs/ ~bob``,
    ``nodes/+2 hostA``."""
    if value is None:
        return []
    members = value.split() if isinstance(value, str) else \
        [str(v) for v in value]
    shown = []
    for member in members:
        tilde = "~" if member.startswith("~") else ""
        name = member[len(tilde):]
        base = strip_preference(name)
        slash = "/" if base in groups and not base.endswith("/") else ""
        shown.append(tilde + base + slash + name[len(base):])
    return shown


def expand(members, groups, universe=None, _stack=()):
    """Expand a member list to names.

    *groups* maps group name -> member list; *universe* is every known name
    (hosts), used for ``all`` and wildcards; when it is None (users) ``all``
    stays as the word ``all`` and exclusions stay as ``~name``.
    """
    included, excluded = [], []
    for member in members:
        target = excluded if member.startswith("~") else included
        name = member[1:] if member.startswith("~") else member
        target.extend(_resolve(strip_preference(name), groups, universe,
                               _stack))
    dropped = {name.lower() for name in excluded}
    result = _unique(n for n in included if n.lower() not in dropped)
    if universe is None and "all" in result:
        result += ["~" + n for n in _unique(excluded)]
    return result


def _resolve(name, groups, universe, stack):
    if name in groups:
        if name in stack:
            cycle = " -> ".join(stack[stack.index(name):] + (name,))
            raise PatternError(f"group cycle: {cycle}")
        return expand(groups[name], groups, universe, stack + (name,))
    if name == "all":
        return list(universe) if universe is not None else ["all"]
    if "*" in name or "?" in name:
        if universe is None:
            return [name]
        return [h for h in universe
                if fnmatch.fnmatch(h.lower(), name.lower())]
    if has_range(name):
        return expand_range(name)
    return [name]


def _unique(names):
    seen, result = set(), []
    for name in names:
        if name not in seen:
            seen.add(name)
            result.append(name)
    return result


def find_cycle(groups):
    """The first group cycle as a message, or None."""
    for name in groups:
        try:
            _resolve(name, groups, [], ())
        except PatternError as exc:
            if str(exc).startswith("group cycle"):
                return str(exc)
    return None
