"""A profile's CONTAINER (lsb.applications): the container runtime its
jobs run under, the image, and the runtime's own options.

LSF 10.1's syntax, one runtime a profile:
    CONTAINER=docker[image(name) options(docker run options)]
    CONTAINER=podman[image(name) options(podman run options)]
    CONTAINER=singularity[image(name) options(singularity exec options)]
    CONTAINER=apptainer[image(name) options(apptainer exec options)]
``image($LSB_CONTAINER_IMAGE)`` lets each job name its image in its
environment (bsub -env or the submission environment).  An image that is
an absolute path is a directory holding a root file system (podman
--rootfs, an apptainer sandbox); docker has no such form.

What is refused, each with its reason: another runtime (LSF's shifter
and LSF's EXEC_DRIVER plug-ins have no xce counterpart), an options
script (``options(@script)``: xce runs no site script to make a command
line), and the options LSF reserves for itself -- the user, the name,
the working directory, the cgroup parent and the ulimits are xce's to
set, as they are LSF's.  Pure; the agent builds the command line
(xce.agent.container).
"""

import re
import shlex
from dataclasses import dataclass

from xce.errors import text

RUNTIMES = ("docker", "podman", "singularity", "apptainer")
IMAGE_VARIABLE = "$LSB_CONTAINER_IMAGE"
# Options LSF keeps for its own use (docker and podman run).
_RESERVED = ("--user", "-u", "--name", "--cgroup-parent", "-w", "--workdir",
             "--ulimit", "--rootfs")


@dataclass(frozen=True)
class Container:
    runtime: str
    image: str
    options: tuple = ()

    @property
    def needs(self):
        """The runtime a host must have (singularity and apptainer are
        one program under two names: either serves)."""
        return "apptainer" if self.runtime == "singularity" else self.runtime


class BadContainer(ValueError):
    pass


def parse(value):
    """The Container of a CONTAINER value; BadContainer names what is
    wrong."""
    value = " ".join(str(value).split())
    head, _, rest = value.partition("[")
    runtime = head.strip().lower()
    if not rest.endswith("]") or not runtime:
        raise BadContainer(text("CONFIG_CONTAINER_SYNTAX", value=value))
    if runtime not in RUNTIMES:
        raise BadContainer(text("CONFIG_CONTAINER_RUNTIME", runtime=runtime))
    words = _keywords(rest[:-1], value)
    image = words.pop("image", "").strip()
    if not image:
        raise BadContainer(text("CONFIG_CONTAINER_IMAGE", value=value))
    if image.startswith("/") and runtime == "docker":
        raise BadContainer(text("CONFIG_CONTAINER_ROOTFS", image=image))
    options = words.pop("options", "").strip()
    if "starter" in words:
        raise BadContainer(text("CONFIG_CONTAINER_STARTER"))
    if words:
        raise BadContainer(text("CONFIG_CONTAINER_KEYWORD",
                                keyword=sorted(words)[0]))
    if options.startswith("@"):
        raise BadContainer(text("CONFIG_CONTAINER_SCRIPT", value=options))
    try:
        argv = tuple(shlex.split(options))
    except ValueError:
        raise BadContainer(text("CONFIG_CONTAINER_SYNTAX", value=value))
    for word in argv:
        if word.split("=", 1)[0] in _RESERVED:
            raise BadContainer(text("CONFIG_CONTAINER_RESERVED",
                                    option=word.split("=", 1)[0]))
    return Container(runtime, image, argv)


def _keywords(body, value):
    """{keyword: its parenthesised text} of ``image(...) options(...)``;
    parentheses inside a value nest."""
    out, at = {}, 0
    while at < len(body):
        if body[at] == " ":
            at += 1
            continue
        open_at = body.find("(", at)
        name = body[at:open_at].strip().lower() if open_at > 0 else ""
        if not re.fullmatch(r"[a-z_]+", name) or name in out:
            raise BadContainer(text("CONFIG_CONTAINER_SYNTAX", value=value))
        depth, end = 0, open_at
        for end in range(open_at, len(body)):
            depth += {"(": 1, ")": -1}.get(body[end], 0)
            if depth == 0:
                break
        if depth:
            raise BadContainer(text("CONFIG_CONTAINER_SYNTAX", value=value))
        out[name] = body[open_at + 1:end]
        at = end + 1
    return out


def image_of(container, env):
    """The image a job runs: the profile's, or the job's
    LSB_CONTAINER_IMAGE where the profile asks for it (None: unset)."""
    if container.image != IMAGE_VARIABLE:
        return container.image
    value = str((env or {}).get("LSB_CONTAINER_IMAGE") or "").strip()
    # A word the runtime would read as an option is no image.
    return value if value and not value.startswith("-") else None
