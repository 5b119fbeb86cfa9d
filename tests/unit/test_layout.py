"""Every console script also runs from a checkout, through bin/."""

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def console_scripts():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    lines = cfg["options.entry_points"]["console_scripts"].strip().splitlines()
    return {line.split("=")[0].strip(): line.split("=")[1].strip()
            for line in lines if line.strip()}


def test_every_console_script_has_a_bin_launcher():
    for name, target in console_scripts().items():
        launcher = ROOT / "bin" / name
        assert launcher.is_file(), f"bin/{name} is missing"
        module = target.split(":")[0]
        assert f"-m {module} " in launcher.read_text(), name


def test_every_package_directory_has_an_init():
    # setup.cfg's find: skips a directory without __init__.py, so the
    # installed commands would miss its modules while a checkout works.
    missing = [str(d.relative_to(ROOT)) for d in (ROOT / "xce").rglob("*")
               if d.is_dir() and d.name != "__pycache__"
               and any(d.glob("*.py")) and not (d / "__init__.py").exists()]
    assert missing == []
