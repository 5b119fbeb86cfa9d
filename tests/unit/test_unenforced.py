"""The controller's start/reconfig warnings name every key of xce.yaml it
does not act on, with the reason the key table gives."""

from xce.config import unenforced


def test_not_needed_and_not_carried_keys_are_warned_with_their_reason():
    lines = unenforced.lines({"parameters": {
        "SBD_SLEEP_TIME": 7, "LSF_LIM_PORT": 6322,
        "LSF_MASTER_LIST": "a b", "MAX_SBD_FAIL": 3, "DEFAULT_QUEUE": "q"}})
    text = "\n".join(lines)
    assert "params key SBD_SLEEP_TIME (parameters): not needed in xce, " \
        "not acted on: xce's agent reports" in text
    assert "lsf.conf key LSF_LIM_PORT (parameters): not needed in xce" in text
    assert "lsf.conf key LSF_MASTER_LIST (parameters): not acted on: xce " \
        "runs one controller" in text
    assert "params key MAX_SBD_FAIL (parameters): not acted on: xce " \
        "counts no failed contacts" in text
    assert "DEFAULT_QUEUE" not in text      # enforced: nothing to say
