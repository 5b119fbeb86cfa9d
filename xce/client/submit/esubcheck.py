"""Whether a submission needs the esub machinery at all.

Kept apart from xce.client.submit.esub (subprocess, tempfile, shutil) so
that bsub on a site without esub or epsub loads none of it.
"""

from xce import oslite


def wanted(site, asked):
    """True when LSF_SERVERDIR holds an esub or epsub (plain or for an
    application), or the job names applications (-a, LSB_ESUB_METHOD)."""
    if asked or site.setting("LSB_ESUB_METHOD"):
        return True
    serverdir = site.setting("LSF_SERVERDIR")
    if not serverdir:
        return False
    try:
        names = oslite.listdir(serverdir)
    except OSError:
        return False
    return any(n in ("esub", "epsub") or n.startswith(("esub.", "epsub."))
               for n in names)
