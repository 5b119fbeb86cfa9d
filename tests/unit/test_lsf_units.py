"""LSF's units of limits (xce.lang.units), one table per quantity: the
input, the LSF_UNIT_FOR_LIMITS setting where it matters, and the value
or the refusal.  The rows marked "was:" pin the points on which xce's two
earlier parsers (xce.yaml and bsub's, and the lsb.* migrator's) disagreed,
settled as LSF documents them."""

import pytest

from xce.lang import units

BAD = ValueError
KB, MB, GB = 1, 1024, 1024 ** 2


def _check(call, expected, match=None):
    """call() gives *expected*, or raises ValueError (matching *match*)
    when *expected* is BAD."""
    if expected is BAD:
        with pytest.raises(ValueError, match=match):
            call()
    else:
        assert call() == expected


@pytest.mark.parametrize("text, unit, expected", [
    ("4096", "KB", 4096),
    ("100", "MB", 100 * MB),
    ("2", "GB", 2 * GB),
    ("1G", "MB", 1 * GB),             # a suffix overrides the setting
    ("300M", "KB", 300 * MB),
    ("4gb", "KB", 4 * GB),            # any case
    ("4 GB", "KB", 4 * GB),
    ("2E", "KB", 2 * 1024 ** 5),
    ("1.5", "MB", 1536),              # fractions are read as written
    ("0.3M", "KB", 307),              # whole KB, rounded down
    ("100", "mb", 100 * MB),          # the setting in any case
    ("100", "", 100),                 # was: bytes in the migrator; KB
    ("100", None, 100),
    (str(2 ** 53), "KB", 2 ** 53),    # 2^63 bytes, LSF's largest
    (str(2 ** 53 + 1), "KB", BAD),
    ("1Z", "KB", BAD),                # was: no Z in the migrator; a unit,
                                      # but beyond 2^63 bytes
    ("4.", "KB", BAD),                # was: 4 KB in xce.yaml and bsub
    ("１０", "KB", BAD),               # was: 10 in the migrator
    ("12XB", "KB", BAD),
    ("4B", "KB", BAD),
    ("lots", "KB", BAD),
    ("-5", "KB", BAD),
    ("100", "M", BAD),                # was: MB in xce.yaml and bsub
    ("100", "ZB", BAD),               # was: ZB in xce.yaml and bsub
    ("100", "XB", BAD),
])
def test_memory_amounts_in_kb(text, unit, expected):
    _check(lambda: units.memory_kb(text, unit), expected, "bad MEMLIMIT")
    _check(lambda: units.size_bytes(text, unit) // 1024, expected)


@pytest.mark.parametrize("amount, suffix, unit, expected", [
    (4096, "MB", "GB", 4),
    (1, "ZB", "EB", 1024),            # Z is a unit in -R as in -M
    (2, "G", "MB", 2048),
    (512, "KB", "MB", 0.5),
    (1, "XB", "KB", BAD),
    (1, "MB", "M", BAD),              # was: MB in -R strings
])
def test_suffixed_amounts_in_the_unit_for_limits(amount, suffix, unit,
                                                 expected):
    _check(lambda: units.in_unit(amount, suffix, unit), expected)


@pytest.mark.parametrize("text, expected", [
    ("KB", "KB"), ("mb", "MB"), ("Gb", "GB"), ("EB", "EB"),
    (None, "KB"), ("", "KB"),         # unset: LSF's default
    ("M", BAD), ("ZB", BAD), ("XB", BAD), ("B", BAD),
])
def test_the_unit_for_limits_setting(text, expected):
    _check(lambda: units.normal_unit(text), expected,
           "LSF_UNIT_FOR_LIMITS must be")


# lsb.* files (limit_minutes) and xce.yaml's RUNLIMIT (minutes), side by
# side.
@pytest.mark.parametrize("text, in_lsf_files, in_xce_inputs", [
    ("90", (90, None), 90),
    ("210", (210, None), 210),        # minutes alone may pass 59
    ("1:30", (90, None), 90),
    ("01:05", (65, None), 65),
    ("0:59", (59, None), 59),
    ("1:75", BAD, BAD),               # was: 135 in the migrator
    ("0.5", BAD, 0.5),                # as before: LSF's files hold whole
                                      # minutes, xce.yaml takes fractions
                                      # for sub-minute limits
    ("1:30.5", BAD, 90.5),
    ("24:0/apple", (1440, "apple"), BAD),   # was: refused as unreadable
                                            # in xce.yaml; now as a
                                            # normaliser xce lacks
    ("35791394", (35791394, None), 35791394),   # 2147483647 s
    ("35791395", BAD, BAD),           # was: no bound in the migrator
    ("１０", BAD, BAD),                # was: 10 in the migrator
    ("forever", BAD, BAD),
    ("-5", BAD, BAD),
    ("", BAD, BAD),
])
def test_run_limits_in_minutes(text, in_lsf_files, in_xce_inputs):
    _check(lambda: units.limit_minutes(text), in_lsf_files)
    _check(lambda: units.minutes(text), in_xce_inputs,
           "bad RUNLIMIT value|/apple")


@pytest.mark.parametrize("text, expected", [
    ("60 720", ["60", "720"]),
    ("60", ["60", "60"]),             # one value is default and maximum
    ("  60   720 ", ["60", "720"]),
    ("1 2 3", BAD),
    ("", BAD),
])
def test_default_and_maximum_pairs(text, expected):
    _check(lambda: units.limit_pair(text), expected)


def test_a_dash_is_unreadable_in_lsf_files():
    # LSF ignores RUNLIMIT = - with a warning; the migrator reports it.
    with pytest.raises(ValueError):
        units.limit_pair("-", units.limit_minutes)


# bsub -W and bmod -W: the same clock syntax, LSF's words for each refusal.
@pytest.mark.parametrize("text, fractions, expected", [
    ("90", False, 90.0),
    ("1:30", False, 90.0),
    ("35791394", False, 35791394.0),
    ("0.5", True, 0.5),
    ("1:30.5", True, 90.5),
    ("0.5", False, "0.5: Bad RUNLIMIT specification"),
    ("1:60", False, "1:60: Bad RUNLIMIT specification"),
    ("24:0/apple", False, "24:0/apple: Bad RUNLIMIT specification"),
    ("１０", False, "１０: Bad RUNLIMIT specification"),
    ("-5", False, "-5: Bad RUNLIMIT specification"),
    ("35791395", False, "35791395: RUNLIMIT value is too big"),
    ("0", False, "0: RUNLIMIT value should be a positive integer"),
    ("0:0", True, "0:0: RUNLIMIT value should be a positive integer"),
])
def test_bsub_run_limits(text, fractions, expected):
    from xce.client.submit.options import SubmitError, parse_runlimit
    if isinstance(expected, float):
        assert parse_runlimit(text, fractions) == expected
        return
    with pytest.raises(SubmitError) as refused:
        parse_runlimit(text, fractions)
    assert str(refused.value) == expected
