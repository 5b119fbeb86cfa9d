"""A GPU job's checks at submission (bsub -gpu, GPU_REQ): the string
reads, LSB_GPU_NEW_SYNTAX lets jobs ask for GPUs, and some host could
ever hold the merged requirement.  A requirement that no host the job
may use could meet is refused now (LSF's exit 255, nothing submitted);
one that only waits for devices in use pends with the shortfall as its
reason.  Hosts whose devices are not known yet (not declared, agent not
heard from) might have them: then the job is accepted and waits."""

from xce.config import gpuconf
from xce.errors import text
from xce.lang import gpureq
from xce.model import gpus as devices
from xce.scheduler import gpus


def check(ctl, q, spec, rejected):
    """Raise *rejected* with the reason when the job's GPU request is
    bad or can never be met."""
    own = spec.get("gpu")
    if own is not None:
        if not gpuconf.enabled(ctl.cfg):
            raise rejected(text("GPU_SYNTAX_OFF"))
        try:
            gpuconf.parsed(own)
        except gpureq.GpuReqError as e:
            raise rejected(text("GPU_BAD_REQ", detail=str(e)))
    req = gpuconf.effective(ctl.cfg, spec, q.name)
    if req is None:
        return
    known = {}
    for name in (q.hosts if q.hosts is not None else ctl.hosts):
        h = ctl.hosts.get(name)
        if h is None:
            continue
        if h["conf"].gpus is None and "gpus" not in h["facts"]:
            return      # not known yet: the job may wait for it
        known[name] = devices.of_host(h["conf"].gpus, h["facts"])
    why, most = gpus.never(req, known)
    if why == "none":
        raise rejected(text("GPU_NO_MODEL", req=gpureq.show(req)))
    if why == "few":
        raise rejected(text("GPU_TOO_MANY", req=gpureq.show(req),
                            most=most))
