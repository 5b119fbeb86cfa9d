"""Lean launchers for the user commands, written over pip's wrappers.

pip installs each console script as ``#!<venv>/bin/python`` followed by an
import of the command's ``main``.  That interpreter first runs the site
module: it reads the venv's pyvenv.cfg, lists site-packages for ``.pth``
files and runs them (setuptools' distutils shim), and imports
sitecustomize -- about 4 million instructions, a tenth of what ``bsub``
executes in all.  A user command needs one thing from it: the directory
xce is installed in.  Its launcher starts the interpreter with ``-S``
(no site module) and puts that directory on ``sys.path`` itself, where
site would have put it.

``make install`` runs ``python -m xce.cli.launchers BINDIR`` after pip;
the module bundle it also writes (xce.cli.bundle) is added to the RECORD
of xce's installed distribution, so that ``pip uninstall xce`` removes it
with the rest.  A plain ``pip install`` keeps pip's wrappers, which behave
the same and start slower.  xce's own tools and daemons keep pip's wrappers: they start
seldom, and hooks such as a sitecustomize (the benchmarks' profiler) must
reach them.
"""

import csv
import io
import os
import subprocess
import sys
import sysconfig

from xce.cli import bundle

# Entry points that are not user commands.
KEEP = {"xce.cli.xce", "xce.cli.xce_controller", "xce.cli.xce_agent",
        "xce.cli.xce_migrate"}
# The longest #! line every Linux kernel reads whole.
SHEBANG_MAX = 127
# A launcher's second line: one found is written again, as it is now.
MARK = "# xce's launcher (xce.cli.launchers)"

# The modules the commands load at start come from one file compiled at
# install (xce.cli.bundle): a third of what their imports cost.  The
# launcher's own text is compiled on every run, so it is short: it turns
# the garbage collector off, takes xce.cli.bundle's code as compiled at
# install (its boot file; else it imports the module) and calls
# xce.cli.bundle.run, which runs the command (and says why the collector
# is off and how the command exits).
LAUNCHER = """\
#!{python} -S
{mark}: -S skips the site module, whose
# work this command does not need; xce's directory is added here.  The
# boot file, the garbage collector and the quick exit: see
# xce.cli.launchers and xce.cli.bundle.
import gc
import sys
gc.disable()
sys.path.append({libdir!r})
try:
    from _frozen_importlib_external import MAGIC_NUMBER
    from marshal import loads
    with open({boot!r}, "rb") as f:
        boot = f.read(len(MAGIC_NUMBER)) == MAGIC_NUMBER and loads(f.read())
except (OSError, EOFError, ValueError, TypeError):
    boot = None
if boot:
    bundle = type(sys)("xce.cli.bundle")
    exec(boot, vars(bundle))
else:
    from xce.cli import bundle
if __name__ == "__main__":
    bundle.run({module!r}, {libdir!r})
"""
_RUN = "    bundle.run("


def command_module(text):
    """(interpreter, module) of a pip console-script wrapper (or of an
    earlier launcher) for a user command of xce, else None."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#!/"):
        return None
    python = lines[0][2:].strip()
    ours = len(lines) > 1 and lines[1].startswith(MARK) and \
        python.endswith(" -S")
    if ours:
        python = python[:-3]
    if " " in python or len(python) + len("#! -S") > SHEBANG_MAX:
        return None     # pip's /bin/sh trampoline for long paths: keep it
    for line in lines[1:]:
        if ours and line.startswith(_RUN):
            module = line[len(_RUN):].split(",")[0].strip("'\"")
            return (python, module) if _user_command(module) else None
        words = line.split()
        if len(words) == 4 and words[0] == "from" and words[2:] == \
                ["import", "main"] and _user_command(words[1]):
            return python, words[1]
    return None


def _user_command(module):
    return module.startswith("xce.cli.") and module.count(".") == 2 \
        and module not in KEEP


def launcher(python, module, libdir):
    return LAUNCHER.format(python=python, module=module, libdir=libdir,
                           mark=MARK, boot=bundle.boot_path(libdir))


def rewrite(bindir, libdir):
    """Write a launcher over each user command's pip wrapper (or earlier
    launcher) in *bindir*; the names written."""
    done = []
    for name in sorted(os.listdir(bindir)):
        path = os.path.join(bindir, name)
        try:
            with open(path, encoding="utf-8") as f:
                found = command_module(f.read(4096))
        except (OSError, UnicodeDecodeError):
            continue        # a directory, a binary (python itself)
        if found is None:
            continue
        tmp = os.path.join(bindir, f".{name}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(launcher(*found, libdir))
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
        done.append(name)
    return done


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m xce.cli.launchers BINDIR", file=sys.stderr)
        return 2
    libdir = sysconfig.get_paths()["purelib"]
    if not os.path.isfile(os.path.join(libdir, "xce", "__init__.py")):
        print(f"xce is not installed in {libdir}: pip's wrappers are kept",
              file=sys.stderr)
        return 0
    done = rewrite(argv[0], libdir)
    modules = [command_module(_head(os.path.join(argv[0], name)))[1]
               for name in done]
    count = bundle.write(libdir, loaded_at_start(libdir, [*modules,
                                                          *LATER]),
                         extensions_at_start(libdir, modules),
                         import_orders(libdir, modules))
    record(libdir, bundle.path(libdir))
    record(libdir, bundle.boot_path(libdir))
    print(f"lean launchers for {len(done)} commands, {count} modules "
          "bundled", file=sys.stderr)
    return 0


def record(libdir, path):
    """List *path*, a file made in *libdir* after pip installed xce
    there, in the installed distribution's RECORD (the list of its files
    ``pip uninstall`` removes, with no hash, as installers list files
    they generate); False when *libdir* holds no distribution of xce."""
    entry = os.path.relpath(path, libdir).replace(os.sep, "/")
    for name in sorted(os.listdir(libdir)):
        if not (name.startswith("xce-") and name.endswith(".dist-info")):
            continue
        manifest = os.path.join(libdir, name, "RECORD")
        try:
            with open(manifest, newline="", encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        listed = {row[0] for row in csv.reader(io.StringIO(text)) if row}
        if "xce/__init__.py" not in listed:
            continue
        if entry not in listed:
            line = io.StringIO()
            csv.writer(line, lineterminator="\n").writerow([entry, "", ""])
            if text and not text.endswith("\n"):
                text += "\n"
            tmp = f"{manifest}.{os.getpid()}.tmp"
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                f.write(text + line.getvalue())
            os.replace(tmp, manifest)
        return True
    return False


def _head(path):
    with open(path, encoding="utf-8") as f:
        return f.read(4096)


# xce modules the commands load as they run rather than at start, served
# from the bundle all the same: the catalogue of messages, which a
# command reads when it has one to show (xce.errbase).
LATER = ("xce.errors",)

# Run in a fresh interpreter started as the launchers start it (-I: a
# checkout in the current directory does not come first).
_PROBE = """
import sys
sys.path.append(sys.argv[1])
before = set(sys.modules)
for name in sys.argv[2:]:
    __import__(name)
