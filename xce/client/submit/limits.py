"""bsub's limit options -c -v -S -F -D -C -p -T into the job spec
(xce.lang.rlimits reads each value; this puts LSF's words on a refusal)."""

from xce.errbase import about

# The spec keys of rlimits.LIMITS (a unit test holds them together): a job
# that sets no limit does not load rlimits, which loads re, typing and
# decimal (tests/unit/test_imports.py).
KEYS = ("cpulimit", "filelimit", "datalimit", "stacklimit", "corelimit",
        "swaplimit", "processlimit", "threadlimit")


def parse_limits(opts, unit, fractions=False):
    """{spec key: value} of the limits given in *opts* (keyed as the spec
    is: cpulimit, filelimit, ...): KB for sizes in *unit*
    (LSF_UNIT_FOR_LIMITS), minutes for the CPU limit with its normalising
    host or model under cpulimit_host.  SubmitError with LSF's message for
    a bad value."""
    if all(opts.get(key) is None for key in KEYS):
        return {}
    from xce.client.submit.options import SubmitError
    from xce.lang import rlimits
    spec = {}
    for limit in rlimits.LIMITS:
        value = opts.get(limit.key)
        if value is None:
            continue
        try:
            parsed = rlimits.job_value(limit, value, unit, fractions)
        except rlimits.LimitError as e:
            raise SubmitError(about(e.value, e.key, name=e.name))
        if limit.kind == "time":
            spec[limit.key], host = parsed
            if host:
                spec[rlimits.CPU_HOST] = host
        else:
            spec[limit.key] = parsed
    return spec
