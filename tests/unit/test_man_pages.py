"""Man pages: every page renders without a groff warning, and every command
has one (the man1 and man8 pages are exactly the console scripts of
setup.cfg plus lsclusters)."""

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAN = ROOT / "man"
# Commands that have a page but are not (yet) console scripts.
EXTRA_COMMANDS = {"lsclusters"}
DAEMONS = {"xce-controller", "xce-agent"}


def _pages():
    return sorted(p for section in ("man1", "man5", "man8")
                  for p in (MAN / section).glob(f"*.{section[3:]}"))


def _console_scripts():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    text = cfg["options.entry_points"]["console_scripts"]
    return {line.split("=")[0].strip() for line in text.splitlines()
            if "=" in line}


def test_there_are_pages_in_every_section():
    for section in ("man1", "man5", "man8"):
        assert list((MAN / section).iterdir()), f"man/{section} is empty"


@pytest.mark.skipif(shutil.which("groff") is None,
                    reason="groff is not installed (apt-get install groff)")
@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_page_renders_without_warnings(page):
    result = subprocess.run(["groff", "-man", "-ww", "-z", str(page)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", f"{page.name}: groff warns:\n{result.stderr}"


def test_every_command_has_a_page_and_every_page_a_command():
    commands = _console_scripts() | EXTRA_COMMANDS
    pages = {p.stem for p in (MAN / "man1").glob("*.1")} | \
        {p.stem for p in (MAN / "man8").glob("*.8")}
    missing = sorted(commands - pages)
    orphans = sorted(pages - commands)
    assert not missing, f"commands without a man page: {', '.join(missing)}"
    assert not orphans, f"man pages of no command: {', '.join(orphans)}"


def test_daemons_are_in_section_8():
    for name in DAEMONS:
        assert (MAN / "man8" / f"{name}.8").is_file(), f"{name}.8 is missing"
        assert not (MAN / "man1" / f"{name}.1").exists(), \
            f"{name} belongs in man8, not man1"


def test_each_page_names_itself_in_its_title_line():
    for page in _pages():
        first = next(line for line in page.read_text().splitlines()
                     if line.startswith(".TH"))
        name, section = first.split()[1:3]
        assert name.lower() == page.stem.lower(), page.name
        assert section.strip('"') == page.suffix[1:], page.name
