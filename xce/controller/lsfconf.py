"""The lsf.conf the controller writes into the environment directory.

Commands find the spool through it, and real LSF tools read their settings
from it (LSF_UNIT_FOR_LIMITS, LSB_SHAREDIR, ...).
"""

import os

from xce import LSF_COMPAT_VERSION
from xce.envdir import LSF_CONF, SPOOL_KEY

# lsf.conf keys copied from the configuration's parameters when present.
LSF_CONF_KEYS = ("LSF_UNIT_FOR_LIMITS", "LSB_JOB_MEMLIMIT",
                 "RESOURCE_RESERVE_PER_TASK", "LSB_BJOBS_CONSISTENT_EXIT_CODE",
                 "XCE_REQUEST_TIMEOUT")


def lsf_conf_lines(envdir, cfg):
    unit = cfg.params.get("LSF_UNIT_FOR_LIMITS", "KB")
    lines = [
        "# Written by the xce controller from xce.yaml; edits are overwritten.",
        f"{SPOOL_KEY}={cfg.spool}",
        f"LSF_ENVDIR={envdir}",
        f"LSF_CONFDIR={envdir}",
        f"LSB_SHAREDIR={cfg.spool}",
        f"LSF_VERSION={LSF_COMPAT_VERSION}",
        f"LSF_UNIT_FOR_LIMITS={unit}",
        f"XCE_CLUSTER_NAME={cfg.cluster_name}",
    ]
    for key in LSF_CONF_KEYS[1:]:
        if key in cfg.params:
            lines.append(f"{key}={cfg.params[key]}")
    return lines


def write_lsf_conf(envdir, cfg):
    path = envdir / LSF_CONF
    tmp = envdir / f".{LSF_CONF}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lsf_conf_lines(envdir, cfg)) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
