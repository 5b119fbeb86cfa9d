"""The user commands' module bundle: their modules' code in one file.

Each module a command imports from a directory costs the import system
about 280,000 instructions before the module's own code runs (the path
finder's searches and stat calls, the .pyc read and checked): xce's
two dozen modules on bsub's way cost more than the rest of their
loading.  ``make install`` (``python -m xce.cli.launchers``) compiles
the modules the user commands load at start into one file,
``xce/__pycache__/commands.<cache tag>.bundle``; a launcher reads it
once and puts a finder before the others that serves those modules from
it.  A module whose source is no longer the one compiled (its mtime or
size changed) or a bundle of another interpreter is left to the usual
finders, as Python does with a stale .pyc.

Modules served from here are imported as usual otherwise: ``__file__``
and ``__spec__`` are as before; ``__cached__``, the file their compiled
code came from, is the bundle (which spares the import system working
out a .pyc's name for each, about 16,000 instructions a module).  The
modules a launcher runs before its command's import (``preload``) do
not pass through the import system: ``python -X importtime`` does not
list them (``-X importtime -c 'import xce.cli.bsub'`` does).

The launchers start here (``run``).  Their own text is compiled on each
run, as a script is, and finding this module with the usual finders
searches every directory on ``sys.path`` (about 3 million instructions
of bsub's 35 together): so a launcher is a few lines, and it takes this
module's code, compiled at install, from ``commands.<cache tag>.boot``
next to the bundle (``boot_path``), falling back to importing it.

Stdlib only, and no import a command does not already make: ``posix``,
not ``os`` (see xce.oslite, which this module does not import: the
bundle finder is not in place yet when it loads).
"""

import marshal
import posix
import sys
from _frozen_importlib import ModuleSpec
from _frozen_importlib_external import MAGIC_NUMBER, ExtensionFileLoader


def path(libdir):
    return f"{libdir.rstrip('/')}/xce/__pycache__/" \
        f"commands.{sys.implementation.cache_tag}.bundle"


def boot_path(libdir):
    """This module's code, compiled at install: MAGIC_NUMBER, then the
    marshalled code."""
    return path(libdir)[:-len(".bundle")] + ".boot"


# The file: MAGIC_NUMBER, the index's length (4 bytes, little-endian),
# the index {name: (is_package, source, mtime_ns, size, offset, length)}
# (marshalled), then each module's marshalled code, *offset* counting
# from the end of the index.  The C extension modules the commands load
# are in the index too, with None as is_package and no code: their
# file, where the launchers' interpreter found it at install, is loaded
# as the path finder would load it, without its search of each
# directory on sys.path for it (about a million instructions for the
# first module found that way).  A
# command reads the index and then only the code of what it imports.
# The index holds the commands' orders too, under the key ORDERS (no
# module's name): {command module: its modules' names, space-separated},
# see preload (one string a command: a command reads its own only, and
# a string costs the index's reading much less than a tuple of names).
_LENGTH = 4
ORDERS = ""


class Bundle:
    """A meta path finder and loader over a bundle's index, reading each
    module's code from the open bundle *fd*."""

    def __init__(self, fd, index, base, cached=None):
        self.fd, self.index, self.base = fd, index, base
        self.cached = cached
        self.orders = index.pop(ORDERS, None) or {}

    def find_spec(self, name, path=None, target=None):
        entry = self.index.get(name)
        if entry is None:
            return None
        is_package, source, mtime_ns, size = entry[:4]
        try:
            st = posix.stat(source)
        except OSError:
            return None
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            return None         # changed since the bundle was made
        if is_package is None:
            spec = ModuleSpec(name, ExtensionFileLoader(name, source),
                              origin=source)
            spec.has_location = True
            return spec
        spec = ModuleSpec(name, self, origin=source, is_package=is_package)
        if is_package:
            spec.submodule_search_locations = [source.rpartition("/")[0]]
        spec.has_location = True
        spec.cached = self.cached
        return spec

    def create_module(self, spec):
        return None             # the usual module object

    def exec_module(self, module):
        offset, length = self.index[module.__spec__.name][4:]
        data = posix.pread(self.fd, length, self.base + offset)
        if len(data) != length:
            raise ImportError("the command bundle is truncated",
                              name=module.__name__)
        exec(marshal.loads(data), module.__dict__)


