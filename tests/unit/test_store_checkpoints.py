"""The store's WAL checkpoints run after a turn's replies, never inside
the commit a reply waits for (xce.store.walfile): the automatic
checkpoint is only a net for a turn that writes a great deal alone."""

import pytest

from xce.store import walfile
from xce.store.walfile import Checkpoints

from tests.lib.builders import hello, site, site_yaml, submission
from tests.lib.fake_controller import started_controller

SITE = site_yaml("ckpt", {"h1": {"MXJ": 1}})


@pytest.fixture
def controller(tmp_path):
    etc = tmp_path / "etc"
    ctl = started_controller(site(etc, SITE), etc)
    yield ctl
    ctl.store.close()


def _record(ctl):
    """The turn's store statements and replies, in their order."""
    seen = []
    reply = ctl.spool.reply

    def recorded_reply(req, doc):
        seen.append("reply")
        reply(req, doc)
    ctl.spool.reply = recorded_reply
    for db in (ctl.store.db, ctl.store.private):
        db.set_trace_callback(lambda sql: seen.append(
            "checkpoint" if "wal_checkpoint" in sql else
            "commit" if sql.strip().upper() == "COMMIT" else None))
    return seen


def test_submission_turns_checkpoint_after_their_replies(controller,
                                                         monkeypatch):
    monkeypatch.setattr(walfile, "EVERY_COMMITS", 3)
    ctl = controller
    seen = _record(ctl)
    turns = []
    for n in range(7):
        seen.clear()
        ctl.spool.put("submit", {"spec": submission("true")})
        ctl.run_once(1000.0 + n, inbox=[("h1", [hello("h1")])] if n == 0
                     else ())
        turns.append([s for s in seen if s])
    assert sum(t.count("checkpoint") for t in turns) >= 2 * 2, turns
    for t in turns:
        assert t.count("reply") == 1, t
        assert "checkpoint" not in t[:t.index("reply")], t


def test_the_automatic_checkpoint_is_only_a_net(controller):
    for db in (controller.store.db, controller.store.private):
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == \
            walfile.NET_PAGES


def test_a_checkpoint_is_due_after_enough_commits_or_rows(monkeypatch):
    monkeypatch.setattr(walfile, "EVERY_COMMITS", 2)
    monkeypatch.setattr(walfile, "EVERY_ROWS", 100)
    ck = Checkpoints()
    ck.committed(1)
    assert not ck.run()
    ck.committed(1)
    assert ck.run()
    ck.committed(100)
    assert ck.run()
    assert not ck.run()


def _frames(db):
    return db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]


def test_a_whole_checkpoint_starts_the_wal_again_at_once(tmp_path,
                                                         monkeypatch):
    """The commit that starts the WAL from its head (and syncs its new
    header) is the checkpoint's own, not the next turn's."""
    monkeypatch.setattr(walfile, "EVERY_COMMITS", 1)
    db = walfile.open_wal(tmp_path / "t.db", 0o600)
    db.execute("CREATE TABLE t(x)")
    for n in range(5):
        db.execute("INSERT INTO t VALUES(?)", (n,))
    ck = Checkpoints(db)
    ck.committed(5)
    assert ck.run()
    assert _frames(db) == 1         # its own commit, at the WAL's head
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    ck.committed(0)
    assert ck.run()
    assert _frames(db) == 1         # nothing written since: no new commit
    db.close()
