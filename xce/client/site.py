"""Where a command finds its cluster and reads its state.

Every query command starts here: the site (the environment directory and
its ``lsf.conf``), a read-only view of the store, the caller's name and
the configuration sections the controller keeps in the store.  Commands
reach the store through ``xce.client`` (this module), never ``xce.store``.
"""


from xce import oslite
from xce.envdir import Site
from xce.model import jsoncodec


def _reader(path, history=False):
    # Imported here, not at the top: the commands that only send requests
    # (bkill, bsub, ...) take Site from this module and never load sqlite3.
    from xce.store.reader import Reader
    return Reader(path, history=history)


def open_state():
    """The site and a read-only view of its store."""
    site = Site()
    return site, _reader(site.store_file)


def open_store(site=None, history=False):
    """A read-only view of the store of *site* (found from the environment
    when not given); usable in a ``with`` block.  With *history* its jobs
    and events are also those the controller moved out of the store
    CLEAN_PERIOD after they finished (bhist, bacct)."""
    return _reader((site or Site()).store_file, history)


def store_at(path):
    """A read-only view of the store file at *path*, for ``xce start``,
    which knows its spool from the configuration rather than lsf.conf."""
    return _reader(path)


def store_error(error):
    """The one line a command prints when reading the store failed."""
    from xce.store.reader import read_error
    return read_error(error)


def current_user():
    import pwd      # here: bsub, which needs no name, does not load it
    try:
        return pwd.getpwuid(oslite.getuid()).pw_name
    except KeyError:
        return str(oslite.getuid())


def sections(reader):
    """The stored configuration sections, each {} (or []) when absent.

    The controller keeps the sections the information commands need
    (``users``, ``user_groups``, ``host_groups``, ``limits``,
    ``applications``, ``projects``, ``service_classes``) as one JSON document in the
    store's ``meta`` table (``config_sections``)."""
    raw = reader.meta().get("config_sections")
    data = jsoncodec.loads(raw) if raw else {}
    return {k: data.get(k) or ([] if k == "limits" else {})
            for k in ("users", "user_groups", "host_groups", "limits",
                      "applications", "projects", "service_classes")}
