"""SQL lives in xce/store/ only (DESIGN, invariant 11): the controller goes
through the store's writer, the commands through its reader.  Outside the
store no module holds an SQL statement or runs one on a connection."""

import ast
import re
from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"
STORE = XCE / "store"

# A string that opens with a statement's keyword (xce writes them in
# capitals; "Begin Parameters" is lsf.conf text) is a statement.
_STATEMENT = re.compile(
    r"\s*(SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|"
    r"WITH|BEGIN|COMMIT|ROLLBACK)\s")
_RUNS_SQL = {"execute", "executemany", "executescript"}


def sql_found(source, filename="<source>"):
    """(line, what) of each SQL statement or statement call in SOURCE."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        # An f-string's text parts are constants of their own.
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.Call) and \
                isinstance(node.func, ast.Attribute) and \
                node.func.attr in _RUNS_SQL:
            found.append((node.lineno, f".{node.func.attr}()"))
            continue
        else:
            continue
        if _STATEMENT.match(text):
            found.append((node.lineno, text.split("\n")[0][:40]))
    return sorted(found)


def test_no_sql_outside_the_store():
    outside = []
    for path in sorted(XCE.rglob("*.py")):
        if STORE in path.parents:
            continue
        for line, what in sql_found(path.read_text(), str(path)):
            outside.append(f"{path.relative_to(XCE.parent)}:{line}: {what}")
    assert outside == []


def test_the_check_finds_a_planted_statement():
    planted = ('def f(reader, jobid):\n'
               '    sql = f"SELECT {COLS} FROM jobs"\n'
               '    reader.db.execute("UPDATE jobs SET stat=?", (1,))\n'
               '    return "UPDATE_TIME is a column header"\n')
    assert [line for line, _ in sql_found(planted)] == [2, 3, 3]
