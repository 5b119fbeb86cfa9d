"""The commands' re-free readers and their JSON codec say what the regular
expressions and the json package they replaced said, for any input.

The patterns below are the ones the modules used before they stopped
loading ``re`` and ``json`` (whose import cost more than a command's work).
"""

import json
import re

from hypothesis import given, settings, strategies as st

from xce.model import jobid, jsoncodec, numbers
from xce.spool.client import _is_seconds

# Characters that matter to the readers, and some that look like them.
_ALPHABET = st.sampled_from(list("0123456789+-.[] \t\n\x0b\x1c\u00a0"
                                 "\u3000\uff13\u00b2_ae"))
WORDS = st.text(_ALPHABET, max_size=12) | st.text(max_size=8)


@given(WORDS)
def test_whole_numbers_read_as_the_pattern_read_them(word):
    matched = re.match(r"[+-]?[0-9]+\Z", word) and len(word) <= 20
    assert numbers.whole(word, low=None, high=None) == \
        (int(word) if matched else None)


@given(WORDS)
def test_digits_read_as_the_pattern_read_them(word):
    assert numbers.digits(word) == bool(re.match(r"[0-9]+\Z", word))


def _old_jobid(text):
    m = re.match(r"^\s*([0-9]+)(?:\[([0-9]+)\])?\s*$", text)
    if not m:
        return "bad"
    idx = m.group(2)
    return int(m.group(1)), (int(idx) if idx is not None else None)


@given(WORDS)
def test_job_ids_read_as_the_pattern_read_them(word):
    try:
        got = jobid.parse(word)
    except jobid.BadJobId:
        got = "bad"
    assert got == _old_jobid(word)


@given(WORDS)
def test_request_timeouts_read_as_the_pattern_read_them(word):
    pattern = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z"
    assert _is_seconds(word) == bool(re.match(pattern, word, re.ASCII))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) |
    st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=200)
@given(JSON_VALUES)
def test_the_codec_writes_what_json_writes(value):
    assert jsoncodec.dumps_compact(value) == \
        json.dumps(value, separators=(",", ":"))
    assert jsoncodec.dumps(value) == json.dumps(value)


def _outcome(read, text):
    try:
        return "ok", repr(read(text))     # repr: nan == nan
    except Exception as e:     # the very error json gives, or its absence
        return type(e).__name__, str(e)


@settings(max_examples=300)
@given(st.one_of(
    JSON_VALUES.map(json.dumps),
    JSON_VALUES.map(lambda v: " \n" + json.dumps(v, indent=1) + "\t"),
    st.text(st.sampled_from(list('[]{}",:0123456789.eE+- \t\nnultrfa\\'
                                 '\ufeff\x00')), max_size=14),
    st.text(max_size=10)))
def test_the_codec_reads_what_json_reads(text):
    assert _outcome(jsoncodec.loads, text) == _outcome(json.loads, text)
    data = text.encode("utf-8", "surrogatepass")
    assert _outcome(jsoncodec.loads, data) == _outcome(json.loads, data)


def test_the_codec_reads_bytes_in_other_encodings_as_json_does():
    for data in ('{"a": 1}'.encode("utf-16"), b"\xef\xbb\xbf[1]",
                 '[2]'.encode("utf-32-le"), b"\xff", b"[1] x", b""):
        assert _outcome(jsoncodec.loads, data) == _outcome(json.loads, data)


def test_the_codec_refuses_what_json_refuses():
    for value in ({1: object()}, [set()], float, {(1,): 2}):
        assert _outcome(jsoncodec.dumps_compact, value) == \
            _outcome(lambda v: json.dumps(v, separators=(",", ":")), value)
    loop = []
    loop.append(loop)
    assert _outcome(jsoncodec.dumps, loop) == _outcome(json.dumps, loop)


@given(WORDS)
def test_bsub_checks_job_names_as_arrayspec_does(word):
    from xce.cli import bsub
    from xce.client.submit.options import SubmitError
    from xce.model import arrayspec
    assert bsub._PLAIN_NAME_MAX == arrayspec.MAX_JOB_NAME_LENGTH
    for name in (word, "j" * 4094 + word):
        try:
            arrayspec.check_job_name(name)
            expected = None
        except arrayspec.ArraySpecError as e:
            expected = e.message
        try:
            bsub._check_job_name(name)
            got = None
        except SubmitError as e:
            got = str(e)
        assert got == expected


@given(WORDS)
def test_slot_words_read_as_the_pattern_read_them(word):
    from xce.client.submit.options import slot_words
    m = re.fullmatch(r"\s*([+-]?[0-9]+)\s*(?:,\s*([+-]?[0-9]+)\s*)?", word,
                     re.ASCII)
    assert slot_words(word) == (m.groups() if m else None)


def test_bsub_knows_every_limit_without_loading_rlimits():
    from xce.client.submit import limits
    from xce.lang import rlimits
    assert limits.KEYS == tuple(limit.key for limit in rlimits.LIMITS)


def test_bad_text_gets_json_s_error_in_a_process_that_never_loaded_json():
    # Commands never import json; _json's scanner then has no
    # JSONDecodeError to raise (this test process has, so run a fresh one).
    import subprocess
    import sys
    code = ("import sys\nfrom xce.model import jsoncodec\n"
            "assert 'json.decoder' not in sys.modules\n"
            "for bad in ('{not json', '[1,', '\"x'):\n"
            "    try:\n        jsoncodec.loads(bad)\n"
            "    except ValueError as e:\n"
            "        print(type(e).__name__)\n")
    r = subprocess.run([sys.executable, "-S", "-c", code],
                       capture_output=True, text=True)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.split() == ["JSONDecodeError"] * 3
