"""#BSUB lines as LSF reads them: a word that begins with `#` ends the
line (`#BSUB -W 10   # ten minutes`), a `#` inside a word or inside quotes
does not."""

import pytest

from xce.client.submit.options import bsub_lines


@pytest.mark.parametrize("line, words", [
    ("#BSUB -W 10   # ten minutes", ["-W", "10"]),
    ("#BSUB -J x#1 -o out #comment", ["-J", "x#1", "-o", "out"]),
    ('#BSUB -J "a # b" # c', ["-J", "a # b"]),
    ("#BSUB -J 'it''s' #", ["-J", "its"]),
    ('#BSUB -R "select[mem>1]"\t#\tmemory', ["-R", "select[mem>1]"]),
    (r"#BSUB -J a\ #b", ["-J", "a #b"]),
    ("#BSUB #-q short", []),
    ("#BSUB -q short", ["-q", "short"]),
    # A line whose text does not begin with an option is prose to LSF.
    ("#BSUB jobs of the nightly run", []),
    ("#BSUBMIT -q short", []),
    ("#BSUB-q short", ["-q", "short"]),
])
def test_a_word_that_begins_with_a_hash_ends_the_line(line, words):
    assert bsub_lines(line) == words


def test_later_lines_are_read_after_a_commented_one():
    script = "#!/bin/sh\n#BSUB -J job # the name\n#BSUB -q short\necho\n"
    assert bsub_lines(script) == ["-J", "job", "-q", "short"]
