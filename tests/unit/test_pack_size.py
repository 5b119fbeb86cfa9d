"""bsub -pack sends at most LSB_MAX_PACK_JOBS lines per request, refuses
to run when it is 0, and LSB_PACK_SKIP_ERROR=N (stop at the first failing
line, which xce does not do) is refused by the loader."""

from types import SimpleNamespace

import pytest

from xce.client.submit import pack
from xce.config.load import ConfigError
from xce.errors import XceError

from tests.lib.builders import site as load_site


def _submit(tmp_path, conf, lines=5, fail_request=None):
    path = tmp_path / "jobs.pack"
    path.write_text("".join(f"-J j{i} true\n" for i in range(lines)))
    sent = []

    def call(site, kind, body):
        sent.append([s["name"] for s in body["specs"]])
        if len(sent) == fail_request:
            return {"error": "Request timed out"}
        return {"results": [{"ok": True, "jobid": 7, "queue": "normal"}
                            for _ in body["specs"]]}

    def parse(words):
        return {"name": words[1], "command": words[2:]}
    code = pack.submit_pack(SimpleNamespace(conf=conf), str(path), parse,
                            lambda opts: dict(opts), call)
    return code, sent


def test_lines_go_in_requests_of_at_most_lsb_max_pack_jobs(tmp_path):
    code, sent = _submit(tmp_path, {"LSB_MAX_PACK_JOBS": "2"})
    assert code == 0
    assert sent == [["j0", "j1"], ["j2", "j3"], ["j4"]]
    code, sent = _submit(tmp_path, {})
    assert len(sent) == 1 and len(sent[0]) == 5      # unset: one request


def test_a_failed_later_request_reports_its_lines(tmp_path, capsys):
    code, sent = _submit(tmp_path, {"LSB_MAX_PACK_JOBS": "2"},
                         fail_request=2)
    assert code == 255 and len(sent) == 3
    out, err = capsys.readouterr()
    assert "5 lines parsed, 3 jobs submitted, 2 errors found." in out
    assert err.splitlines() == [
        "Line#3: Request timed out. Job not submitted.",
        "Line#4: Request timed out. Job not submitted."]


def test_zero_disables_job_packs(tmp_path):
    with pytest.raises(XceError) as e:
        _submit(tmp_path, {"LSB_MAX_PACK_JOBS": "0"})
    assert str(e.value) == ("-pack: Job packs are disabled "
                            "(LSB_MAX_PACK_JOBS=0). Job not submitted.")


def test_pack_skip_error_n_and_a_negative_size_are_refused(tmp_path):
    base = "cluster:\n  name: c\nqueues:\n  normal: {}\nparameters:\n"
    load_site(tmp_path, base + "  LSB_PACK_SKIP_ERROR: Y\n"
              "  LSB_MAX_PACK_JOBS: 300\n")
    with pytest.raises(ConfigError) as e:
        load_site(tmp_path, base + "  LSB_PACK_SKIP_ERROR: N\n"
                  "  LSB_MAX_PACK_JOBS: -1\n")
    text = "\n".join(e.value.errors)
    assert ":6: LSB_PACK_SKIP_ERROR: xce submits every line of a pack " \
        "file and reports each one that fails" in text
    assert ":7: LSB_MAX_PACK_JOBS:" in text
