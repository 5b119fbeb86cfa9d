"""Arrows point one way (DESIGN, invariant 11; README, Layout).

Every module's imports, including those inside functions, are read with
``ast`` (nothing is imported) and each arrow between xce modules must be in
ALLOWED.  A failure names the importing module, its line and the import.
The other half of the invariant, SQL in xce/store/ only, is held by
test_sql_in_store.py.
"""

import ast
import graphlib
import sys
from pathlib import Path

XCE = Path(__file__).resolve().parents[2] / "xce"

# The rooms of the tree.  A module belongs to the longest room naming it or
# one of its packages.  Pure rooms import only the standard library.
PURE = ("xce.lang", "xce.model")
# version constants; the messages and the error classes (without the
# messages); the commands' os (on posix alone); UNIX socket paths of any
# length
_BASE = {"xce", "xce.errors", "xce.errbase", "xce.oslite", "xce.unixsock"}
_USER_COMMAND = _BASE | {"xce.envdir", "xce.client", "xce.lang", "xce.model"}
# What every command's client code may reach outside xce.client.
_CLIENT = _BASE | {"xce.envdir", "xce.lang", "xce.model", "xce.config",
                   "xce.store.reader", "xce.spool.client", "xce.spool.layout"}
# The client's shared pieces: every subject package may import them, and
# they import no subject package, so there is no cycle between them.
_CLIENT_SHARED = {"xce.client.site", "xce.client.ids", "xce.client.requests",
                  "xce.client.text"}
_SPOOL_SHARED = {"xce.errors", "xce.errbase", "xce.oslite", "xce.unixsock",
                 "xce.model",
                 "xce.spool.check", "xce.spool.fields", "xce.spool.layout"}
_CLI_SHARED = {"xce.cli.common", "xce.cli.lsfargs"}
# room: the rooms and modules it may import (its own room always).
ALLOWED = {
    "xce": set(),
    "xce.errors": {"xce.errbase"},
    "xce.confmessages": set(),
    # text() reads the catalogue when it is called
    "xce.errbase": {"xce.errors", "xce.confmessages"},
    "xce.oslite": set(),
    # its one-line error is a command's error (SocketPathError)
    "xce.unixsock": {"xce.errbase"},
    "xce.lang": set(),
    "xce.model": set(),
    "xce.daemon": set(),               # pid files and start-up of daemons
    "xce.envdir": {"xce.errors", "xce.errbase", "xce.oslite"},
    "xce.scheduler": {"xce.lang", "xce.model"},
    "xce.store": {"xce.errors", "xce.errbase", "xce.oslite", "xce.model"},
    # The spool's server side (schema, bounds, server) may use msgspec; its
    # client side (client, check) and what both read (fields, layout) not.
    "xce.spool": _SPOOL_SHARED,
    **{side: _SPOOL_SHARED for side in ("xce.spool.client", "xce.spool.check",
                                        "xce.spool.fields", "xce.spool.layout")},
    "xce.config": _BASE | {"xce.envdir", "xce.lang", "xce.model"},
    "xce.client": _CLIENT | _CLIENT_SHARED,
    **{shared: _CLIENT | _CLIENT_SHARED for shared in _CLIENT_SHARED},
    "xce.controller": _BASE | {
        "xce.daemon", "xce.lang", "xce.model", "xce.scheduler",
        "xce.config", "xce.spool.server", "xce.spool.schema",
        "xce.spool.fields", "xce.spool.layout", "xce.spool.bounds",
        "xce.agent.protocol",
        # the store's writer side: everything but the commands' reader
        "xce.store.writer", "xce.store.schema", "xce.store.lsbfiles",
        "xce.store.lsbchanges", "xce.store.lsbfields", "xce.store.lsbrotate"},
    "xce.agent": {"xce", "xce.daemon", "xce.model", "xce.unixsock"},
    # The simulator drives the controller's own scheduling pass (schedpass)
    # over controller-shaped state in virtual time: the pass's modules, and
    # nothing that talks to agents, the spool or the store.
    "xce.sim": _BASE | {
        "xce.config", "xce.lang", "xce.model", "xce.scheduler",
        "xce.controller.schedpass", "xce.controller.dispatch",
        "xce.controller.preemption", "xce.controller.reserve",
        "xce.controller.submit", "xce.controller.apply",
        "xce.controller.jobindex", "xce.controller.windows",
        "xce.controller.claims",
        # a gang's failure policy, and --verify's replay of GANG_SET and
        # GANG_UNSET, as the controller applies them
        "xce.controller.gangs",
        # JOB_ACCEPT_INTERVAL: the replay wakes when a host's wait ends
        "xce.controller.accept",
        # the replay wakes when a decaying or timed rusage[] frees tokens
        "xce.controller.rusagewake",
        # a host closed by its job exit rate, by the controller's own rule
        "xce.controller.exitclose",
        # the pass holds a job back after a failed pre-exec (dispatch
        # asks prepost); the replay wakes it as the controller's turn does
        "xce.controller.prepost",
        # --elim-values keeps the values as the controller keeps an
        # agent's report of them
        "xce.controller.elimconf",
        # the stepper prints traces in xce explain's words
        "xce.client.explain",
        # --verify reads a live run's event log and applies its badmin
        # queue and host controls as the controller does
        "xce.store.reader", "xce.controller.admin"},
    # User commands (b*, ls*, xce explain) and their shared argument code.
    "xce.cli": _USER_COMMAND,
    # The daemon entry points: only they start daemons or load the
    # configuration with its YAML parser.
    "xce.cli.xce": _USER_COMMAND | _CLI_SHARED | {
        "xce.daemon", "xce.spool.client", "xce.cli.xce_controller",
        "xce.cli.xce_explain", "xce.cli.xce_sim"},
    "xce.cli.xce_sim": _BASE | _CLI_SHARED | {"xce.sim"},
    "xce.cli.xce_controller": _BASE | _CLI_SHARED | {
        "xce.daemon", "xce.envdir", "xce.config", "xce.controller"},
    "xce.cli.xce_agent": _BASE | _CLI_SHARED | {"xce.daemon", "xce.agent"},
    "xce.cli.xce_migrate": _USER_COMMAND | _CLI_SHARED | {"xce.config"},
}


