"""bsub -f: each argument read as LSF reads it, and the local files of
its > copies read with the user's own rights (xce.model.stagefiles says
how the files travel)."""

import base64
import os
import stat

from xce.errors import text
from xce.model.stagefiles import (FILES_MAX, OPS, STAGE_MAX, has_pattern,
                                  local_path, sends)


class BadStageFile(ValueError):
    """LSF's message for a -f argument it cannot read."""


def parse(arg):
    """(local, op, remote) of one -f argument, as LSF reads it: the
    first operator found in the order of OPS, with white space on both
    sides; no other '<' or '>' in either name."""
    op = next((o for o in OPS if o in arg), None)
    if op is None or ">>" in arg and op not in ("<<",):
        raise BadStageFile(_bad_op(">>" if ">>" in arg else "", arg))
    local, _, remote = arg.partition(op)
    if ">" in local or "<" in local or ">" in remote or "<" in remote:
        raise BadStageFile(_bad_op(op, arg))
    if local and not local[-1].isspace() or remote and \
            not remote[0].isspace():
        raise BadStageFile(_bad_op(op, arg))
    local, remote = local.strip(), remote.strip()
    if not local:
        raise BadStageFile(text("STAGE_BAD_LOCAL", arg=arg))
    return local, op, remote or local


def _bad_op(op, arg):
    return text("STAGE_BAD_OP", op=op, arg=arg)



def entries(args, subcwd, outdir=None):
    """The spec's "xfiles": [local, op, remote, data] for each -f, data
    (base64) for a > copy, else None."""
    if len(args) > FILES_MAX:
        raise BadStageFile(text("STAGE_TOO_MANY", max=FILES_MAX))
    out, total = [], 0
    for arg in args:
        local, op, remote = parse(arg)
        data = None
        if sends(op):
            if has_pattern(local):
                raise BadStageFile(text("STAGE_PATTERN", path=local))
            raw = _read(local_path(local, subcwd), STAGE_MAX - total + 1)
            total += len(raw)
            if total > STAGE_MAX:
                raise BadStageFile(text("STAGE_TOO_BIG", size=f"{total}+",
                                        limit=STAGE_MAX))
            data = base64.b64encode(raw).decode()
        # Kept as typed: a copy back's local name may hold %J, and a
        # relative one lands in -outdir's directory (the controller
        # works it out at the end, xce.model.stagefiles.local_path).
        out.append([local, op, remote, data])
    return out


def _read(path, limit):
    """At most *limit* bytes of a regular file (never a FIFO's wait)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise BadStageFile(text("STAGE_UNREADABLE", path=path,
                                reason=e.strerror))
    try:
        if not _regular(fd):
            raise BadStageFile(text("STAGE_UNREADABLE", path=path,
                                    reason="not a regular file"))
        chunks, size = [], 0
        while size < limit:
            chunk = os.read(fd, min(1 << 20, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise BadStageFile(text("STAGE_UNREADABLE", path=path,
                                reason=e.strerror))
    finally:
        os.close(fd)


def _regular(fd):
    return stat.S_ISREG(os.fstat(fd).st_mode)
