"""A restarted agent's jobs: those still running re-adopted from the
journal, those that ended meanwhile finished, and what it knows told to
the controller for its reconciliation."""

import logging

from xce.agent import procs
from xce.agent.jobfiles import read_int
from xce.agent.running import Running

log = logging.getLogger("xce.agent")


class Recovery:
    """The restart side of JobTable (mixed in: it owns the journal, the
    running jobs and their tracking and finishing)."""

    def recover(self):
        """Re-adopt jobs still running; finish those that ended meanwhile."""
        self.kill_leftover_steps()      # xce.agent.prepost
        self.recover_host_steps()
        for key, rec in list(self.journal.jobs.items()):
            if "result" in rec:
                self.post_cut_short(key, rec)
                continue
            msg = rec["msg"]
            # Limits changed by bmod since the start override the start's.
            msg.update({k: rec[k] for k in ("start_time", "stdout", "home",
                                            "runlimit", "memlimit",
                                            "rlimits")
                        if k in rec})
            prefix = rec["dir"]
            pid = rec.get("pid") or read_int(prefix + ".pid")
            job = Running(key, msg, prefix, pid, rec.get("ptime"), False,
                          bool(rec.get("measured") and rec.get("pid")))
            if pid and procs.alive(pid, job.ptime):
                log.info("job %s: re-adopted running pid %s", key, pid)
                if job.measured:
                    job.group = self._session_of_wrapper(job)
                self._track(job)
            elif not pid and msg.get("pre"):
                # Stopped in its pre-exec: it tries again elsewhere.
                self._finish(key, 1, {}, extra={"pre_failed": 1})
                self.note_made_cwd(msg, prefix)     # xce.agent.cwdttl
            else:
                self.running[key] = job
                code = self._status_from_file(job) if pid else 127
                self._finish(key, code, {})
        self.journal.sync()

    def hello_jobs(self):
        """What this agent knows, for the controller's reconciliation."""
        out = []
        for key, rec in self.journal.jobs.items():
            entry = {"job": key[0], "idx": key[1], "attempt": key[2]}
            if "result" in rec:
                entry.update(state="finished", result=rec["result"])
                if "post_state" in rec:     # its post-exec has ended
                    entry["post_state"] = rec["post_state"]
            elif key in self.running:
                j = self.running[key]
                entry.update(state="running", pid=j.group or j.pid,
                             start_time=j.start_time, stdout=j.msg["stdout"])
            else:
                entry.update(state="starting")
            out.append(entry)
        return out
