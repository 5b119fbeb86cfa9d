"""Time zones shifted from UTC by seconds, for tests of what happens at a
time given to the minute (time windows, bsub -t): in such a zone the
next minute boundary is a few seconds away rather than up to a minute,
and the daemons and commands given it (TZ) act on it by the real clock."""

import time


class Zone:
    """A time zone of the cluster's daemons and commands (TZ), shifted
    from UTC by seconds so that a local minute boundary comes *lead*
    seconds from now: what is given to the minute in local time (LSF's
    time windows, bsub -t) comes by the clock, with no wait of up to a
    minute."""

    def __init__(self, lead):
        self.shift = -(int(time.time()) + lead) % 60
        # POSIX TZ: a negative offset is east of UTC (local = UTC + shift).
        self.tz = f"XCE-0:00:{self.shift:02d}"

    def clock(self, t):
        return time.strftime("%H:%M", time.gmtime(t + self.shift))

    def next_minute(self, lead):
        """The first local minute boundary at least *lead* seconds away."""
        t = int(time.time()) + lead
        return t + (-(t + self.shift) % 60)
