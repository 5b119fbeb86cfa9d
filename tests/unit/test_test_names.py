"""Test files are collected by base name (no packages under tests/): two
files of one name in different folders stop the whole suite at
collection, so each name must be unique."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_file_name_is_unique():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
