"""Write the migrated tree as commented YAML.

A small emitter of our own: the tree holds only mappings, lists and
scalars, and we want a comment on each line naming the LSF file and line the
value came from, which general YAML libraries make awkward.  Strings are
quoted whenever a YAML 1.1 or 1.2 reader could take them for anything else.
"""

import json
import re

INDENT = "  "
# Plain (unquoted) strings: a safe first character, no YAML indicators, single
# inner blanks only.
_WORD = r"[A-Za-z0-9_./@+=()-]"
_PLAIN = re.compile(rf"[A-Za-z_/]{_WORD}*( {_WORD}+)*\Z")
# Words YAML 1.1 readers turn into booleans or null.
_RESERVED = {"y", "n", "yes", "no", "true", "false", "on", "off", "null",
             "~"}
_FLOW_WIDTH = 78


def scalar(value):
    """One YAML scalar for a Python bool, number, None or string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    if text.isprintable():
        return "'" + text.replace("'", "''") + "'"
    return json.dumps(text)


def _flow(values):
    return "[" + ", ".join(scalar(v) for v in values) + "]"


def _is_flat(values):
    return all(not isinstance(v, (dict, list)) for v in values)


class Emitter:
    """Emits *tree*; comment_for(path) gives the trailing comment or ''."""

    def __init__(self, comment_for):
        self.comment_for = comment_for
        self.lines = []

    def emit(self, tree, header=()):
        self.lines.extend("# " + line if line else "#" for line in header)
        for name, value in tree.items():
            self.lines.append("")
            self._entry((name,), value, 0, name)
        return "\n".join(self.lines) + "\n"

    def _line(self, depth, text, path):
        comment = self.comment_for(path)
        line = INDENT * depth + text
        self.lines.append(f"{line}  # {comment}" if comment else line)

    def _entry(self, path, value, depth, key):
        head = scalar(key) + ":"
        if isinstance(value, dict):
            if not value:
                self._line(depth, head + " {}", path)
                return
            self._line(depth, head, path)
            for sub_key, sub_value in value.items():
                self._entry(path + (sub_key,), sub_value, depth + 1, sub_key)
        elif isinstance(value, list):
            self._list(path, value, depth, head)
        else:
            self._line(depth, f"{head} {scalar(value)}", path)

    def _list(self, path, values, depth, head):
        flow = _flow(values) if _is_flat(values) else None
        if flow is not None and len(INDENT * depth + head + flow) <= \
                _FLOW_WIDTH:
            self._line(depth, f"{head} {flow}", path)
            return
        self._line(depth, head, path)
        for index, item in enumerate(values):
            self._item(path + (index,), item, depth + 1)

    def _item(self, path, item, depth):
        if not isinstance(item, dict) or not item:
            text = _flow(item) if isinstance(item, list) else (
                "{}" if isinstance(item, dict) else scalar(item))
            self._line(depth, "- " + text, path)
            return
        first = len(self.lines)
        for sub_key, sub_value in item.items():
            self._entry(path + (sub_key,), sub_value, depth + 1, sub_key)
        # Put the first key on the dash line: "- NAME: l1".
        self.lines[first] = INDENT * depth + "- " + self.lines[first][
            len(INDENT) * (depth + 1):]


def dump(tree, comment_for=lambda path: "", header=()):
    return Emitter(comment_for).emit(tree, header)
