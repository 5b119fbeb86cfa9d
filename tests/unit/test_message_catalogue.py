"""Commands' error texts live in xce/errors.py (MESSAGES), so LSF's wording
is checked in one place: a raise of a command-facing error class, and the
"error" of a reply the controller sends a command, name a catalogue key
(``XceError(text("SPOOL_FULL", spool=spool))``) instead of writing their
words inline."""

import ast
import re
from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"
# Packages whose raises are all in the catalogue (the others move in turn).
CHECKED = ("cli", "client", "config", "controller", "spool", "store")
COMMAND_ERRORS = {"XceError", "UsageError", "SubmitError", "Spooled",
                  "ConfigError"}
# The names xce.config gives the checker that reports xce.yaml's keys.
CONFIG_CHECKERS = {"check", "check_", "checker", "self"}
WORD = re.compile(r"[A-Za-z]")
# Texts written inline on purpose, by file and the literal's words, and why
# (only texts built from a value, when a key would hide what they say).
ALLOWED = {}


def _inline_words(expr):
    """The string literals with words in EXPR itself: not those passed to
    a call (catalogue keys, reply.get("error")), which are not the text."""
    found, todo = [], [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call):
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if WORD.search(node.value):
                found.append(node.value)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _message_texts(node):
    """The texts a command shows that NODE writes: the first argument of a
    command error it raises, the message of a configuration key's error,
    or a reply's "error"/"errors"."""
    if _raised_class(node) and node.exc.args:
        return [node.exc.args[0]]
    if _config_check(node):
        return [node.args[-1]]
    if isinstance(node, ast.Dict):
        return [value for key, value in zip(node.keys, node.values)
                if isinstance(key, ast.Constant)
                and key.value in ("error", "errors")]
    return []


def _config_check(node):
    """xce.yaml's per-key errors: ``check.error(node, key, message)`` and
    ``check.errors.append(message)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.args):
        return False
    func, owner = node.func, node.func.value
    owner = owner.attr if isinstance(owner, ast.Attribute) else \
        getattr(owner, "id", None)
    if func.attr == "error":     # not migrate's diagnostics (diags.error)
        return owner in CONFIG_CHECKERS and len(node.args) == 3
    return func.attr == "append" and owner == "errors"


def _raised_class(node):
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
        func = node.exc.func
        name = func.attr if isinstance(func, ast.Attribute) else \
            getattr(func, "id", None)
        return name if name in COMMAND_ERRORS else None
    return None


def inline_messages(root, allowed=ALLOWED):
    found = []
    for path in sorted(root.rglob("*.py")):
        where = str(path.relative_to(root.parent))
        for node in ast.walk(ast.parse(path.read_text(), where)):
            for expr in _message_texts(node):
                found += [f"{where}:{node.lineno}: {words!r}"
                          for words in _inline_words(expr)
                          if words not in allowed.get(where, {})]
    return sorted(found)


def test_command_errors_take_their_text_from_the_catalogue():
    found = []
    for package in CHECKED:
        found += inline_messages(XCE / package)
    assert found == []


def test_every_allowance_is_still_used():
    for where, texts in ALLOWED.items():
        source = (XCE.parent / where).read_text()
        assert all(repr(t)[1:-1] in source or t in source for t in texts), \
            where


def test_the_scan_catches_inline_texts(tmp_path):
    raises = ['XceError("No such queue")',
              'XceError(f"Job <{label}> is not found")',
              'errors.UsageError("Bad argument", usage)',
              'XceError(text("BAD_QUEUE", name))',
              'XceError(f"{path}: {e.strerror}")',
              'XceError(reply.get("error") or "Request failed")',
              'ValueError("not a command error")',
              'Reply({"ok": False, "error": "No command to launch"})',
              'Reply({"errors": [f"{path}: cannot be read"], "ok": True})',
              'check.error(node, key, f"{value!r} is not a number")',
              'check.errors.append(f"{path}: queues: none")',
              'check.error(node, key, text("CONFIG_NOT_NUMBER", value=v))']
    pkg = tmp_path / "xce"
    pkg.mkdir()
    (pkg / "bad.py").write_text("".join(f"raise {r}\n" for r in raises))
    assert [v.split(": ", 1)[1] for v in inline_messages(pkg)] == [
        "' is not a number'", "': queues: none'",    # lines 10, 11 sort first
        "'No such queue'", "'> is not found'", "'Job <'", "'Bad argument'",
        "'Request failed'", "'No command to launch'", "': cannot be read'"]
    assert inline_messages(pkg, {"xce/bad.py": {
        "No such queue", "Job <", "> is not found", "Bad argument",
        "Request failed", "No command to launch", ": cannot be read",
        " is not a number", ": queues: none"}}) == []


def test_the_configuration_messages_are_found_by_their_key():
    # xce.confmessages holds the CONFIG_ keys, read by text() on demand.
    from xce.confmessages import CONFIG_MESSAGES
    from xce.errors import MESSAGES, text
    assert all(key.startswith("CONFIG_") for key in CONFIG_MESSAGES)
    assert not set(CONFIG_MESSAGES) & set(MESSAGES)
    assert text("CONFIG_NOT_WHOLE", value="x") == "'x' is not a whole number"
    assert text("CONFIG_NOT_SET") == "(not set)"
    assert text("NO_JOB") == "No matching job found"
    assert text("NOT_A_KEY") == "NOT_A_KEY"
