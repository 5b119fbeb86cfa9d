"""The ``parameters`` that bound the spool (xce.yaml(5), xce-controller(8)):
free space kept for running jobs, and what one user may have waiting in
incoming/ or kept in rejected/.  Their ranges are in config/ranges.py."""

# key -> (SpoolLimits field, scale to its unit, default).  The defaults
# are documented in xce.yaml(5); bounds.SpoolLimits has the same ones.
KEYS = {
    "XCE_SPOOL_MIN_FREE": ("min_free", 1 << 20, 64),
    "XCE_SPOOL_USER_REQUESTS": ("user_requests", 1, 10000),
    "XCE_SPOOL_USER_MB": ("user_bytes", 1 << 20, 256),
    "XCE_REJECTED_USER_FILES": ("rejected_user_files", 1, 100),
    "XCE_REJECTED_USER_MB": ("rejected_user_bytes", 1 << 20, 16),
    "XCE_REJECTED_KEEP_DAYS": ("rejected_keep", 86400.0, 7),
    "XCE_REJECTED_MAX_MB": ("rejected_bytes", 1 << 20, 256),
}


def limit_values(params):
    """The bounds as SpoolLimits keyword arguments, defaults filled in."""
    out = {}
    for key, (name, scale, default) in KEYS.items():
        try:
            number = int(str(params.get(key, default)).strip())
        except ValueError:
            number = default
        out[name] = number * scale
    return out
