"""The named containers of the jobs an agent runs (xce.agent.container):
each docker or podman job's container gets its name before the job
starts, and is removed by that name when the job ends, however it
ended; at the agent's start, its containers of jobs it no longer runs
are removed too (the agent was down when they ended).

A removal runs as the job's user, with the job's environment (a
rootless podman keeps each user's containers apart, and the job's
CONTAINERS_CONF or DOCKER_HOST says where they are); it is spawned and
not waited for.  The start-up sweep asks each runtime this agent has
ever named a container for (a file in its directory says which: an
agent that never ran one asks none, and starts as fast as before) as
the agent's own user, which sees the containers of the jobs it ran
rootful.  A podman job of another user runs rootless, its container
kept in that user's own storage, which only that user sees: the agent
notes the user and what in the job's environment says where that storage
is (another file, one JSON object a line), and its start-up sweep asks
podman again as each user noted, with that environment, and removes
those of its containers whose jobs it no longer runs, as that user.  A
user left with none of them, and no job running here, is forgotten."""

import json
import logging
import os

from xce.agent import container, spawn

log = logging.getLogger("xce.agent")

LIST_TIMEOUT = 20.0     # seconds a runtime may take to list containers
# What in a job's environment says where a rootless podman keeps its
# containers (storage, run-time and configuration directories).
PLACE_VARS = ("HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
              "CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF", "TMPDIR")
ROOTLESS = "podman"     # run by another user, its containers are theirs


class Boxes:
    """The container side of JobTable (mixed in: it owns the running
    jobs and the reaping)."""

    def _init_boxes(self, workdir):
        self.box_tag = container.agent_tag(workdir)
        self.box_removers = set()       # pids of `rm -f` not reaped yet
        self.box_used = workdir / "container-runtimes"
        self.box_places = workdir / "container-places"

    def name_box(self, msg):
        """Give the job's container its name (in *msg*'s "container")."""
        name = container.name_of(msg, self.box_tag)
        if name is None:
            return
        runtime = msg["container"]["runtime"]
        if runtime not in self.used_runtimes():
            with open(self.box_used, "a") as f:
                f.write(runtime + "\n")
        msg["container"] = dict(msg["container"], name=name,
                                tag=self.box_tag)

    def used_runtimes(self):
        try:
            return self.box_used.read_text().split()
        except FileNotFoundError:
            return []

    def note_place(self, msg, env):
        """Note the user of a rootless podman job about to start with
        environment *env* (see place_of)."""
        box = msg.get("container") or {}
        if box.get("runtime") != ROOTLESS or not box.get("name") or \
                msg["uid"] == os.geteuid():
            return
        place = place_of(msg["uid"], msg["gid"], env)
        if place not in self.noted_places():
            with open(self.box_places, "a") as f:
                f.write(json.dumps(place, sort_keys=True) + "\n")

    def noted_places(self):
        """The users (with their environments) whose rootless podman
        has run a container of this agent's."""
        try:
            lines = self.box_places.read_text().splitlines()
        except FileNotFoundError:
            return []
        out = []
        for line in lines:
            try:
                place = json.loads(line)
            except ValueError:
                continue
            if _is_place(place) and place not in out:
                out.append(place)
        return out

    def remove_box(self, msg):
        """Remove the container of the job of *msg*, if it has one."""
        name = container.name_of(msg, self.box_tag)
        argv = name and container.remove_argv(msg["container"]["runtime"],
                                              name)
        if not argv:
            return
        env = _clean(msg.get("env"))
        env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
        self._spawn_remover(spawn.as_user_argv(msg["uid"], msg["gid"], argv),
                            env, name)

    def _spawn_remover(self, argv, env, name):
        try:
            self.box_removers.add(spawn.spawn(argv, env))
        except OSError as e:
            log.warning("container %s: cannot remove it: %s", name, e)

    def remover_exited(self, pid):
        """True if *pid* was a removal (reaped: nothing more to do)."""
        if pid in self.box_removers:
            self.box_removers.discard(pid)
            return True
        return False

    def sweep_boxes(self):
        """Remove this agent's containers of jobs it does not run: its
        own runtimes' as itself, then each noted user's rootless ones."""
        for runtime in self.used_runtimes():
            if runtime in container.NAMED:
                self._sweep(runtime, dict(os.environ), None)
        places = self.noted_places()
        if not places:
            return
        kept = [p for p in places if self._sweep(
            ROOTLESS, dict(p["env"], PATH=os.environ.get(
                "PATH", "/usr/bin:/bin")), p) is not False or
            any(j.msg["uid"] == p["uid"] for j in self.running.values())]
        if kept != places:
            tmp = self.box_places.with_name(self.box_places.name + ".tmp")
            tmp.write_text("".join(json.dumps(p, sort_keys=True) + "\n"
                                   for p in kept))
            os.replace(tmp, self.box_places)

    def _sweep(self, runtime, env, place):
        """Remove the containers of *runtime* this agent names whose jobs
        it does not run, as *place*'s user (None: as itself).  False when
        it has none left there, None when they cannot be listed."""
        argv = container.list_argv(runtime, self.box_tag)
        if argv and place is not None:
            argv = spawn.as_user_argv(place["uid"], place["gid"], argv)
        who = f" of uid {place['uid']}" if place else ""
        try:
            names = argv and spawn.capture(argv, env, LIST_TIMEOUT)
        except OSError as e:
            log.warning("%s: cannot list containers%s: %s", runtime, who, e)
            return None
        if names is None:
            return None
        found = False
        for name in names.split():
            key = container.key_of(name, self.box_tag)
            if key is None:
                continue
            found = True
            if key in self.running:
                continue
            log.info("removing container %s%s of a job that has ended",
                     name, who)
            argv = container.remove_argv(runtime, name)
            if place is not None:
                argv = spawn.as_user_argv(place["uid"], place["gid"], argv)
            self._spawn_remover(argv, env, name)
        return found


def _clean(env):
    """A job's environment, without what cannot be passed on."""
    return {k: v for k, v in (env or {}).items()
            if isinstance(k, str) and isinstance(v, str) and
            "\0" not in k + v and "=" not in k}


def place_of(uid, gid, env):
    """Whose rootless podman runs a job of user *uid* with environment
    *env*, and where it keeps its containers: {"uid", "gid", "env"} (the
    job's PLACE_VARS)."""
    env = _clean(env)
    return {"uid": uid, "gid": gid,
            "env": {k: env[k] for k in PLACE_VARS if k in env}}


def _is_place(place):
    return isinstance(place, dict) and \
        isinstance(place.get("uid"), int) and place["uid"] > 0 and \
        isinstance(place.get("gid"), int) and place["gid"] >= 0 and \
        isinstance(place.get("env"), dict) and \
        all(isinstance(k, str) and isinstance(v, str)
            for k, v in place["env"].items())
