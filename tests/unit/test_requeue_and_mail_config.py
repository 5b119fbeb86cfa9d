"""Requeue exit value lists (bsub -Q, REQUEUE_EXIT_VALUES) and the job-mail
settings: their forms, and the configuration errors a bad value gives."""

import pytest

from xce.config.load import ConfigError, load
from xce.model import mailconf, requeue

from tests.unit.test_config_ranges import BASE



@pytest.mark.parametrize("text, codes", [
    ("3 7", {3: "requeue", 7: "requeue", 0: None, 4: None}),
    ("all ~1 ~2 EXCLUDE(9)", {0: None, 1: None, 2: None, 3: "requeue",
                              9: "exclude", 255: "requeue"}),
    ("30 EXCLUDE(20 21)", {30: "requeue", 20: "exclude", 21: "exclude",
                           1: None}),
    ("0", {0: "requeue", 1: None}),
    ("ALL", {5: "requeue", 0: None}),
])
def test_requeue_lists_in_lsf_forms(text, codes):
    found = requeue.parse(text)
    assert {c: found.action(c) for c in codes} == codes


def test_a_list_is_written_back_in_lsf_form():
    assert requeue.normalised(requeue.parse(" 7  3 exclude( 9 )")) == \
        "3 7 EXCLUDE(9)"
    assert requeue.normalised(requeue.parse("all ~2 ~1")) == "all ~1 ~2"


@pytest.mark.parametrize("bad", ["abc", "1 all", "all 3", "~2", "256", "-1",
                                 "EXCLUDE()", "EXCLUDE(1) EXCLUDE(2)",
                                 "EXCLUDE(x)", "all all"])
def test_bad_requeue_lists_are_refused(bad):
    with pytest.raises(requeue.BadRequeueValues):
        requeue.parse(bad)


def _errors(tmp_path, params="", queue=""):
    (tmp_path / "xce.yaml").write_text(BASE.format(params=params, host="",
                                                   queue=queue))
    with pytest.raises(ConfigError) as e:
        load(tmp_path)
    return "\n".join(e.value.errors)


def test_bad_queue_requeue_exit_values_is_a_config_error(tmp_path):
    text = _errors(tmp_path, queue="    REQUEUE_EXIT_VALUES: 1 all")
    assert "REQUEUE_EXIT_VALUES" in text
    assert "<1 all> is not a requeue exit value list" in text


def test_a_good_queue_list_is_kept_in_normal_form(tmp_path):
    (tmp_path / "xce.yaml").write_text(BASE.format(
        params="", host="", queue="    REQUEUE_EXIT_VALUES: EXCLUDE(4) 9 2"))
    assert load(tmp_path).queues["normal"].requeue == "2 9 EXCLUDE(4)"


@pytest.mark.parametrize("line, said", [
    ("  LSB_MAILPROG: sendmail", "LSB_MAILPROG <sendmail> is not an "
     "absolute path"),
    ("  LSB_MAILSERVER: 'mail:x'", "LSB_MAILSERVER <mail:x> is not "
     "SMTP:host[:port]"),
])
def test_bad_mail_settings_are_config_errors(tmp_path, line, said):
    assert said in _errors(tmp_path, params=line)


def test_mail_settings_forms():
    assert mailconf.server("SMTP:mx.example.org") == ("mx.example.org", 25)
    assert mailconf.server("smtp:127.0.0.1:2525") == ("127.0.0.1", 2525)
    assert mailconf.recipient(None, "ann") == "ann"
    assert mailconf.recipient("!U@example.org", "ann") == "ann@example.org"
    assert mailconf.recipient("ops@example.org", "ann") == "ops@example.org"
