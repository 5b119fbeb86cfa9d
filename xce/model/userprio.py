"""User-assigned job priority as LSF 10.1 keeps it: bsub/bmod -sp under
lsb.params MAX_USER_PRIORITY, escalated by JOB_PRIORITY_OVER_TIME.

- Without MAX_USER_PRIORITY, -sp is refused ("Job priority control
  undefined") and jobs carry no priority (all 0, first come first served).
- With it, -sp takes 1..MAX_USER_PRIORITY ("Bad user priority" above it,
  unless the submitter administers the cluster or the queue), and a job
  without -sp has MAX_USER_PRIORITY/2 (integer division, as LSF's
  mbatchd): the value follows the configuration in force, as LSF gives
  it again at each mbatchd start.
- JOB_PRIORITY_OVER_TIME = increment/interval (minutes), with
  MAX_USER_PRIORITY only (LSF ignores it alone): every interval, each
  pending job's priority rises by increment, up to 2147483647.  LSF's
  mbatchd adds it to every pending job on a clock tick; here the
  priority is computed from when it was last set (submission or bmod
  -sp) and the ticks since, never stored: the ticks are multiples of
  the interval since the epoch, the same for all jobs, so the order of
  two pending jobs does not change as time passes and a pass sorts by a
  key fixed at submission (`rank`).

Pure, stdlib only: the controller, the simulator and bjobs share it.
"""

from collections import namedtuple

TOP = 2**31 - 1     # LSF's highest job priority (INFINIT_INT - 1)

Policy = namedtuple("Policy", "maximum increment interval")


def policy(params):
    """The Policy of lsb.params (name -> value, as text or numbers), or
    None when MAX_USER_PRIORITY is not set.  interval is in seconds;
    increment 0 when JOB_PRIORITY_OVER_TIME is not set."""
    maximum = _whole((params or {}).get("MAX_USER_PRIORITY"))
    if maximum is None or maximum < 1:
        return None
    increment, interval = over_time(params.get("JOB_PRIORITY_OVER_TIME"))
    return Policy(maximum, increment or 0, (interval or 1) * 60)


def over_time(value):
    """(increment, interval minutes) of JOB_PRIORITY_OVER_TIME text, or
    (None, None) when unset; ValueError when malformed."""
    if value is None or str(value).strip() == "":
        return None, None
    parts = str(value).strip().split("/")
    numbers = [_whole(p) for p in parts]
    if len(parts) != 2 or None in numbers or min(numbers) < 1:
        raise ValueError(value)
    return numbers[0], numbers[1]


def _whole(value):
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isascii() and text.isdigit() else None


def refusal(pol, asked, privileged):
    """The errors-catalogue key refusing -sp *asked* (None: no -sp, or
    it is allowed); *privileged*: a cluster or queue administrator."""
    if asked is None:
        return None
    if pol is None:
        return "NO_JOB_PRIORITY"
    if asked > pol.maximum and not privileged:
        return "BAD_USER_PRIORITY"
    return None


def base(pol, asked):
    """The job's priority before escalation: its -sp, else the default."""
    if asked:
        return asked
    return pol.maximum // 2 if pol is not None else 0


def current(pol, asked, since, now):
    """The job's priority at *now*, pending since *since* (for a started
    job, *now* is its start: escalation stops there)."""
    value = base(pol, asked)
    if pol is None or not pol.increment or since is None or now is None:
        return value
    return min(TOP, value + pol.increment * _ticks(pol, since, now))


def _ticks(pol, since, now):
    return max(0, int(now // pol.interval) - int(since // pol.interval))


def rank(pol, asked, since):
    """A key that orders pending jobs as `current` does at any time
    (higher first): the ticks before *since* are taken off instead of
    the ticks since added.  Two jobs that both reached TOP tie in
    `current` but keep their uncapped order here."""
    value = base(pol, asked)
    if pol is None or not pol.increment or since is None:
        return value
    return value - pol.increment * int(since // pol.interval)
