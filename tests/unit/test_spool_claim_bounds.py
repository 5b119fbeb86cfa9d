"""The spool server's per-user bound on waiting requests, on a real spool
directory (no daemon): counted as requests are taken, and over the backlog
past a batch at most every BACKLOG_COUNT_EVERY seconds."""

import os

from xce.spool import server as spool_server
from xce.spool.client import write_request


def _spool(tmp_path, waiting, user_requests):
    srv = spool_server.SpoolServer(tmp_path / "spool")
    srv.setup()
    srv.limits.user_requests = user_requests
    for _ in range(waiting):
        write_request(srv.dir, "ping", {})
    return srv


def _waiting(srv):
    return len(os.listdir(srv.dir / "incoming"))


def test_requests_past_the_bound_are_refused_unread_in_name_order(tmp_path):
    srv = _spool(tmp_path, 30, user_requests=12)
    names = sorted(os.listdir(srv.dir / "incoming"))
    taken = srv.claim(100)
    assert [r.name for r in taken] == names[:12]
    assert not any(r.error for r in taken)
    assert _waiting(srv) == 12          # the 18 others are gone
    for name in names[12:]:             # each was answered
        req_id = name[:-len(".json")]
        assert (srv.dir / "replies" / f"{req_id}.json").exists()


def test_a_backlog_past_the_batch_is_counted_now_and_then(tmp_path):
    srv = _spool(tmp_path, 100, user_requests=20)
    taken = srv.claim(10, now=1000.0)
    assert len(taken) == 10 and _waiting(srv) == 20
    srv.limits.user_requests = 15
    srv.claim(10, now=1000.0 + spool_server.BACKLOG_COUNT_EVERY / 2)
    assert _waiting(srv) == 20          # not counted again so soon
    srv.claim(10, now=1000.0 + spool_server.BACKLOG_COUNT_EVERY)
    assert _waiting(srv) == 15
