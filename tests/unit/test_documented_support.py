"""What the documentation and the migration report say is supported or
enforced agrees with the code: the options bsub's parser takes, and the
configuration keys the loader and the controller act on."""

import dataclasses
import re
from pathlib import Path

import pytest

from xce.cli import bsub
from xce.cli.lsfargs import UsageError
from xce.config import keys
from xce.config.migrate import migrate
from xce.config.model import HostConf, QueueConf

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "tests" / "unit" / "data" / "lsf" / "site"


def _man_words(text):
    """The words of a roff passage: font requests, quotes and commas out."""
    text = re.sub(r"^\.\w+ ?", "", text, flags=re.M).replace("\\-", "-")
    return [w for w in re.split(r"[\s\",]+", text) if w]


def _bsub_unsupported():
    page = (REPO / "man" / "man1" / "bsub.1").read_text()
    start = page.index("are not supported yet, among them")
    end = page.index("Each is refused with", start)
    words = _man_words(page[start:end])
    return [w for w in words if w.startswith("-") and len(w) > 1]


def test_bsub_man_page_lists_the_options_the_parser_refuses():
    assert _bsub_unsupported() == list(bsub.UNSUPPORTED)
    taken = {flag for opt in bsub.OPTIONS for flag in opt.flags}
    assert sorted(set(bsub.UNSUPPORTED) & taken) == []
    for flag in bsub.UNSUPPORTED:
        with pytest.raises(UsageError) as e:
            bsub.PARSER.parse([flag, "x", "true"])
        assert str(e.value) == f"bsub: option {flag} is not supported by xce"


def test_bsub_man_page_describes_every_option_the_parser_takes():
    # Each taken option is named in a font request of bsub(1) (its own
    # entry, or one shared with its kin, e.g. ".BR -c -v -S -F ...").
    page = (REPO / "man" / "man1" / "bsub.1").read_text()
    named = set()
    for line in page.splitlines():
        if re.match(r"\.(B|BI|BR|IR|I)\s", line):
            named.update(w for w in _man_words(line) if w.startswith("-"))
    taken = [flag for opt in bsub.OPTIONS for flag in opt.flags]
    assert [f for f in taken if f not in named] == []


# Model fields whose LSF key is not the field's name in upper case.
_FIELD_KEYS = {"users_excluded": "USERS", "host_limit": "HOSTLIMIT_PER_JOB",
               "jl_u": "JL/U", "resources": "RESOURCES"}
# The raw LSF keys of a queue that the controller reads itself.
_RAW_READ = re.compile(r"raw(?: or \{\})?\)?\.get\(\"([A-Z][A-Z_/]*)\"")


def _model_keys(model, scopes):
    """(scope, LSF key) of every field of MODEL that holds an LSF key."""
    found = set()
    for f in dataclasses.fields(model):
        name = _FIELD_KEYS.get(f.name, f.name.upper())
        for scope in scopes:
            for known in keys.known(scope):
                if known.upper() == name.upper():
                    found.add((scope, known))
    return found


def _raw_queue_keys():
    found = set()
    for path in (REPO / "xce").rglob("*.py"):
        if "config" not in path.parts:
            found.update(("queue", k) for k in _RAW_READ.findall(
                path.read_text()))
    return found


def test_every_key_the_code_acts_on_is_enforced_in_the_keys_table():
    acted_on = (_model_keys(QueueConf, ["queue"]) |
                _model_keys(HostConf, ["host", "cluster_host"]) |
                _raw_queue_keys())
    assert ("queue", "EXCLUSIVE") in acted_on        # the scan works
    assert ("queue", "RERUNNABLE") in acted_on
    assert ("cluster_host", "RESOURCES") in acted_on
    not_enforced = sorted(k for k in acted_on
                          if keys.lookup(*k).status != keys.ENFORCED)
    assert not_enforced == []


def test_xce_yaml_page_lists_the_enforced_queue_keys_of_the_table():
    page = (REPO / "man" / "man5" / "xce.yaml.5").read_text()
    start = page.index("and queue\n", page.index(".SS Enforced keys"))
    end = page.index("Everything else", start)
    listed = {w.rstrip(".") for w in _man_words(page[start:end])} - {
        "and", "queue", ""}
    assert listed == set(keys.enforced("queue"))


def test_the_migration_report_takes_every_status_from_the_keys_table():
    result = migrate(str(SITE), check=True)
    by_label = {e.label: e.status for e in result.migration.entries}
    assert by_label["cluster admins = lsfadmin alice"] == keys.ENFORCED
    assert by_label["host alpha01 RESOURCES = bigmem cs"] == keys.ENFORCED
    for entry in result.migration.entries:
        m = re.match(r"(queue|host) (?!group |model |type )\S+ (\S+) = ",
                     entry.label)
        if m and entry.status != keys.NOT_CARRIED:
            scope = m.group(1)
            key = keys.lookup(scope, m.group(2))
            if not key.carried and scope == "host":
                key = keys.lookup("cluster_host", m.group(2))
            assert entry.status == key.status, entry.label
