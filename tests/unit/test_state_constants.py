"""Host and queue states are spelt once, in xce/model/states.py; the rest
of the code names them by constant, so a state cannot be misspelt in one
place (an ``"unavial"`` would silently never match)."""

import ast
from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"
STATES = XCE / "model" / "states.py"

# Found wherever they appear: no other text is spelt like these.
DISTINCT = {"unavail", "unreach", "closed_Adm", "closed_Full", "closed_Excl",
            "Open:", "Closed:", "Active", "Inact", "Inact_Adm"} | {
    f"{o}:{a}" for o in ("Open", "Closed")
    for a in ("Active", "Inact", "Inact_Adm")}
# Also a reply key ("ok") or a word in a message ("is closed"): found only
# where the code compares, returns, passes or builds a value with them.
AMBIGUOUS = {"ok", "closed"}
VALUE_PLACES = (ast.Compare, ast.Return, ast.IfExp, ast.keyword, ast.BinOp,
                ast.Assign)


def _parents(tree):
    up = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            up[child] = node
    return up


def _as_state(node, up):
    """Is the string constant NODE used as a host or queue state?"""
    if node.value in DISTINCT:
        return True
    if node.value not in AMBIGUOUS:
        return False
    parent = up.get(node)
    while isinstance(parent, (ast.Tuple, ast.Set, ast.List)):
        if isinstance(up.get(parent), ast.Compare):
            return True
        parent = up.get(parent)
    if isinstance(parent, ast.Call):
        func = parent.func
        return isinstance(func, ast.Attribute) and func.attr in (
            "startswith", "endswith")
    return isinstance(parent, VALUE_PLACES) and not (
        isinstance(parent, ast.Assign) and node in parent.targets)


def literal_states(root):
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.resolve() == STATES.resolve():
            continue
        tree = ast.parse(path.read_text(), str(path))
        up = _parents(tree)
        hits = [node for node in ast.walk(tree)
                if isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and not isinstance(up.get(node), ast.Expr)   # docstrings
                and _as_state(node, up)]
        hits.sort(key=lambda node: (node.lineno, node.col_offset))
        found += [f"{path.relative_to(root.parent)}:{node.lineno}: "
                  f"{node.value!r}" for node in hits]
    return found


def test_host_and_queue_states_are_named_by_constant():
    assert literal_states(XCE) == []


def test_every_state_the_scan_looks_for_is_declared():
    from xce.model import states
    declared = {v for k, v in vars(states).items()
                if k.startswith(("HOST_", "QUEUE_")) and isinstance(v, str)}
    assert DISTINCT - {s for s in DISTINCT if ":" in s} - declared == set()
    assert AMBIGUOUS <= declared


def test_the_scan_catches_literal_states(tmp_path):
    pkg = tmp_path / "xce"
    pkg.mkdir()
    (pkg / "bad.py").write_text(
        'if h["status"] in ("unavail", "x"):\n    pass\n'
        'if s == "ok":\n    pass\n'
        'closed = s.startswith("closed")\n'
        'q = "Open:" + "Active"\n'
        'def f():\n    return "ok"\n'
        'reply = {"ok": True}\n'
        'good = reply.get("ok")\n'
        'word = f"Queue is {x}"\n')
    assert [v.split(": ", 1)[1] for v in literal_states(pkg)] == [
        "'unavail'", "'ok'", "'closed'", "'Open:'", "'Active'", "'ok'"]
