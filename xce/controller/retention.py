"""Finished jobs leave the store CLEAN_PERIOD after they ended.

LSF's mbatchd keeps a finished job CLEAN_PERIOD seconds (lsb.params,
default 3600), a DONE one CLEAN_PERIOD_DONE seconds when that is set
(xce.model.cleanperiod); after that bjobs no longer knows it, bkill says "No
matching job found", and a dependency on it is never satisfied; the job
is known from the history alone.  xce's index of finished jobs
(jobindex) already forgets it then; this step moves its row and its
events out of xce.db into history.db (xce-store(5)), where bhist, bacct
and xce sim still find it, so that xce.db holds the unfinished jobs and
those of the last CLEAN_PERIOD only.

Bounded work per turn: at most BATCH jobs, the oldest first; a backlog
(a first start over a store of years of jobs, a CLEAN_PERIOD shortened)
goes over the next turns.  Nothing is moved while lsb.events lags
behind the store: its records are written from the rows and events
(xce.store.lsbfiles), which must still be there.

The events of no job (job id 0: controller starts, reconfigurations,
queue and host controls, claims, gangs) go the same way CLEAN_PERIOD
after they happened, at most EVENT_BATCH a turn: their only readers are
the lsb.events writer (which has written them by then) and xce sim
--verify, which reads history.db too.
"""

import logging
import os

from xce.spool.layout import attachment_name
from xce.store import lsbfiles

log = logging.getLogger("xce.controller")

BATCH = 250             # jobs moved per turn at most
EVENT_BATCH = 500       # events of no job moved per turn at most
CHECK_EVERY = 60.0      # seconds between looks (at most CLEAN_PERIOD)
LAG_RETRY = 1.0         # seconds to wait for lsb.events to catch up


class State:
    def __init__(self):
        self.due = 0.0          # when to forget and look again
        self.backlog = False    # jobs left to move: go on next turn
        self.moved = 0          # jobs moved since the start
        self.events_moved = 0   # events of no job moved since the start
        self.unlink = []        # their bpost -a files, gone after commit


def turn(ctl):
    """Forget the jobs that finished more than CLEAN_PERIOD ago (their
    private data goes), and move the rows of those the index has
    forgotten, and the old events of no job, to history.db, in the open
    batch.  Returns the number of jobs moved."""
    st = ctl.retention
    done_before, before = ctl.clean_cutoffs()
    if ctl.now >= st.due:
        st.due = ctl.now + min(CHECK_EVERY, *ctl.clean_periods())
        ctl.store.forget_job_data(ctl.index.expire(before, done_before))
    elif not st.backlog:
        return 0
    written = lsbfiles.written(ctl.store)
    if written is None or written < ctl.store.last_event():
        # lsb.events first: its records are made from these rows.
        st.due = min(st.due, ctl.now + LAG_RETRY)
        return 0
    found = ctl.store.expired_jobs(before, BATCH, done_before)
    keys = [k for k in found if (k[0], k[1]) not in ctl.index.finished
            and (k[0], k[1]) not in ctl.jobs]
    st.unlink += [attachment_name(*m) for m in
                  ctl.store.attachments_of(keys)]
    ctl.store.retire_jobs(keys)
    events = ctl.store.retire_cluster_events(before, EVENT_BATCH)
    st.moved += len(keys)
    st.events_moved += events
    st.backlog = len(found) == BATCH and bool(keys) or events == EVENT_BATCH
    if keys or events:
        log.debug("moved %d finished jobs and %d events of no job to "
                  "history.db", len(keys), events)
    return len(keys)


def after_commit(ctl):
    """Remove the attached files of the messages of the jobs just moved
    (their job_messages rows went with the commit).  A crash before it
    leaves them behind, readable by their owner only."""
    st = ctl.retention
    folder = ctl.cfg.spool / "attachments"
    for name in st.unlink:
        try:
            os.unlink(folder / name)
        except FileNotFoundError:
            pass
        except OSError as e:
            log.warning("cannot remove attachment %s: %s", name, e)
    st.unlink.clear()
