"""bhosts -R: the hosts whose resources satisfy a select[] expression.

A host is seen as the scheduler sees it (hname, type, model, ncpus,
maxslots, maxmem and mem, maxswp and swp, its configured resources), plus
the load indices its agent last reported, so ``bhosts -R`` answers which
hosts a job asking for the same select[] could run on.  Memory amounts are
in LSF_UNIT_FOR_LIMITS, as the numbers of the expression are.
"""

from xce.errors import XceError, text as err_text
from xce.lang import resreq
from xce.lang.resreq.common import LOAD_INDICES, ResReqError
from xce.lang.units import kb_in_unit
from xce.model.resources import Catalog


def resources(host, unit, catalog=None):
    """What a select[] reads of one host row of the store; its configured
    resources typed by their definitions (xce.model.resources)."""
    catalog = catalog or Catalog.build({})
    res = {"hname": host["name"], "server": True, "type": host["type"] or "",
           "model": host["model"] or "", "maxslots": host["mxj"]}
    if host["ncpus"]:
        res["ncpus"] = host["ncpus"]
    for name, kb in (("mem", host["maxmem"]), ("swp", host["maxswp"])):
        if kb is not None:
            res["max" + name] = res[name] = kb_in_unit(kb, unit)
    load = host.get("load") or {}
    res.update((k, load[k]) for k in LOAD_INDICES if load.get(k) is not None)
    res.update(load.get("ext") or ())       # what the host's elims report
    res.update(catalog.host_values((host.get("conf") or {}).get(
        "resources")))
    return res


def matching(hosts, text, unit="KB", catalog=None):
    """The hosts that satisfy the select[] of *text* (all if it has none).

    A string that does not parse is LSF's ``Bad resource requirement
    syntax``; a resource name no host has simply matches no host.
    """
    try:
        req = resreq.parse(text, unit=unit)
    except ResReqError:
        raise XceError(err_text("BAD_RESREQ"))
    return [h for h in hosts if req.matches(resources(h, unit, catalog))]
