"""A host's GPU devices (resource instances a job claims by identity).

A device is a dict: id (the index CUDA_VISIBLE_DEVICES names), model
(no blanks, as LSF shows it), mem (total memory, MB), state (OK, or why
no job may use it) and, when known, uuid.  Devices come from the host's
`gpus:` list in xce.yaml (xce.config.gpuconf.declared) or, when it
declares none, from what the agent detected (xce.agent.gpus); everything
after this module treats both alike.  Pure and stdlib-only.
"""

from xce.model import states

MAX_DEVICES = 64
OK = states.HOST_OK      # a device any job may use
STATES = (OK, "prohibited", "down")


def of_host(conf_gpus, facts):
    """The devices a host offers: declared ones, else detected ones
    (well-formed entries only: the agent's report is not trusted)."""
    if conf_gpus is not None:
        return conf_gpus
    out = []
    for dev in (facts or {}).get("gpus") or []:
        if isinstance(dev, dict) and isinstance(dev.get("id"), int) and \
                isinstance(dev.get("model"), str) and \
                isinstance(dev.get("mem"), (int, float)):
            out.append({"id": dev["id"], "model": dev["model"],
                        "mem": float(dev["mem"]),
                        "state": str(dev.get("state", OK))})
    return out[:MAX_DEVICES]


def matches_model(dev, gmodel, gmodel_mem):
    """gmodel=NAME[-SIZE]: the full model, or its brand (a prefix), and
    when a size is given the device's total memory rounded to GB."""
    if gmodel is None:
        return True
    model = dev["model"].lower()
    if not model.startswith(gmodel.lower()):
        return False
    return gmodel_mem is None or \
        round(dev["mem"] / 1024) == round(gmodel_mem / 1024)


def job_env(alloc, host):
    """The variables that tell a job's processes on *host* which GPUs
    are theirs (alloc: the job's spec gpu_alloc); {} for no GPU job.
    CUDA_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL list the host's device
    ids; LSB_GPU_ALLOC_INFO holds the whole job's, host:id,id host:id."""
    hosts = (alloc or {}).get("hosts")
    if not hosts:
        return {}
    ids = ",".join(str(i) for i in hosts.get(host) or ())
    return {"CUDA_VISIBLE_DEVICES": ids, "GPU_DEVICE_ORDINAL": ids,
            "LSB_GPU_ALLOC_INFO": " ".join(
                f"{h}:" + ",".join(str(i) for i in v)
                for h, v in hosts.items())}
