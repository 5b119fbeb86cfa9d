"""The interactive jobs' terminal channel: frames and the key proofs."""

import pytest

from xce.model import termwire


def test_frames_come_out_as_they_went_in_however_the_stream_is_cut():
    sent = [(termwire.STDOUT, b"hello"), (termwire.STDIN, b""),
            (termwire.END, b'{"exit":3}'), (termwire.STDERR, b"x" * 70000)]
    data = b"".join(termwire.frame(k, p[:termwire.MAX_FRAME])
                    for k, p in sent)
    for cut in (1, 7, 4096):
        frames, got = termwire.Frames(), []
        for at in range(0, len(data), cut):
            got += frames.feed(data[at:at + cut])
        assert got == [(k, p[:termwire.MAX_FRAME]) for k, p in sent]


def test_a_frame_longer_than_the_limit_is_refused():
    bad = termwire._HEADER.pack(termwire.STDIN, termwire.MAX_FRAME + 1)
    with pytest.raises(termwire.WireError):
        termwire.Frames().feed(bad)


def test_a_proof_holds_only_for_its_key_role_nonce_and_job():
    key, nonce = termwire.new_key(), termwire.new_nonce()
    good = termwire.proof(key, "exec", nonce, 12, 0)
    assert termwire.proven(key, "exec", nonce, 12, 0, good)
    assert not termwire.proven(termwire.new_key(), "exec", nonce, 12, 0, good)
    assert not termwire.proven(key, "submit", nonce, 12, 0, good)
    assert not termwire.proven(key, "exec", termwire.new_nonce(), 12, 0, good)
    assert not termwire.proven(key, "exec", nonce, 13, 0, good)
    assert not termwire.proven(key, "exec", nonce, 12, 0, None)


def test_window_sizes_round_trip():
    kind, payload = termwire.Frames().feed(termwire.winsize_frame(40, 132))[0]
    assert kind == termwire.WINSIZE
    assert termwire.parse_winsize(payload) == (40, 132)
