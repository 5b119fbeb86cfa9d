"""What running jobs use, sampled from /proc, and the limits checked on it
(bsub -M -c -v -p -T); a job's peak memory at its end."""

import logging
import os

from xce.agent import procs, rlimits
from xce.agent.joboutput import moved_output

SAMPLE_INTERVAL = 2.0       # seconds between usage samples of running jobs
OUTPUT_SETTLE = 1.0         # the wrapper has opened -o/-e well within this

log = logging.getLogger("xce.agent")


class Sampling:
    """The usage samples of JobTable (mixed in: it owns the running jobs,
    their process groups, the kill sequences and the outbox)."""

    def sample(self, tasks=None):
        """One /proc pass: usage of every running job (with the blaunch
        tasks it has here, from *tasks*), memory limits; the tasks of jobs
        that run elsewhere report theirs."""
        self._note_output_fallbacks()
        groups = {j.key: self._group(j) for j in self.running.values()}
        sids = [g for g in groups.values() if g]
        if tasks is not None:
            sids += tasks.sessions()
        if not sids:
            return
        usage = procs.sample_sessions(sids)
        if tasks is not None:
            tasks.report_usage(usage, self.running)
        for job in list(self.running.values()):
            u = usage.get(groups.get(job.key))
            if tasks is not None:
                u = tasks.add_to(job.key, u, usage)
            if not u or not u["nprocs"]:
                continue
            job.cpu = max(job.cpu, u["cpu"])
            job.max_mem = max(job.max_mem, u["rss"])
            job.mem_sum += u["rss"]
            job.samples += 1
            job.max_procs = max(job.max_procs, u["nprocs"])
            over = rlimits.verdict(job.msg, job.reason, u)    # -M -c -v -p -T
            if over:
                job.reason = over[0]
                self._kill_sequence(job, over[1],
                                    job.msg.get("terminate_interval", 10))
            self.outbox.append({"op": "usage", "job": job.key[0],
                                "idx": job.key[1], "attempt": job.key[2],
                                "cpu_time": job.cpu, "mem": u["rss"],
                                "max_mem": job.max_mem, "pids": u["pids"]})

    def _note_output_fallbacks(self):
        """Say, once, which -o/-e files a running job's user could not
        open (and whether it runs in /tmp), so that bjobs -l tells it
        while the job runs."""
        now = self.now()
        for job in self.running.values():
            if job.output_noted or now - job.start_time < OUTPUT_SETTLE:
                continue
            job.output_noted = True
            moved = self._say_output(job)
            if moved:
                log.info("job %s: output went to %s, not to %s", job.key,
                         moved["to"], ", ".join(
                             moved[s]["file"] for s in ("stdout", "stderr")
                             if s in moved))

    def resay_outputs(self):
        """A controller has just connected: each running job's -o/-e
        fallback said before, which the hello does not carry, is said
        again (what was said to no controller, or to one that stopped
        before it read it, is lost)."""
        for job in self.running.values():
            if job.output_noted:
                self._say_output(job)

    def _say_output(self, job):
        """Its -o/-e fallback, and /tmp when its working directory was
        missing (the wrapper's cd comes before it opens -o/-e), so that
        bjobs -l says where it runs while it runs (protocol 17)."""
        moved = moved_output(job.prefix, self.output_dir, job.msg)
        said = {"output_fallback": moved} if moved else {}
        if os.path.exists(job.prefix + ".cwd"):
            said["exec_cwd"] = "/tmp"
        if said:
            self.outbox.append({"op": "output", "job": job.key[0],
                                "idx": job.key[1], "attempt": job.key[2],
                                **said})
        return moved


def final_peak(job, usage, measured_path):
    """The job's peak RSS in KB: the largest of its /proc samples, its
    wrapper's ru_maxrss when that is its own, and what GNU time or the
    wrapper wrote at its end (so a job shorter than a sample has one too)."""
    return max(job.max_mem, usage.get("peak", 0),
               procs.read_peak_file(measured_path) if job.measured else 0,
               procs.read_peak_file(job.prefix + ".peak"))
