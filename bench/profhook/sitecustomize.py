"""Profile xce daemons of a benchmark run (``XCE_BENCH_PROFILE=DIR``).

Put on PYTHONPATH by bench/_common.py in profile mode.  Every controller
and agent interpreter then runs under cProfile and writes
DIR/<daemon>-<pid>.prof when it exits normally (SIGTERM ends both loops
normally).  Other interpreters (commands, jobs) are left alone.
"""

import os
import sys

_OUT = os.environ.get("XCE_BENCH_PROFILE")
_ARGV = " ".join(getattr(sys, "orig_argv", sys.argv))
_NAME = ("controller" if "xce-controller" in _ARGV else
         "agent" if "xce.cli.xce_agent" in _ARGV else None)

if _OUT and _NAME:
    import atexit
    import cProfile

    _prof = cProfile.Profile()

    def _dump():
        _prof.disable()
        _prof.dump_stats(os.path.join(_OUT, f"{_NAME}-{os.getpid()}.prof"))

    atexit.register(_dump)
    _prof.enable()
