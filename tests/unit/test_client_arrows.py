"""The arrows around xce.client, read from the sources: user commands reach
the store and the spool only through xce.client; xce.client imports no
command and no daemon; its shared modules import none of its subject
packages; and no two client modules import each other, directly or not."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "xce" / "client"
# Entry points of the daemons and of migration: they may import their own.
DAEMON_COMMANDS = {"xce", "xce_agent", "xce_controller", "xce_migrate"}
SHARED = {"xce.client.site", "xce.client.ids", "xce.client.requests",
          "xce.client.text"}


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path):
    """Every module *path* imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def under(name, *packages):
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_user_commands_reach_store_and_spool_only_through_the_client():
    wrong = {}
    for path in (ROOT / "xce" / "cli").glob("*.py"):
        if path.stem in DAEMON_COMMANDS:
            continue
        bad = {m for m in imports(path)
               if under(m, "xce.store", "xce.spool", "xce.controller",
                        "xce.agent", "xce.scheduler")}
        if bad:
            wrong[path.stem] = sorted(bad)
    assert wrong == {}


def test_the_client_imports_no_command_and_no_daemon():
    wrong = {}
    for path in CLIENT.rglob("*.py"):
        bad = {m for m in imports(path)
               if under(m, "xce.cli", "xce.controller", "xce.agent",
                        "xce.store.writer")}
        if bad:
            wrong[module_name(path)] = sorted(bad)
    assert wrong == {}


def test_the_shared_client_modules_import_no_subject_package():
    wrong = {}
    for path in CLIENT.rglob("*.py"):
        name = module_name(path)
        if not under(name, *SHARED):
            continue
        bad = {m for m in imports(path)
               if under(m, "xce.client") and not under(m, *SHARED)
               and m != "xce.client"}
        if bad:
            wrong[name] = sorted(bad)
    assert wrong == {}


def test_no_client_modules_import_each_other_in_a_cycle():
    modules = {module_name(p): p for p in CLIENT.rglob("*.py")}
    edges = {name: {m for m in imports(path) if m in modules and m != name}
             for name, path in modules.items()}
    for start in modules:
        seen, todo = set(), list(edges[start])
        while todo:
            m = todo.pop()
            assert m != start, \
                f"{start} is in an import cycle (modules on the way: {sorted(seen)})"
            if m not in seen:
                seen.add(m)
                todo += edges[m]
