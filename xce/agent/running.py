"""What the agent holds about one job it runs (xce.agent.jobs)."""

import time


class Running:
    """A job this agent started (or adopted after a restart)."""

    def __init__(self, key, msg, prefix, pid, ptime, child, measured=False):
        # prefix: the path the job's files share (.hosts, .job, .pid,
        # .status, ...), in its user's own directory.
        self.key, self.msg, self.prefix = key, msg, prefix
        self.pid, self.ptime, self.child = pid, ptime, child
        # The job's process group and session.  The spawned process itself,
        # unless it is GNU time measuring the job (spawn.measured_argv):
        # then its child, learnt from the wrapper's .pid file (_group).
        self.measured = measured
        self.group = None if measured else pid
        # [seconds or None] of a CPU limit changed (bmod -c/-cn) while the
        # group was not yet known, to apply to its processes once it is.
        self.cpu_retarget = None
        self.start_time = msg.get("start_time") or time.time()
        self.reason = None          # exit reason once the agent kills it
        # Killed as a stale copy of a job that runs again elsewhere (the
        # controller's fence): its end writes no job report, which would
        # land in the output file of the attempt that counts.
        self.fenced = False
        self.max_mem = 0
        self.mem_sum = 0
        self.samples = 0
        self.cpu = 0.0
        self.max_procs = 0
        # The agent's own peak RSS when it spawned the job: the wrapper's
        # ru_maxrss counts only above it (procs.own_peak_kb).
        self.spawn_peak = None
        self.output_noted = False   # its -o/-e fallback looked at and said
