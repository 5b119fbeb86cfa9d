"""bwait: block until a dependency expression (bsub -w grammar) holds.

It polls the read-only store, so it costs the controller nothing.  Job
names in the expression refer to the caller's own jobs, as in bsub -w.
"""

import time

from xce.errors import XceError, about
from xce.lang import depend
from xce.model import numbers

POLL = 0.5
NEVER_TEXT = "Wait condition is never satisfied"
TIMEOUT_TEXT = "Wait condition is not satisfied within the timeout"


def parse(expr):
    try:
        return depend.parse(expr)
    except depend.DependError as e:
        raise XceError(e.message)       # it names the part it refuses


def parse_timeout(text):
    """Minutes, a positive integer, as LSF's -t takes them."""
    if text is None:
        return None
    if numbers.whole(text, low=1, high=numbers.INT_MAX // 60) is None:
        raise XceError(about(text, "BAD_TIME"))
    return int(text) * 60


def _lookup(reader, me):
    def lookup(ref):
        if ref.job_id is not None:
            if isinstance(ref.index, int):
                rows = reader.jobs("jobid=? AND idx=?", (ref.job_id, ref.index),
                                   ("stat", "exit_code"))
            else:
                rows = reader.jobs("jobid=?", (ref.job_id,),
                                   ("stat", "exit_code"))
        else:
            rows = [r for r in reader.jobs("user=?", (me,),
                                           ("name", "stat", "exit_code"))
                    if ref.matches_name(r["name"] or "")]
        return [depend.JobFacts(state=r["stat"], exit_code=r["exit_code"])
                for r in rows]
    return lookup


def wait(reader_factory, me, expr, timeout=None, clock=time.monotonic,
         sleep=time.sleep):
    """0 once the condition holds; XceError when it never can or time runs out."""
    tree = parse(expr)
    with reader_factory() as reader:
        try:
            depend.check_references(tree, _lookup(reader, me))
        except depend.DependError as e:
            raise XceError(e.message)
    deadline = None if timeout is None else clock() + timeout
    while True:
        with reader_factory() as reader:
            result = depend.evaluate(tree, _lookup(reader, me))
        if result is depend.NEVER:
            raise XceError(NEVER_TEXT)
        if result is True:
            return 0
        if deadline is not None and clock() >= deadline:
            raise XceError(TIMEOUT_TEXT)
        sleep(POLL)
