"""UNIX socket paths of any length: bind, connect and sendto.

A UNIX socket's address holds at most 107 bytes of path (Linux's
sun_path, less its NUL): binding or connecting a longer path fails with
"AF_UNIX path too long", and a spool in a deep directory, or a long host
name, makes its sockets' paths longer.  A longer path is reached through
its directory instead: the directory is opened (O_PATH, so that search
permission on the way is all it needs; O_NOFOLLOW, so that a link put in
its place is refused, as the spool's checks refuse one) and the socket is
named ``/proc/self/fd/<fd>/<name>``, which the kernel resolves through the
descriptor to the same directory.  No chdir: the daemons have threads.

A path that fits is used as it is (and an abstract name, NUL first,
always).  Every binder and connector of xce goes through here.  Only
``posix``: the commands' start stays lean (tests/unit/test_imports.py).
"""

import posix

from xce.errbase import XceError

# Bytes of path a sockaddr_un holds, its terminating NUL left out.
SUN_PATH_MAX = 107
_PROC_FD = b"/proc/self/fd/"
# O_PATH is Linux's; elsewhere a readable directory can be opened.
_DIR_FLAGS = getattr(posix, "O_PATH", posix.O_RDONLY) | posix.O_DIRECTORY \
    | posix.O_CLOEXEC
_ERRORS = "surrogateescape"     # os.fsencode's


class SocketPathError(XceError):
    """A socket's path is too long and cannot be reached another way."""


def bind(sock, path, nofollow=True):
    """``sock.bind(path)``; the socket file's mode is the umask's, as
    with a short path."""
    return _through(sock.bind, path, nofollow)


def connect(sock, path, nofollow=True):
    """``sock.connect(path)``.  A non-blocking socket's connect to a UNIX
    socket completes or fails at once, so the directory's descriptor can
    be closed when it returns."""
    return _through(sock.connect, path, nofollow)


def sendto(sock, data, path, nofollow=True):
    """``sock.sendto(data, path)`` (a datagram)."""
    return _through(lambda name: sock.sendto(data, name), path, nofollow)


def check(path, nofollow=True):
    """Raise SocketPathError when a socket at *path* cannot be reached
    (checked before a request is spooled, or an agent launched); else
    nothing.  The socket itself need not exist yet."""
    _through(lambda name: None, path, nofollow)


def fits(path):
    """*path* is short enough to be a socket's address as it is."""
    name = _encode(path)
    return name[:1] == b"\0" or len(name) <= SUN_PATH_MAX


def _encode(path):
    path = posix.fspath(path)
    return path.encode("utf-8", _ERRORS) if isinstance(path, str) else path


def _through(op, path, nofollow):
    name = _encode(path)
    if name[:1] == b"\0" or len(name) <= SUN_PATH_MAX:
        return op(name)
    head, slash, tail = name.rpartition(b"/")
    # The descriptor's number takes at most 10 digits.
    if not slash or len(_PROC_FD) + 11 + len(tail) > SUN_PATH_MAX:
        raise _error(path, name, "SOCKET_PATH_NAME")
    flags = _DIR_FLAGS | (posix.O_NOFOLLOW if nofollow else 0)
    try:
        fd = posix.open(head or b"/", flags)
    except OSError as e:
        import errno    # off the commands' way: only for a long path
        if e.errno in (errno.ELOOP, errno.ENOTDIR) and nofollow:
            raise _error(path, name, "SOCKET_PATH_LINK")
        raise       # no directory: as a socket that is not there
    try:
        proc = b"%s%d" % (_PROC_FD, fd)
        try:
            posix.stat(proc)
        except OSError:
            raise _error(path, name, "SOCKET_PATH_NO_PROC")
        return op(b"%s/%s" % (proc, tail))
    finally:
        posix.close(fd)


def _error(path, name, why):
    from xce.errbase import text
    return SocketPathError(text("SOCKET_PATH", path=posix.fspath(path),
                                length=len(name), limit=SUN_PATH_MAX,
                                reason=text(why)))