def install(libdir):
    """Serve the bundle's modules from now on; None when there is no
    usable bundle (the usual finders then do it all)."""
    name = path(libdir)
    try:
        fd = posix.open(name, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return None
    try:
        head = posix.read(fd, len(MAGIC_NUMBER) + _LENGTH)
        if head[:len(MAGIC_NUMBER)] != MAGIC_NUMBER or len(head) < 8:
            raise ValueError("not this interpreter's bundle")
        length = int.from_bytes(head[len(MAGIC_NUMBER):], "little")
        index = marshal.loads(posix.read(fd, length))
        if type(index) is not dict:
            raise ValueError("no index")
    except (OSError, EOFError, ValueError, TypeError):
        posix.close(fd)
        return None
    finder = Bundle(fd, index, len(head) + length, name)
    sys.meta_path.insert(0, finder)
    return finder


def preload(finder, module):
    """Run the code of the xce modules that importing *module* loads, in
    the order their imports complete (recorded at install, see
    xce.cli.launchers.import_orders), as the import system would, but
    without it: each import of one of them then finds it done, and a
    module costs about 30,000 instructions instead of 110,000 (the
    import system's locks, spec and attribute work, in Python).  The
    order is recorded only for a command whose modules, as they load,
    never import one still loading (a cycle): for those, loading each
    whole before the next is what the import system does too.  A module
    gone or changed since the bundle was made stops it: the usual
    finders load it and what follows."""
    for name in finder.orders.get(module, "").split():
        if name in sys.modules:
            continue
        spec = finder.find_spec(name)
        if spec is None:
            return
        loaded = type(sys)(name)
        parent, _, child = name.rpartition(".")
        # What the import system sets (importlib._bootstrap's
        # _init_module_attrs), then its bookkeeping around the code.
        loaded.__spec__, loaded.__loader__ = spec, finder
        loaded.__file__, loaded.__cached__ = spec.origin, spec.cached
        if spec.submodule_search_locations is None:
            loaded.__package__ = parent
        else:
            loaded.__package__ = name
            loaded.__path__ = spec.submodule_search_locations
        sys.modules[name] = loaded
        try:
            finder.exec_module(loaded)
        except BaseException:
            del sys.modules[name]
            raise
        if parent:
            setattr(sys.modules[parent], child, sys.modules[name])


def run(module, libdir):
    """A launcher's work: serve the bundle, import the command's
    ``main`` from *module*, run it and exit with its status.

    The cyclic garbage collector is off while the command's modules load
    (the launcher turned it off): they make many objects and no garbage.
    gc.freeze() then sets them aside, so that no later pass walks them --
    the last one, when the interpreter shuts down, above all.  When main()
    ends with a plain status, the exit does what Python's shutdown would
    do that matters to a command (wait for no thread, run atexit
    functions, flush stdout and stderr) and ends the process with
    os._exit, skipping the teardown of every module and object.  Anything
    else (a message as the status, a flush that fails, a thread still
    running) takes Python's own way out."""
    import gc
    finder = install(libdir)
    if finder is not None:
        preload(finder, module)
    main = __import__(module, fromlist=["main"]).main
    gc.freeze()
    gc.enable()
    try:
        code = main()
    except SystemExit as e:
        code = e.code
    _exit(code)


def _exit(code):
    threads = sys.modules.get("threading")
    if (code is None or type(code) is int and -2**31 <= code < 2**31) \
            and (threads is None or threads.active_count() == 1):
        import atexit
        atexit._run_exitfuncs()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            sys.exit(code)
        posix._exit(code or 0)
    sys.exit(code)


def write(libdir, names, extensions=None, orders=None):
    """Compile the modules *names* (installed in *libdir*) into the
    bundle, with the files of the extension modules *extensions*
    ({name: file}) and the commands' *orders* ({command module: its
    modules in the order preload runs them}), and this module into the
    launchers' boot file; the number of modules bundled."""
    import os       # at install: a command does not load it
    index, blobs = {}, []
    for name in names:
        base = os.path.join(libdir, *name.split("."))
        is_package = os.path.isfile(os.path.join(base, "__init__.py"))
        source = os.path.join(base, "__init__.py") if is_package \
            else base + ".py"
        with open(source, "rb") as f:
            text = f.read()
        st = os.stat(source)
        blobs.append(marshal.dumps(compile(text, source, "exec",
                                           dont_inherit=True)))
        index[name] = [is_package, source, st.st_mtime_ns, st.st_size,
                       0, len(blobs[-1])]
    for name, source in (extensions or {}).items():
        st = os.stat(source)
        index[name] = [None, source, st.st_mtime_ns, st.st_size, 0, 0]
    offset = 0
    for entry in index.values():
        entry[4] = offset
        offset += entry[5]
    head = {name: tuple(entry) for name, entry in index.items()}
    head[ORDERS] = {command: " ".join(order) for command, order in
                    (orders or {}).items() if set(order) <= set(names)}
    head = marshal.dumps(head)
    target = path(libdir)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(MAGIC_NUMBER + len(head).to_bytes(_LENGTH, "little") + head)
        for blob in blobs:
            f.write(blob)
    os.replace(tmp, target)
    _write_boot(boot_path(libdir), os.path.join(libdir, "xce", "cli",
                                                "bundle.py"))
    return len(blobs)


def _write_boot(target, source):
    import os
    try:
        with open(source, "rb") as f:
            code = compile(f.read(), source, "exec", dont_inherit=True)
    except FileNotFoundError:       # no bundle module there: launchers
        if os.path.exists(target):  # import it (and fail as they would)
            os.unlink(target)
        return
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(MAGIC_NUMBER + marshal.dumps(code))
    os.replace(tmp, target)
