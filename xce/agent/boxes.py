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
rootful."""

import logging
import os

from xce.agent import container, spawn

log = logging.getLogger("xce.agent")

LIST_TIMEOUT = 20.0     # seconds a runtime may take to list containers


class Boxes:
    """The container side of JobTable (mixed in: it owns the running
    jobs and the reaping)."""

    def _init_boxes(self, workdir):
        self.box_tag = container.agent_tag(workdir)
        self.box_removers = set()       # pids of `rm -f` not reaped yet
        self.box_used = workdir / "container-runtimes"

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

    def remove_box(self, msg):
        """Remove the container of the job of *msg*, if it has one."""
        name = container.name_of(msg, self.box_tag)
        argv = name and container.remove_argv(msg["container"]["runtime"],
                                              name)
        if not argv:
            return
        env = {k: v for k, v in (msg.get("env") or {}).items()
               if isinstance(v, str) and "\0" not in k + v and "=" not in k}
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
        """Remove this agent's containers of jobs it does not run."""
        for runtime in self.used_runtimes():
            if runtime not in container.NAMED:
                continue
            argv = container.list_argv(runtime, self.box_tag)
            try:
                names = argv and spawn.capture(argv, dict(os.environ),
                                               LIST_TIMEOUT)
            except OSError as e:
                log.warning("%s: cannot list containers: %s", runtime, e)
                continue
            for name in (names or "").split():
                key = container.key_of(name, self.box_tag)
                if key is None or key in self.running:
                    continue
                log.info("removing container %s of a job that has ended",
                         name)
                self._spawn_remover(container.remove_argv(runtime, name),
                                    dict(os.environ), name)
