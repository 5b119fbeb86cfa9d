"""JOB_CWD_TTL on the execution host (LSF 10.1, lsb.params and
lsb.applications): the working directory a job's wrapper (or its
pre-exec) created for a directory with a dynamic pattern is removed
JOB_CWD_TTL hours after the job has ended -- after its post-exec, when
it has one -- as LSF's execution daemon removes it; 0 removes it at
once.  Only the last directory of the path goes (the ones above it may
be shared by other jobs), and only when it is empty: ``rmdir`` run as
the job's user, so nothing the job left there is lost and nothing its
user could not remove is.  A directory that was there already, or a job
that ran in /tmp, leaves nothing to remove.

The directories due are kept in a file beside the agent's journal
(``cwd-ttl``, rewritten whole, atomically), so that they outlive an
agent restart: at its start the agent arms a timer for each, and one
already due is removed then.

A job whose pre-exec failed (or that was killed in it) has ended on
this host as well: the directory its pre-exec made is due then too.
When the job comes back to this host before that (it went back to the
queue) and runs in the same directory, the new attempt takes the
directory over: it is removed after that attempt, not under it.
"""

import json
import logging
import os

from xce.agent import jobfiles, spawn

log = logging.getLogger("xce.agent")

FILE = "cwd-ttl"
_RMDIR = 'exec rmdir -- "$1" 2>/dev/null'


class CwdTtl:
    """Mixed into the agent's JobTable (its timers, its removers)."""

    def _init_cwdttl(self, workdir):
        self._ttl_path = workdir / FILE
        self.cwd_due = _load(self._ttl_path)
        for entry in self.cwd_due:
            self.at(entry["due"], "cwdttl", entry["path"], entry)

    def note_made_cwd(self, msg, prefix):
        """The job of *msg* has ended (its post-exec too): its created
        directory, if any, is due JOB_CWD_TTL hours from now."""
        hours = msg.get("cwd_ttl")
        if not isinstance(hours, int) or hours < 0 or \
                not os.path.exists(prefix + ".made") or \
                os.path.exists(prefix + ".cwd"):
            return
        entry = {"path": msg["cwd"], "uid": msg["uid"], "gid": msg["gid"],
                 "due": self.now() + hours * 3600}
        self.cwd_due.append(entry)
        self._save_due()
        self.at(entry["due"], "cwdttl", entry["path"], entry)

    def take_over_cwd(self, msg, prefix):
        """A start in a directory an earlier attempt of its user made and
        that is not yet removed: it is this attempt's now (its .made), no
        longer due at the earlier one's time."""
        if not msg.get("cwd_create"):
            return
        mine = [e for e in self.cwd_due
                if e["path"] == msg["cwd"] and e["uid"] == msg["uid"]]
        if not mine:
            return
        for entry in mine:      # its timer finds it gone and does nothing
            self.cwd_due.remove(entry)
        self._save_due()
        jobfiles.create(prefix + ".made", "")

    def _timer_cwdttl(self, _key, entry, _now):
        if entry not in self.cwd_due:
            return
        self.cwd_due.remove(entry)
        self._save_due()
        argv = spawn.as_user_argv(entry["uid"], entry["gid"], [
            spawn.SHELL, "-c", _RMDIR, "xce-rmdir", entry["path"]])
        log.info("JOB_CWD_TTL: removing %s if empty", entry["path"])
        try:    # reaped as the container removers are (xce.agent.boxes)
            self.box_removers.add(spawn.spawn(
                argv, {"PATH": "/usr/bin:/bin"}))
        except OSError as e:
            log.warning("JOB_CWD_TTL: cannot remove %s: %s", entry["path"],
                        e)

    def _save_due(self):
        tmp = self._ttl_path.with_name(FILE + ".tmp")
        with open(tmp, "w") as f:
            json.dump(self.cwd_due, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self._ttl_path)


def _load(path):
    """The entries of *path*; a missing or unreadable file has none."""
    try:
        with open(path) as f:
            entries = json.load(f)
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as e:
        log.warning("%s: unreadable, no directory will be removed: %s",
                    path, e)
        return []
    keys = {"path", "uid", "gid", "due"}
    return [e for e in entries if isinstance(e, dict) and keys <= set(e)
            and isinstance(e["path"], str) and e["path"].startswith("/")]
