"""The part of ``os`` that bsub's and bjobs' start needs, on ``posix`` alone.

``import os`` costs a command about 4 million instructions (an eighth of
bsub): ``os.environ`` is a MutableMapping, which loads
``_collections_abc`` and its two dozen abstract classes, and ``os``
brings ``posixpath``, ``genericpath`` and ``stat``.  The built-in
``posix`` module, already loaded by the interpreter's import system,
holds the system calls themselves; this module adds the few path and
environment helpers the commands' way uses, with ``os``'s meaning.
Everything else keeps using ``os`` (tests/unit/test_oslite.py holds the
two together; tests/unit/test_imports.py keeps ``os`` off the way).

The environment is read from ``posix.environ``, the bytes mapping that
``os.environ`` itself keeps up to date (its data), so a change made
through ``os.environ`` in the same process is seen here.
"""

import posix
from posix import (O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY,
                   O_WRONLY, close, fspath, fstat, fsync, getcwd, getpid,
                   getuid, listdir, lstat, open, read, readlink, replace,
                   stat, uname, unlink, urandom, write)

# The file types and the sticky bit of st_mode (POSIX's values, which
# the stat module has too: importing _stat costs more than these).
S_IFMT = 0o170000
S_IFDIR = 0o040000
S_IFREG = 0o100000
S_IFLNK = 0o120000
S_ISVTX = 0o001000

__all__ = [
    # posix's, as os has them
    "O_CREAT", "O_EXCL", "O_NOFOLLOW", "O_NONBLOCK", "O_RDONLY", "O_WRONLY",
    "close", "fspath", "fstat", "fsync", "getcwd", "getpid", "getuid",
    "listdir", "lstat", "open", "read", "readlink", "replace", "stat",
    "uname", "unlink", "urandom", "write",
    # os's, stat's and os.path's, written here
    "S_ISVTX", "S_ISDIR", "S_ISLNK", "S_ISREG", "fsencode", "fsdecode",
    "getenv", "environ", "join", "dirname",
    "exists", "isfile", "normpath", "abspath", "samefile", "realpath"]

_ERRORS = "surrogateescape"     # what os.fsencode and os.fsdecode use
# Symbolic links one realpath() follows before it gives up (the kernel's
# limit, ELOOP).
_MAX_LINKS = 40


def S_ISDIR(mode):
    return mode & S_IFMT == S_IFDIR


def S_ISREG(mode):
    return mode & S_IFMT == S_IFREG


def S_ISLNK(mode):
    return mode & S_IFMT == S_IFLNK


def fsencode(name):
    return name.encode("utf-8", _ERRORS) if isinstance(name, str) else name


def fsdecode(name):
    return name.decode("utf-8", _ERRORS) if isinstance(name, bytes) \
        else name


def getenv(key, default=None):
    """``os.environ.get(key, default)``."""
    value = posix.environ.get(fsencode(key))
    return default if value is None else fsdecode(value)


def environ():
    """A copy of the environment as ``dict(os.environ)``."""
    return {fsdecode(k): fsdecode(v) for k, v in posix.environ.items()}


def join(path, *names):
    """``os.path.join`` (the names strings)."""
    path = fspath(path)
    for name in names:
        if name.startswith("/") or not path:
            path = name
        elif path.endswith("/"):
            path += name
        else:
            path += "/" + name
    return path


def dirname(path):
    """``os.path.dirname``."""
    path = fspath(path)
    head = path[:path.rfind("/") + 1]
    stripped = head.rstrip("/")
    return stripped if stripped else head


def exists(path):
    """``os.path.exists``."""
    try:
        stat(path)
    except (OSError, ValueError):
        return False
    return True


def isfile(path):
    """``os.path.isfile``."""
    try:
        return S_ISREG(stat(path).st_mode)
    except (OSError, ValueError):
        return False


def normpath(path):
    """``os.path.normpath`` of a string: no ``.``, ``..`` or doubled
    slashes, ``..`` taken lexically (a link is not looked at)."""
    path = fspath(path)
    if not path:
        return "."
    lead = "//" if path.startswith("//") and not path.startswith("///") \
        else "/" if path.startswith("/") else ""
    parts = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not lead and (not parts or parts[-1] == "..")):
            parts.append(part)
        elif parts:
            parts.pop()
    return lead + "/".join(parts) or "."


def abspath(path):
    """``os.path.abspath`` of a string."""
    path = fspath(path)
    return normpath(path if path.startswith("/") else join(getcwd(), path))


def samefile(a, b):
    """``os.path.samefile``: OSError when either is missing."""
    sa, sb = stat(a), stat(b)
    return sa.st_ino == sb.st_ino and sa.st_dev == sb.st_dev


def realpath(path):
    """``os.path.realpath`` of a string: absolute, every symbolic link
    followed; what does not exist is kept as written (OSError only from a
    loop of links, as ``realpath(strict=False)`` keeps it too)."""
    path = fspath(path)
    if not path.startswith("/"):
        path = getcwd() + "/" + path
    todo = path.split("/")
    done = ""
    links = 0
    while todo:
        name = todo.pop(0)
        if name in ("", "."):
            continue
        if name == "..":
            done = done[:done.rfind("/")]
            continue
        here = done + "/" + name
        try:
            is_link = S_ISLNK(lstat(here).st_mode)
        except OSError:
            is_link = False
        if not is_link:
            done = here
            continue
        links += 1
        if links > _MAX_LINKS:
            # What os.path.realpath returns for a loop: the rest as is.
            return join(here, *todo)
        target = readlink(here)
        if target.startswith("/"):
            done = ""
        todo[:0] = target.split("/")
    return done or "/"
