"""xce sim -i: step through a replay with commands read from standard
input (one a line, so a transcript drives it as well as a person).

    step [n]                      the next n instants (default 1), each
                                  printed as one line
    continue                      on to the next breakpoint or the end
    break job N | time T | event KIND
                                  stop at an instant where job N has an
                                  event, at or after time T, or with an
                                  event of KIND (submit, start, end,
                                  rejected, preempt, resume)
    info job N | host NAME | queue NAME
    trace on [job...] | trace off the decision trace xce explain prints,
                                  before each pass, for the jobs named
                                  (default: every pending job)
    quit                          stop here; the summary covers what ended
                                  (at the end of the input the replay
                                  runs on to its end)

The stepper only looks: what it prints never changes a decision, and
`continue` with trace off prints nothing, so a transcript's summary is
the summary of a run without it, byte for byte.
"""

import json

from xce.client.explain import lines as trace_lines
from xce.controller import schedpass
from xce.errors import text
from xce.model import states
from xce.model.jobid import show

EVENT_KINDS = ("submit", "start", "end", "rejected", "preempt", "resume")
TRACE_ALL_MAX = 20      # pending jobs traced when none is named


class Stepper:
    def __init__(self, replay, inp, out):
        self.replay = replay
        self.cl = replay.cl
        self.inp, self.out = inp, out
        self.breaks = {"job": set(), "time": set(), "event": set()}
        self.traced = None      # None: trace off; a set (empty: all)
        replay.before_pass = self._trace

    def say(self, line):
        print(line, file=self.out)

    def run(self):
        for line in self.inp:
            words = line.split()
            if not words:
                continue
            handler = getattr(self, "_cmd_" + words[0], None)
            try:
                if handler is None:
                    raise ValueError(words[0])
                if handler(words[1:]) is False:
                    return
            except (ValueError, IndexError, KeyError):
                self.say(text("SIM_STEP_HELP"))
        # The end of the commands (not quit): the rest of the replay runs.
        while self.replay.step():
            pass

    # -- commands ------------------------------------------------------
    def _cmd_quit(self, args):
        return False

    def _cmd_step(self, args):
        count = int(args[0]) if args else 1
        if count < 1 or len(args) > 1:
            raise ValueError("step")
        for _ in range(count):
            if not self.replay.step():
                self.say("end of the replay")
                return
            self.say(self._line(self.replay.last))

    def _cmd_continue(self, args):
        if args:
            raise ValueError("continue")
        while self.replay.step():
            why = self._hit(self.replay.last)
            if why is not None:
                self.say(f"break: {why}")
                self.say(self._line(self.replay.last))
                return

    def _cmd_break(self, args):
        kind, value = args
        if kind == "job":
            self.breaks["job"].add(int(value))
        elif kind == "time":
            self.breaks["time"].add(float(value))
        elif kind == "event" and value in EVENT_KINDS:
            self.breaks["event"].add(value)
        else:
            raise ValueError(kind)
        self.say(f"breakpoint: {kind} {value}")

    def _cmd_info(self, args):
        kind, name = args
        fn = {"job": self._info_job, "host": self._info_host,
              "queue": self._info_queue}[kind]
        self.say(fn(name))

    def _cmd_trace(self, args):
        if args == ["off"]:
            self.traced = None
        elif args and args[0] == "on":
            self.traced = {int(n) for n in args[1:]}
        else:
            raise ValueError("trace")
        self.say("trace " + " ".join(args))

    # -- what is shown -------------------------------------------------
    def _line(self, step):
        parts = [f"{kind} {self._number(key)}" for kind, key, *_ in
                 step.events]
        parts += [f"start {self._number(key)} on {hosts}"
                  for key, hosts in step.started]
        parts += [f"{what} {self._number(key)}"
                  for key, what in step.signalled]
        return f"time {step.time:g}: " + ("; ".join(parts) or "(pass)")

    def _number(self, key):
        return key if isinstance(key, int) else show(*key)

    def _hit(self, step):
        """Why the instant *step* stops a continue, or None."""
        kinds = [e[0] for e in step.events] + \
            ["start"] * len(step.started) + [w for _, w in step.signalled]
        for kind in kinds:
            if kind in self.breaks["event"]:
                return f"event {kind}"
        keys = [e[1] for e in step.events] + [k for k, _ in step.started]
        for key in keys:
            number = key if isinstance(key, int) else key[0]
            if number in self.breaks["job"]:
                return f"job {number}"
        for t in sorted(self.breaks["time"]):
            if step.time >= t:
                self.breaks["time"].discard(t)
                return f"time {t:g}"
        return None

    def _info_job(self, word):
        number = int(word)
        rec = next((r for r in self.replay.records.values()
                    if r.number == number), None)
        if rec is None:
            return f"job {number}: not submitted (yet)"
        job = self.cl.jobs.get(rec.key)
        stat = job["stat"] if job is not None else "finished"
        out = (f"job {number}: {stat}, user {rec.user}, queue {rec.queue}, "
               f"{rec.procs} slot(s), submitted {rec.submit:g}")
        if rec.start is not None:
            out += f", started {rec.start:g}"
        if job is not None and job.get("exec_hosts"):
            out += f" on {job['exec_hosts']}"
        if rec.end is not None:
            out += f", ended {rec.end:g}"
        return out

    def _info_host(self, name):
        if name not in self.cl.hosts:
            raise ValueError(name)
        jobs = sorted(show(*key) for key, job in self.cl.jobs.items()
                      if name in (job.get("exec_hosts") or "").split())
        used = sum((job.get("exec_hosts") or "").split().count(name)
                   for job in self.cl.jobs.values()
                   if job["stat"] in states.RUNNING)
        return (f"host {name}: {self.cl.hosts[name]['max_slots']} slot(s), "
                f"{used} used, jobs: {' '.join(jobs) or '-'}")

    def _info_queue(self, name):
        if name not in self.cl.cfg.queues:
            raise ValueError(name)
        jobs = [j for j in self.cl.jobs.values() if j["queue"] == name]
        pend = sum(1 for j in jobs if j["stat"] == states.PEND)
        run = [j for j in jobs if j["stat"] in states.RUNNING]
        return (f"queue {name}: priority "
                f"{self.cl.cfg.queues[name].priority}, {pend} pending, "
                f"{len(run)} running on {sum(j['nslots'] for j in run)} "
                "slot(s)")

    def _trace(self, replay):
        """Before a pass: the trace of the pass about to run, for the
        jobs traced that are pending (it changes nothing)."""
        if self.traced is None:
            return
        keys = [key for key, job in sorted(self.cl.jobs.items())
                if job["stat"] == states.PEND and
                (not self.traced or key[0] in self.traced)]
        if not self.traced:
            keys = keys[:TRACE_ALL_MAX]
        if not keys:
            return
        decisions = schedpass.trace(self.cl, keys)
        for key in keys:
            t = decisions.traces.get(key)
            if t is not None:
                # The reply's JSON round trip, as xce explain receives it.
                t = json.loads(json.dumps(t))
                t["jobid"] = show(*t["job"])
                for line in trace_lines(t):
                    self.say(line)
