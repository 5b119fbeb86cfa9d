"""A full spool file system: the controller stays up and catches up.

The state store lives in the spool, so a full file system makes commits
fail.  Below ``XCE_SPOOL_MIN_FREE`` (and while a commit fails) new work is
refused with one clear line and nothing recorded; a commit that fails keeps
its batch, which the next commit writes, and holds back what must follow it
(replies, messages to agents) until then.  Running jobs go on; their ends
are written as soon as there is room; work resumes by itself.
"""

import logging
import os

from xce.config.spoolparams import limit_values
from xce.spool.bounds import MB, SpoolLimits
from xce.store.writer import StoreFull

log = logging.getLogger("xce.controller")

# Requests that add to the spool and the store: refused when it is full.
NEW_WORK = frozenset({"submit", "submit_many", "post"})


def limits(cfg):
    return SpoolLimits(**limit_values(cfg.params))


class Space:
    def __init__(self, spool):
        self.spool = spool
        self.free = None
        self.min_free = 0
        self.low = False
        self.commit_error = None    # the last failed commit, until one works

    def measure(self, spool_limits):
        """Free space of the spool's file system, once per turn."""
        try:
            st = os.statvfs(self.spool)
        except OSError:
            return
        self.free = st.f_bavail * st.f_frsize
        self.min_free = spool_limits.min_free
        low = self.free < self.min_free
        if low and not self.low:
            log.warning("%s; running jobs go on", self.message())
        elif self.low and not low:
            log.info("the spool has %d MB free again: new jobs are "
                     "accepted", self.free // MB)
        self.low = low

    def refuses(self, kind):
        return (self.low or self.commit_error is not None) and \
            kind in NEW_WORK

    def message(self):
        free = "" if self.free is None else \
            f"{self.free / MB:.1f} MB free, "
        why = (f"the state store cannot be written ({self.commit_error})"
               if self.commit_error else
               f"{free}below XCE_SPOOL_MIN_FREE ({self.min_free // MB} MB)")
        return (f"No space left in the spool: {self.spool}: {why}; new jobs "
                "are refused until space is freed")

    def answer(self, spool_server, req):
        """Refuse *req*: its file goes first, which makes room for the
        reply on a file system with none."""
        spool_server.remove(req)
        try:
            spool_server.reply(req, {"ok": False, "error": self.message()})
        except OSError as e:
            log.error("cannot reply to %s: %s", req.id, e)

    def commit_failed(self, error):
        if self.commit_error is None:
            log.error("cannot write the state store: %s; the changes are "
                      "kept and written when there is room, running jobs "
                      "go on", error)
        self.commit_error = str(error)

    def committed(self):
        if self.commit_error is not None:
            log.info("the state store is written again")
        self.commit_error = None


def commit(ctl, stopping=False):
    """Commit the controller's batch; False when the spool is full (the
    batch is kept for the next commit)."""
    try:
        ctl.store.commit()
    except StoreFull as e:
        ctl.space.commit_failed(e)
        if stopping:
            log.warning("stopping with changes not written: the requests "
                        "and agent reports that made them are taken again "
                        "at the next start")
        return False
    ctl.space.committed()
    return True