print(" ".join(n for n in sys.modules if n not in before
               and n.split(".")[0] == "xce"))
"""


def loaded_at_start(libdir, modules):
    """The xce modules that importing *modules* loads, installed in
    *libdir*: what a bundle for those commands holds."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", _PROBE, libdir,
                          *modules], capture_output=True, text=True,
                         check=True)
    return out.stdout.split()


# Each command's import, in a fresh interpreter started as the launchers
# start it: the xce modules it loads in the order their code completes,
# or "-" when one of them, as it ran, imported a module still loading
# (a cycle), or a module completed before its package: loading each
# module whole before the next (xce.cli.bundle.preload) would not be
# what the import system does then.
_ORDERS = """
import builtins, sys
from importlib.machinery import PathFinder
sys.path.append(sys.argv[1])
loading, order, crossed = [], [], []

class Loader:
    def __init__(self, real):
        self.real = real
    def create_module(self, spec):
        return self.real.create_module(spec)
    def exec_module(self, module):
        loading.append(module.__name__)
        try:
            self.real.exec_module(module)
        finally:
            loading.pop()
        order.append(module.__name__)

class Watch:
    @staticmethod
    def find_spec(name, path=None, target=None):
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None \
                and name.split(".")[0] == "xce":
            spec.loader = Loader(spec.loader)
        return spec

real_import = builtins.__import__
def watched(name, globals=None, locals=None, fromlist=(), level=0):
    full = name
    if level:
        package = (globals or {}).get("__package__") or ""
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        full = f"{base}.{name}" if name else base
    for target in (full, *(f"{full}.{n}" for n in fromlist or ())):
        if target in loading:
            crossed.append(target)
    return real_import(name, globals, locals, fromlist, level)

sys.meta_path.insert(0, Watch)
builtins.__import__ = watched
__import__(sys.argv[2], fromlist=["main"])
done = set()
for name in order:
    if name.rpartition(".")[0] not in done | {""}:
        crossed.append(name)
    done.add(name)
print("-" if crossed else " ".join(order))
"""


def import_orders(libdir, modules):
    """{command module: the xce modules its import loads, in the order
    they complete} for the commands *modules* installed in *libdir*,
    leaving out those whose order would not do (see _ORDERS)."""
    orders = {}
    for module in modules:
        out = subprocess.run([sys.executable, "-I", "-S", "-c", _ORDERS,
                              libdir, module], capture_output=True,
                             text=True, check=True)
        if out.stdout.strip() not in ("", "-"):
            orders[module] = out.stdout.split()
    return orders


# The C extension modules the commands load, found where the launchers'
# interpreter finds them: what importing *modules* loads, and those a
# command loads later as it runs (bjobs' store reader: _sqlite3).
AT_RUN = ("_sqlite3",)
_EXTENSIONS = """
import sys
from importlib.machinery import ExtensionFileLoader, PathFinder
sys.path.append(sys.argv[1])
before = set(sys.modules)
for name in sys.argv[3:]:
    __import__(name)
names = [n for n in sys.modules if n not in before] + sys.argv[2].split()
for name in dict.fromkeys(names):
    spec = PathFinder.find_spec(name)
    if spec is not None and isinstance(spec.loader, ExtensionFileLoader):
        print(name, spec.origin)
"""


def extensions_at_start(libdir, modules):
    """{name: file} of the extension modules the commands *modules* load,
    which the bundle serves without a search of sys.path."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", _EXTENSIONS,
                          libdir, " ".join(AT_RUN), *modules],
                         capture_output=True, text=True, check=True)
    return dict(line.split(" ", 1) for line in out.stdout.splitlines())


if __name__ == "__main__":
    sys.exit(main())
