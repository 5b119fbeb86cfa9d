"""End-to-end tests search bjobs -l, bhist -l and bacct -l through
Result.joined, never through the raw ``out``: LSF folds those formats at
79 columns, inside words, and where the cut falls depends on the lengths
of paths, names and times (tests/unit/test_folded_output.py).  The check
follows a result within its function (a helper that returns the raw
text is not followed)."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
FOLDED = {"bjobs", "bhist", "bacct"}
# What reads the text: searching, splitting or parsing it.
READERS = {"split", "splitlines", "strip", "replace", "index", "find",
           "startswith", "endswith", "search", "match", "findall", "join"}


def _folded_call(node):
    """NODE runs bjobs, bhist or bacct with -l (literal words)."""
    if not isinstance(node, ast.Call):
        return False
    words = {a.value for a in node.args
             if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return bool(FOLDED & words) and "-l" in words


def _assignments(func):
    """{name: [(line, value)]} of the plain assignments in FUNC."""
    found = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(
                        (node.lineno, node.value))
    return found


def _is_folded_result(node, assigned):
    """NODE is a folded command's result: the call, or a name last
    assigned from one."""
    if _folded_call(node):
        return True
    if isinstance(node, ast.Name):
        before = [v for line, v in assigned.get(node.id, [])
                  if line <= node.lineno]
        return bool(before) and _folded_call(before[-1])
    return False


def _raw_reads(tree):
    """(line, text) of every read of a folded result's raw ``out``."""
    parents = {child: node for node in ast.walk(tree)
               for child in ast.iter_child_nodes(node)}
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.Lambda)):
            continue
        assigned = _assignments(func)
        for node in ast.walk(func):
            if not (isinstance(node, ast.Attribute) and node.attr == "out"
                    and _is_folded_result(node.value, assigned)):
                continue
            up = parents.get(node)
            searched = isinstance(up, ast.Compare) and node in \
                up.comparators and any(isinstance(op, (ast.In, ast.NotIn))
                                       for op in up.ops)
            method = isinstance(up, ast.Attribute) and up.attr in READERS
            argument = isinstance(up, ast.Call) and node in up.args and \
                isinstance(up.func, ast.Attribute) and \
                up.func.attr in READERS
            if searched or method or argument:
                yield node.lineno, ast.unparse(up)


def test_no_end_to_end_test_searches_folded_output_raw():
    raw = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        if "unit" in path.relative_to(TESTS).parts:
            continue
        for line, text in _raw_reads(ast.parse(path.read_text())):
            raw.add(f"{path.relative_to(TESTS)}:{line}: {text}")
    assert not raw, "search Result.joined instead:\n" + "\n".join(
        sorted(raw))


def test_the_check_sees_each_way_of_reading_raw_out():
    source = '''
def test_x(c):
    r = c.run("bjobs", "-l", "1")
    assert "a" in r.out
    words = " ".join(r.out.split())
    found = re.search("b", r.out)
    assert "c" in c.run("bhist", "-l", "1").out
    r = c.run("bjobs", "-w", "1")
    assert "d" in r.out
    assert "e" in c.run("bjobs", "-l", "1").joined
'''
    lines = sorted({line for line, _ in _raw_reads(ast.parse(source))})
    assert lines == [4, 5, 6, 7]
