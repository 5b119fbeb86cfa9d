"""Man pages and shell completion: every page renders without a groff
warning, every command has one (the man1 and man8 pages are exactly the
console scripts of setup.cfg), and etc/bash_completion.d/xce is valid bash
that completes every console script with all its click options."""

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAN = ROOT / "man"
# Commands that have a page but are not (yet) console scripts.
EXTRA_COMMANDS = set()
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


# -- bash completion ---------------------------------------------------------
COMPLETION = ROOT / "etc" / "bash_completion.d" / "xce"
needs_bash = pytest.mark.skipif(shutil.which("bash") is None,
                                reason="bash is not installed")


def _completed_commands():
    """The command names of the file's `complete` lines."""
    text = COMPLETION.read_text().replace("\\\n", " ")
    names = set()
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["complete", "-F"]:
            names.update(words[3:])
    return names


def _bash(script):
    result = subprocess.run(["bash", "-c", script, "bash", str(COMPLETION)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _click_command(script):
    import importlib

    import click
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    text = cfg["options.entry_points"]["console_scripts"]
    target = next(line.split("=")[1].strip() for line in text.splitlines()
                  if "=" in line and line.split("=")[0].strip() == script)
    module = importlib.import_module(target.split(":")[0])
    from xce.cli.lsfargs import Commands, Parser
    found = [v for v in vars(module).values()
             if isinstance(v, (click.Command, Parser, Commands))]
    return found[0] if found else None


def _option_strings(command):
    import click
    from xce.cli.lsfargs import Parser
    if isinstance(command, Parser):     # the light parser of hot commands
        return {flag for opt in command.opts for flag in opt.flags}
    return {opt for p in command.params if isinstance(p, click.Option)
            for opt in p.opts + p.secondary_opts}


def test_bash_completion_covers_every_console_script():
    missing = sorted(_console_scripts() - _completed_commands())
    assert not missing, \
        f"etc/bash_completion.d/xce does not complete: {', '.join(missing)}"


@needs_bash
def test_bash_accepts_the_completion_file():
    result = subprocess.run(["bash", "-n", str(COMPLETION)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@needs_bash
@pytest.mark.parametrize("script", sorted(_console_scripts()))
def test_bash_completion_offers_every_click_option(script):
    """Options of plain commands, subcommand names of groups."""
    import click
    command = _click_command(script)
    if command is None:
        pytest.skip(f"{script} has no click command")
    from xce.cli.lsfargs import Commands
    if isinstance(command, (click.Group, Commands)):
        offered = _bash(f'source "$1"; COMP_WORDS=({script} ""); '
                        'COMP_CWORD=1; _xce_subcommand ' + script +
                        '; printf "%s\\n" "${COMPREPLY[@]}"').split()
        wanted = set(command.commands)
    else:
        # printf, not echo: echo would take -n and -e as its own options.
        offered = _bash(f'source "$1"; _xce_options {script}; '
                        "printf '%s\\n' $flags; "
                        'for v in $values; do printf "%s\\n" "${v%%:*}"; '
                        'done').split()
        wanted = _option_strings(command)
    missing = sorted(wanted - set(offered))
    assert not missing, f"{script}: not completed: {' '.join(missing)}"
