"""Container jobs (a profile's CONTAINER, xce.config.containerconf): which
runtimes this host has, and the command line that runs a job's command
inside one.

A runtime counts when its program is on the agent's PATH and, for docker,
when its engine answers on its socket (a client alone runs nothing).

The job runs as its own user inside the container, as LSF runs it:
docker gets --user uid:gid (its engine runs containers as root
otherwise); podman run by root is rootful and gets --user too, run by
another user it is rootless and keeps that user's id (--userns=keep-id);
apptainer and singularity run as their caller.  The job's working
directory (/tmp when its own is missing, as for any job) is mounted at
the same path and is the container's working directory, and a script
job's file is mounted read-only, so that the
command sees what it would see on the host; the job's environment is
passed in by name.  Its -o/-e files are opened by the wrapper on the
host, before the runtime starts.  Pre- and post-exec steps run on the
host, outside the container.

A docker or podman container is named after its job (cluster, job id,
index, attempt) and the agent that runs it, and carries that agent's
label: the container outlives its runtime's client when the client is
killed (bkill's last SIGKILL, while the job ignores the signals before
it), so the agent removes it by name when the job ends, and at its own
start removes those of its jobs it no longer runs -- another user's
rootless podman ones too, as that user (xce.agent.boxes).
"""

import hashlib
import os
import re
import shlex
import shutil
import socket

from xce import unixsock

DOCKER_SOCKET = "/var/run/docker.sock"
AGENT_LABEL = "xce.agent"
# Runtimes whose containers live apart from the job's processes.
NAMED = ("docker", "podman")
# Variables that describe the host's own session, not the job's.
_HOST_ONLY = frozenset({"_", "SHLVL", "PWD", "OLDPWD"})


def detect(which=shutil.which, docker_up=None):
    """The runtimes this host can run a job with, sorted."""
    found = set()
    if which("podman"):
        found.add("podman")
    if which("apptainer") or which("singularity"):
        found.add("apptainer")
    if which("docker") and (docker_up or _docker_answers)():
        found.add("docker")
    return sorted(found)


def _docker_answers():
    """The docker engine accepts a connection on its socket."""
    if os.environ.get("DOCKER_HOST", "unix://").split("://")[0] != "unix":
        return True     # a remote engine: the client will say at run time
    path = os.environ.get("DOCKER_HOST", "")[len("unix://"):] or \
        DOCKER_SOCKET
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        # The site's path, which may pass through links (/var/run).
        unixsock.connect(s, path, nofollow=False)
        return True
    except (OSError, unixsock.SocketPathError):
        return False
    finally:
        s.close()


def argv(box, uid, gid, cwd, env, jobfile=None):
    """The words that run a command inside *box* (the start message's
    "container"); the command's own words follow them."""
    runtime, image = box["runtime"], box["image"]
    options = [str(w) for w in box.get("options") or ()]
    if runtime in ("apptainer", "singularity"):
        binds = ["--bind", f"{cwd}:{cwd}"]
        if jobfile:
            binds += ["--bind", f"{jobfile}:{jobfile}:ro"]
        return [runtime, "exec", "--pwd", cwd, *binds, *options, image]
    # --init: a small init is the container's process 1 and hands the
    # job's signals (bstop, bkill) on; a shell as process 1 would ignore
    # SIGINT and SIGTERM, and the runtime's client be killed while the
    # container runs on.
    words = [runtime, "run", "--rm", "-i", "--init"]
    if runtime == "podman" and uid != 0:
        words += ["--userns=keep-id"]
    if box.get("name"):
        words += ["--name", box["name"],
                  "--label", f"{AGENT_LABEL}={box['tag']}"]
    words += ["--user", f"{uid}:{gid}", "-w", cwd, "-v", f"{cwd}:{cwd}"]
    if jobfile:
        words += ["-v", f"{jobfile}:{jobfile}:ro"]
    for name in sorted(env or ()):
        if name not in _HOST_ONLY:
            words += ["-e", name]
    words += options
    if runtime == "podman" and image.startswith("/"):
        words += ["--rootfs", image]
    else:
        words.append(image)
    return words


# Stands for the directory the command line runs in, in argv's words.
_HERE = "\0here\0"


def command(box, uid, gid, env, cmd, jobfile=None):
    """One shell command line: *cmd* (a shell command line) run by
    /bin/sh inside *box*, whose working directory (mounted at its path)
    is the one the line itself runs in ($PWD): the job's, or /tmp when
    the job's was missing, where the wrapper runs every other job then
    (xce.agent.spawn)."""
    words = argv(box, uid, gid, _HERE, env, jobfile) + ["/bin/sh", "-c", cmd]
    return "exec " + " ".join(
        '"' + w.replace(_HERE, "$PWD") + '"' if _HERE in w
        else shlex.quote(w) for w in words)


def agent_tag(workdir):
    """A short word that tells this agent's containers from those of
    another agent on the same machine (another cluster, or a virtual
    host of the same one): its working directory's digest."""
    path = os.path.realpath(str(workdir))
    return hashlib.sha256(path.encode()).hexdigest()[:10]


def name_of(msg, tag):
    """The container name of the job of start message *msg*, or None
    for a job that runs in no named container."""
    box = msg.get("container")
    if not box or box.get("runtime") not in NAMED:
        return None
    cluster = re.sub(r"[^A-Za-z0-9_.]", "_", str(msg.get("cluster") or "xce"))
    return f"xce-{cluster}-{msg['job']}-{msg['idx']}-{msg['attempt']}-{tag}"


def key_of(name, tag):
    """(job, idx, attempt) of a container name_of() made, or None."""
    parts = name.rsplit("-", 4)
    if len(parts) != 5 or parts[4] != tag or not name.startswith("xce-"):
        return None
    try:
        return tuple(int(p) for p in parts[1:4])
    except ValueError:
        return None


def remove_argv(runtime, name):
    """Stop (at once: the job has ended) and remove a container; no
    error matters (the runtime's --rm has mostly removed it already)."""
    path = shutil.which(runtime)
    if path is None:
        return None
    stop_now = ["-t", "0"] if runtime == "podman" else []
    return [path, "rm", "-f", *stop_now, name]


def list_argv(runtime, tag):
    """The names of the containers of the agent of *tag*, one a line."""
    path = shutil.which(runtime)
    if path is None:
        return None
    return [path, "ps", "-a", "--filter", f"label={AGENT_LABEL}={tag}",
            "--format", "{{.Names}}"]