def module_name(path, root):
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module):
    """The longest ALLOWED key that is MODULE or one of its packages."""
    if module == "xce":
        return module
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        if ".".join(parts[:end]) in ALLOWED:
            return ".".join(parts[:end])
    return None


def _names(module, entries):
    # "xce" names the package's own __init__ only, never all of xce.
    return any(module == e or (e != "xce" and module.startswith(e + "."))
               for e in entries)


def imports_of(path, name, modules, top_only=False):
    """(line, imported module) of every import in PATH, at any depth (or
    only those run when the module loads, with *top_only*).

    ``from pkg import name`` counts as importing ``pkg.name`` when that is
    a module of the tree, else as importing ``pkg``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(), str(path))
    for node in tree.body if top_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((node.lineno, sub if sub in modules else base))
    return found


def layering_violations(root):
    """'module:line imports target' for every arrow ALLOWED does not hold,
    for the xce package under ROOT (a directory holding xce/)."""
    paths = sorted((root / "xce").rglob("*.py"))
    modules = {module_name(p, root): p for p in paths}
    stdlib = sys.stdlib_module_names
    bad = []
    for name, path in modules.items():
        room = room_of(name)
        for line, target in imports_of(path, name, modules):
            top = target.split(".")[0]
            if top != "xce":
                if room in PURE and top not in stdlib and top != "__future__":
                    bad.append(f"{name}:{line} imports {target} (not stdlib)")
                continue
            if room is None:
                bad.append(f"{name}:{line} has no room in ALLOWED")
            elif room_of(target) != room and \
                    not _names(target, ALLOWED[room]):
                bad.append(f"{name}:{line} imports {target}")
    return bad


def import_cycle(root):
    """A cycle of modules under ROOT importing each other as they load
    (an import inside a function breaks none), or None."""
    modules = {module_name(p, root): p for p in (root / "xce").rglob("*.py")}
    graph = {name: {target for _, target in
                    imports_of(path, name, modules, top_only=True)
                    if target in modules and target != name}
             for name, path in modules.items()}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as cycle:
        return cycle.args[1]
    return None


# xce's own tools and click's helpers for them; every other module of
# xce.cli is an LSF command or the parser they share (xce.cli.lsfargs).
OWN_TOOLS = {"xce.cli.xce", "xce.cli.xce_migrate", "xce.cli.xce_controller",
             "xce.cli.xce_agent", "xce.cli.xce_sim", "xce.cli.common"}


def click_in_lsf_commands(root):
    """'module:line imports target' for each import of click (or of
    xce.cli.common, click's helpers) by an LSF command, at any depth."""
    paths = sorted((root / "xce" / "cli").rglob("*.py"))
    modules = {module_name(p, root): p for p in paths}
    bad = []
    for name, path in modules.items():
        if name in OWN_TOOLS:
            continue
        for line, target in imports_of(path, name, modules):
            if target.split(".")[0] == "click" or target in OWN_TOOLS:
                bad.append(f"{name}:{line} imports {target}")
    return bad


def test_no_lsf_command_imports_click():
    assert click_in_lsf_commands(XCE.parent) == []


def test_the_click_check_finds_a_planted_import(tmp_path):
    _plant(tmp_path, {
        "xce/cli/__init__.py": "",
        "xce/cli/common.py": "import click\n",
        "xce/cli/xce.py": "import click\n",
        "xce/cli/bnew.py": "def main():\n    import click.types\n",
        "xce/cli/bold.py": "from xce.cli.common import run\n",
    })
    assert click_in_lsf_commands(tmp_path) == [
        "xce.cli.bnew:2 imports click.types",
        "xce.cli.bold:1 imports xce.cli.common"]


def test_every_import_follows_the_layers():
    assert layering_violations(XCE.parent) == []


def test_no_modules_import_each_other():
    assert import_cycle(XCE.parent) is None


def test_every_module_has_a_room():
    names = [module_name(p, XCE.parent) for p in XCE.rglob("*.py")]
    assert [n for n in names if room_of(n) is None] == []


def _plant(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_check_finds_planted_wrong_imports(tmp_path):
    _plant(tmp_path, {
        "xce/__init__.py": "",
        "xce/errors.py": "",
        "xce/lang/__init__.py": "",
        "xce/lang/units.py": "import yaml\n",
        "xce/model/__init__.py": "from . import states\n",
        "xce/model/states.py": "",
        "xce/scheduler/__init__.py": "from xce.store import writer\n",
        "xce/store/__init__.py": "",
        "xce/store/writer.py": "from xce.model import states\n",
        "xce/store/reader.py": "",
        "xce/controller/__init__.py": "",
        "xce/client/__init__.py": "from xce.store import reader\n",
        "xce/client/jobs.py": ("from ..model import states\n"
                               "def query():\n"
                               "    from xce.controller import main\n"
                               "    from xce.cli import common\n"),
        "xce/cli/__init__.py": "",
        "xce/cli/common.py": "",
        "xce/client/site.py": "from xce.client import jobs\n",
        "xce/cli/bjobs.py": ("import xce.client.jobs\n"
                             "def main():\n"
                             "    from xce.agent.server import Server\n"),
        "xce/agent/__init__.py": "",
    })
    assert layering_violations(tmp_path) == [
        "xce.cli.bjobs:3 imports xce.agent.server",
        "xce.client.jobs:3 imports xce.controller",
        "xce.client.jobs:4 imports xce.cli.common",
        "xce.client.site:1 imports xce.client.jobs",
        "xce.lang.units:1 imports yaml (not stdlib)",
        "xce.scheduler:1 imports xce.store.writer",
    ]


def test_the_check_finds_a_planted_cycle(tmp_path):
    _plant(tmp_path, {
        "xce/__init__.py": "",
        "xce/client/__init__.py": "",
        "xce/client/control.py": "from xce.client import modify\n",
        "xce/client/modify.py": "from xce.client.control import send\n",
        "xce/client/peek.py": ("def f():\n"
                               "    from xce.client import messages\n"),
        "xce/client/messages.py": "from xce.client import peek\n",
    })
    assert set(import_cycle(tmp_path)) == {"xce.client.control",
                                           "xce.client.modify"}
