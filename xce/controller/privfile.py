"""Files the controller keeps for one user in a folder of its own.

Interactive keys and bpost attachments are written the same way: to a
fresh name beside the final one (O_EXCL and O_NOFOLLOW, so nothing placed
there beforehand is followed or reused), mode 0600, flushed to disk, then
renamed over the final name, so a reader sees the old file or the whole new
one.
"""

import os
import pwd


def replace(path, data, owner=None):
    """Write DATA (bytes) to PATH atomically, mode 0600; when running as
    root and OWNER names a local account, the file is that account's."""
    tmp = path.with_name(path.name + ".new")
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                 0o600)
    with os.fdopen(fd, "wb") as f:
        ids = _ids_of(owner) if owner and os.geteuid() == 0 else None
        if ids:
            os.fchown(fd, *ids)
        f.write(data)
        f.flush()
        os.fsync(fd)
    os.replace(tmp, path)


def _ids_of(user):
    try:
        pw = pwd.getpwnam(user)
    except KeyError:        # no such account here: the file stays ours
        return None
    return pw.pw_uid, pw.pw_gid
