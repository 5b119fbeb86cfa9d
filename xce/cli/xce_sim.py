"""xce sim: replay a workload through xce's own scheduler in virtual time.

`xce sim --workload FILE [--envdir DIR] [--hosts NxS] [--json]
[--plot FILE] [-i] [--elim-values FILE]`; xce.py parses the options and calls run().  The
work is xce.sim's; this module reads the inputs, reports what it could
not use, and prints.  Exit status: 0, or 255 when the configuration or
the workload cannot be used.
"""

import os
import sys

from xce.errors import EXIT_FAILURE, XceError, text


def run(workload, envdir=None, hosts=None, as_json=False, plot=None,
        interactive=False, progress=None, verify=False, elim_values=None):
    """progress: show a progress bar on standard error (None: when it is
    a terminal and the stepper is not in use).  elim_values: a file of
    what the hosts' elims report (xce.sim.elimvalues)."""
    from xce.sim import engine, metrics, report, site, swf
    from xce.sim.cluster import VirtualCluster
    if envdir is None and hosts is None and os.environ.get("XCE_ENVDIR"):
        envdir = os.environ["XCE_ENVDIR"]
    try:
        cfg = site.load(envdir, hosts)
    except site.SiteError as e:
        raise XceError(text("SIM_CONFIG", error=e), EXIT_FAILURE)
    if verify:
        if elim_values is not None:
            raise XceError(text("SIM_ELIM_VERIFY"), EXIT_FAILURE)
        return _verify(cfg)
    if workload is None:
        raise XceError(text("SIM_NO_WORKLOAD"), EXIT_FAILURE)
    from xce.sim import history, lsblog
    try:
        if history.is_store(workload):
            trace = history.read(workload)
        elif lsblog.is_log(workload):       # lsb.events or lsb.acct
            trace = lsblog.read(workload)
        else:
            trace = swf.read(workload)
    except OSError as e:
        raise XceError(text("SIM_WORKLOAD", path=workload,
                            reason=e.strerror), EXIT_FAILURE)
    warning = swf.bad_summary(trace.bad)
    if warning:
        print(f"xce sim: warning: {workload}: {warning}", file=sys.stderr)
    reports = None
    if elim_values is not None:
        from xce.sim import elimvalues
        try:
            reports = elimvalues.read(elim_values, cfg)
        except elimvalues.ElimValuesError as e:
            raise XceError(text("SIM_CONFIG", error=e), EXIT_FAILURE)
    cl = VirtualCluster(cfg, elim_values=reports)
    replay = engine.Replay(cl, trace.jobs)
    if interactive:
        from xce.sim import stepper
        stepper.Stepper(replay, sys.stdin, sys.stdout).run()
    else:
        if progress is None:
            progress = sys.stderr.isatty()
        _replay(replay, len(trace.jobs), progress)
    summary = metrics.summary(replay, cl.slots)
    for line in report.rejected_lines(summary):
        print(f"xce sim: {line}", file=sys.stderr)
    if plot:
        _plot(replay, cl.slots, plot)
    if as_json:
        print(report.json_line(summary))
    else:
        print(report.table(summary))
    return 0


def _replay(replay, total, progress):
    """Run the replay, with click's progress bar over the submissions
    when asked (a long trace takes minutes)."""
    if not progress or not total:
        replay.run()
        return
    import click
    with click.progressbar(length=total, file=sys.stderr,
                           label="replaying", show_pos=True) as bar:
        done = [0]

        def advance(r):
            n = len(r.records) + len(r.rejected)
            if n != done[0]:
                bar.update(n - done[0])
                done[0] = n
        replay.run(advance)


def _plot(replay, slots, path):
    try:
        from xce.sim import plot as plotting
    except ImportError:     # matplotlib is an optional extra
        raise XceError(text("SIM_NO_PLOT"), EXIT_FAILURE)
    plotting.draw(replay, slots, path)


def _verify(cfg):
    """Compare a live run's decisions (the envdir's store) with a replay
    of its inputs; exit 0 when there is no difference, else 1."""
    from xce.sim import verify
    store = cfg.spool / "store" / "xce.db"
    if not store.exists():
        raise XceError(text("SIM_WORKLOAD", path=store,
                            reason="No such file or directory"),
                       EXIT_FAILURE)
    result = verify.verify(cfg, store)
    for line in verify.report(result):
        print(line)
    return 1 if result.differences else 0
