"""User commands import nothing heavy: no paramiko, psutil, ruamel, daemon code."""

import subprocess
import sys
from pathlib import Path

import pytest

USER_COMMANDS = ["bsub", "bjobs", "bkill", "bstop", "bresume", "bqueues",
                 "bhosts", "bparams", "lsid", "lsclusters", "badmin", "bhist",
                 "bacct", "bmod", "bswitch", "brequeue", "btop", "bbot",
                 "bpeek", "bwait", "busers", "bugroup", "bmgroup", "bapp",
                 "blimits", "lshosts", "lsload", "bpost", "bread", "bstatus",
                 "bjdepinfo", "bgadd", "bgdel", "bgmod", "bjgroup", "lsadmin",
                 "blaunch", "xce_explain", "lsinfo"]
# click too: LSF commands parse with xce.cli.lsfargs (click is for xce's
# own tools: xce, xce-migrate and the daemons).
HEAVY = ("paramiko", "psutil", "ruamel", "xce.controller", "xce.agent",
         "tabulate", "filelock", "msgspec", "click")

PROBE = """
import importlib, sys
importlib.import_module({module!r})
heavy = sorted(m for m in sys.modules if m.split('.')[0] in {top!r}
               or m.startswith(('xce.controller', 'xce.agent')))
print(' '.join(heavy))
"""


@pytest.mark.parametrize("command", USER_COMMANDS)
def test_command_imports_are_light(command):
    module = f"xce.cli.{command}"
    tops = tuple(h for h in HEAVY if "." not in h)
    out = subprocess.run([sys.executable, "-c",
                          PROBE.format(module=module, top=tops)],
                         capture_output=True, text=True)
    if "ModuleNotFoundError" in out.stderr and module in out.stderr:
        pytest.skip(f"{command} is not written yet")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_the_probe_sees_a_heavy_import():
    out = subprocess.run([sys.executable, "-c", PROBE.format(
        module="xce.agent.hostinfo", top=("psutil",))],
        capture_output=True, text=True)
    assert "psutil" in out.stdout


# --- bsub and bjobs start lean ------------------------------------------
# A command's time is mostly its interpreter's start and its imports.  What
# bsub and bjobs must not load on their way (instructions each added to
# bsub, counted with callgrind on CPython 3.11, bsub's own work being
# about 2 million): re with enum (19 million: json, pathlib, shlex and
# most patterns bring it), json (6 more: its decoder and encoder compile
# patterns; xce.model.jsoncodec calls the same C codec), pathlib (with
# fnmatch and urllib.parse, 15 more), socket (enum classes; _socket is the
# C module), decimal, shlex, sqlite3's package (datetime adapters: the C
# module _sqlite3 is enough).  bsub reads no store at all; bjobs loads
# _sqlite3 without the functools (and collections) its initialisation
# would import (6 million: xce.store.reader); types is not imported for
# SimpleNamespace (1.7 million: it is type(sys.implementation)), nor errno
# (0.2 million) but when a request cannot be written; bsub loads no pwd
# (0.17 million: it never asks for the user's name).
NOT_AT_START = ("re", "enum", "json", "pathlib", "fnmatch", "urllib",
                "ipaddress", "socket", "selectors", "decimal", "shlex",
                "datetime", "sqlite3", "typing", "dataclasses", "argparse",
                "subprocess", "logging", "tempfile", "locale", "string",
                "textwrap", "inspect", "tokenize", "ast", "contextlib",
                "types", "errno")
# os too (4 million: os.environ's _collections_abc above all, posixpath,
# genericpath, stat): the commands' way uses xce.oslite, on posix alone,
# which needs no _stat either (0.1 million); the spool client waits with
# its socket's timeout, not select (0.15 million).
OS = ("os", "posixpath", "genericpath", "stat", "_stat", "_collections_abc",
      "select")
LEAN = {"bsub": NOT_AT_START + OS + ("_sqlite3", "functools", "collections",
                                     "pwd"),
        "bjobs": NOT_AT_START + OS + ("functools", "collections")}
REPO = Path(__file__).resolve().parents[2]

MODULES_AFTER = """
import sys
sys.path.insert(0, {repo!r})
base = set(sys.modules)
import {module}
print(' '.join(sorted(set(sys.modules) - base)))
"""


