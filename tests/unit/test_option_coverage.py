"""Every option an LSF command's table implements is driven by a test
that runs that command end to end (tests/cli, cluster, faults, tools):
some test function there names the command and the option word.  The
table walk (test_option_tables.py) shows that an option parses; this
shows that a test uses it, so that an option is never taken on trust.
The few without such a test say why below."""

import ast
from pathlib import Path

from tests.unit.test_option_tables import TABLES

REPO = Path(__file__).resolve().parents[2]
END_TO_END = ("cli", "cluster", "faults", "tools")

# (command [subcommand], option): why no test of its own drives it.
WITHOUT_A_TEST = {
    ("badmin mbdrestart", "-v"): "xce always prints every message",
    ("lsadmin ckconfig", "-v"): "xce always prints every message",
    ("badmin mbdrestart", "-f"): "xce never asks (badmin(8))",
    ("badmin qact", "-C"): "the queue-control path of qclose -C "
                           "(test_lsb_logs.py::test_job_changes_are_recorded)",
    ("badmin qinact", "-C"): "the queue-control path of qclose -C",
    ("lsclusters", "-l"): "prints what -w prints (lsclusters(1))",
    ("lsinfo", "-M"): "prints what -m prints (lsinfo(1))",
}


def _words(node):
    """Every blank-separated word of the string constants under NODE."""
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            found.update(n.value.split())
    return found


def _test_functions():
    """(file::name, its words and those of its module's constants)."""
    out = []
    for where in END_TO_END:
        for path in sorted((REPO / "tests" / where).rglob("test_*.py")):
            tree = ast.parse(path.read_text())
            shared = set()
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef):
                    shared |= _words(node)
            for node in tree.body:
                if isinstance(node, ast.FunctionDef) and \
                        node.name.startswith("test_"):
                    words = shared | _words(node)
                    if ".submit(" in ast.unparse(node):
                        words.add("bsub")       # the cluster's bsub helper
                    out.append((f"{path.name}::{node.name}", words))
    return out


def _driven(functions, label, flag):
    needed = set(label.split()) | {flag}
    return any(needed <= words for _, words in functions)


def test_every_implemented_option_is_driven_by_an_end_to_end_test():
    functions = _test_functions()
    missing = [(label, flag) for label, _, _, parser in TABLES
               for opt in parser.opts for flag in opt.flags
               if (label, flag) not in WITHOUT_A_TEST
               and not _driven(functions, label, flag)]
    assert missing == [], "write an end-to-end test that runs the command " \
        "with the option (or say in WITHOUT_A_TEST why none is needed)"


def test_the_list_of_options_without_a_test_is_current():
    functions = _test_functions()
    taken = {(label, flag) for label, _, _, parser in TABLES
             for opt in parser.opts for flag in opt.flags}
    assert sorted(set(WITHOUT_A_TEST) - taken) == []
    tested = [key for key in WITHOUT_A_TEST if _driven(functions, *key)]
    assert tested == [], "tested now: take it out of WITHOUT_A_TEST"
