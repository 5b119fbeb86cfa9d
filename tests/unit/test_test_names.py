"""Test files are collected by base name (no packages under tests/): two
files of one name in different folders stop the whole suite at
collection, so each name must be unique.  Tests are named for the
behaviour they check, never for the issue that asked for it."""

import ast
import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ISSUE_NUMBER = re.compile(r"issue_?\d", re.IGNORECASE)


def _test_files():
    return sorted(TESTS.rglob("test_*.py"))


def test_every_test_file_name_is_unique():
    names = Counter(p.name for p in _test_files())
    assert [n for n, k in names.items() if k > 1] == []


def test_no_test_file_is_named_for_an_issue_number():
    assert [p.name for p in _test_files() if ISSUE_NUMBER.search(p.name)] \
        == []


def test_no_test_function_is_named_for_an_issue_number():
    numbered = []
    for path in _test_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.ClassDef)) \
                    and node.name.lower().startswith("test") \
                    and ISSUE_NUMBER.search(node.name):
                numbered.append(f"{path.name}::{node.name}")
    assert numbered == []