def loaded_by_import(module):
    """Modules a fresh interpreter (no site module, as the launchers
    start it) loads to import *module* from this checkout."""
    out = subprocess.run([sys.executable, "-S", "-c", MODULES_AFTER.format(
        repo=str(REPO), module=module)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def heavy_among(loaded, command):
    return sorted(m for m in loaded if m.split(".")[0] in LEAN[command])


@pytest.mark.parametrize("command", sorted(LEAN))
def test_lean_commands_import_none_of_the_costly_modules(command):
    loaded = loaded_by_import(f"xce.cli.{command}")
    assert f"xce.cli.{command}" in loaded
    assert heavy_among(loaded, command) == []


def test_the_launchers_bundle_finder_loads_nothing_costly():
    # Every user command's launcher imports it first (xce.cli.bundle).
    loaded = loaded_by_import("xce.cli.bundle")
    assert heavy_among(loaded, "bsub") == []
    assert loaded - {"xce", "xce.cli", "xce.cli.bundle"} <= {"marshal"}


@pytest.mark.parametrize("command", sorted(LEAN))
def test_lean_commands_start_without_the_message_catalogue(command):
    # xce.errors' few hundred messages cost almost a million instructions;
    # the error classes and text() come from xce.errbase, which reads the
    # catalogue when a message is shown.
    loaded = loaded_by_import(f"xce.cli.{command}")
    assert "xce.errbase" in loaded and "xce.errors" not in loaded


HELP_RUN = """
import sys
sys.path.insert(0, {repo!r})
sys.argv = [{command!r}] + {argv!r}
import xce.cli.{command} as command
try:
    command.main()
except SystemExit as e:
    print(e.code, ' '.join(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("command", sorted(LEAN))
def test_help_is_shown_without_the_message_catalogue(command):
    # bsub finds where its options end (help flags after the job's
    # command are the job's) by a parse whose errors it throws away: an
    # error's message is built only when it is shown.
    def run(*argv):
        out = subprocess.run([sys.executable, "-S", "-c", HELP_RUN.format(
            repo=str(REPO), command=command, argv=list(argv))],
            capture_output=True, text=True)
        code, _, loaded = out.stderr.strip().rpartition("\n")[2] \
            .partition(" ")
        return out.stdout, code, loaded.split()
    out, code, loaded = run("-h")
    assert out.startswith(f"Usage: {command} ") and code == "0"
    assert "xce.errbase" in loaded and "xce.errors" not in loaded
    # An error that is shown still reads the catalogue.
    _, code, loaded = run("-Z")
    assert code == "255" and "xce.errors" in loaded


def test_the_lean_probe_sees_a_costly_import():
    assert {"decimal", "enum", "re"} <= \
        set(heavy_among(loaded_by_import("xce.lang.units"), "bsub"))


def _reachable(start):
    """xce modules *start* may import, at any depth and inside functions
    too, and the other top-level modules they name."""
    from test_layering import imports_of, module_name
    paths = {module_name(p, REPO): p for p in (REPO / "xce").rglob("*.py")}
    seen, outside, todo = set(), set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in paths:
            continue
        seen.add(name)
        for _, target in imports_of(paths[name], name, paths):
            top = target.split(".")[0]
            if top != "xce":
                outside.add(top)
                continue
            parts = target.split(".")
            todo += [".".join(parts[:i]) for i in range(2, len(parts) + 1)]
    return seen, outside


@pytest.mark.parametrize("command", sorted(LEAN))
def test_lean_commands_need_nothing_but_the_standard_library(command):
    """Their launchers start Python without site (-S): nothing they may
    import, on any path, may live in site-packages."""
    seen, outside = _reachable(f"xce.cli.{command}")
    assert f"xce.cli.{command}" in seen and "xce.client.site" in seen
    assert sorted(outside - set(sys.stdlib_module_names)) == []


STAND_IN = """
import sys
sys.path.insert(0, {repo!r})
from xce.store import reader
db = reader.sqlite3.connect(":memory:")
for _ in range(3):      # the same statement again: no cache, same answer
    assert db.execute("SELECT ?", (7,)).fetchone() == (7,)
assert "functools" not in sys.modules
import functools
print(functools.reduce(lambda a, b: a + b, [1, 2, 3]))
"""


def test_sqlite3_without_functools_reads_and_leaves_the_real_one():
    out = subprocess.run([sys.executable, "-S", "-c",
                          STAND_IN.format(repo=str(REPO))],
                         capture_output=True, text=True)
    assert (out.returncode, out.stdout, out.stderr) == (0, "6\n", "")
