"""Small modules (CONVENTIONS 10): no module of xce holds more than 600
lines; one that grows past it is split along a seam, not let through."""

from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"
MAX_LINES = 600


def too_long(root):
    """'path: lines' of every module under ROOT longer than MAX_LINES."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if lines > MAX_LINES:
            found.append(f"{path.relative_to(root.parent)}: {lines}")
    return found


def test_no_module_is_over_600_lines():
    assert too_long(XCE) == []


def test_the_check_finds_a_long_module(tmp_path):
    (tmp_path / "xce").mkdir()
    (tmp_path / "xce" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "xce" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert too_long(tmp_path / "xce") == ["xce/long.py: 601"]
