"""Run every benchmark and print its ``name value unit`` lines (``make bench``).

Each benchmark starts and stops its own cluster; one that fails is
reported on stderr and the others still run; the exit status says whether
all succeeded.  ``--only NAME`` (repeatable) runs a subset.
"""

import argparse
import importlib
import sys
import time
import traceback

# Order: quick ones first, so a partial run still says something.
BENCHMARKS = ("schedule", "gang_schedule", "explain", "controller_sched",
              "load_look", "limit_usage", "spool_claim", "reply", "bsub",
              "start", "bjobs", "throughput", "bkill", "pack", "scale",
              "elim", "interactive", "retention", "xce_start")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=BENCHMARKS)
    names = ap.parse_args(argv).only or BENCHMARKS
    failed = []
    for name in names:
        t0 = time.monotonic()
        try:
            importlib.import_module(f"bench_{name}").main()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(f"# bench_{name}: {time.monotonic() - t0:.0f} s",
              file=sys.stderr, flush=True)
    if failed:
        print(f"# failed: {' '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
