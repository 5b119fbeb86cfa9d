"""Property test (hypothesis): whatever argument vector bsub is given, a
job it would submit never has a command that starts with one of bsub's
option words.  An option word is an option (taken, or refused whole), or
the value of the option before it; only the first plain word starts the
command.  Vectors are built from bsub's own table (implemented and
refused options), the same words glued to a value or cut short (the
issue's -outdir, -Jd, -ext and -gpu), words that look like options, and
plain words.  A word "--" ends the options, as bsub(1) says: the command
is then the words after it, whatever they look like.  derandomize=True:
every run tries the same vectors."""

import os
import random

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from xce.cli import bsub
from xce.cli.lsfargs import NotSupported, UsageError

EXAMPLES = int(os.environ.get("XCE_PROPERTY_EXAMPLES", "10000"))
PER_EXAMPLE = 40
MANY = settings(max_examples=max(EXAMPLES // PER_EXAMPLE, 1),
                derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

FLAGS = sorted(bsub.PARSER.flags())
TAKEN = {flag for opt in bsub.OPTIONS for flag in opt.flags}
PLAIN = ["true", "echo", "hi", "sleep", "1", "a b", "", "x", "name",
         "num=1", "/x", "nightly run", "foo", "utdir", "%J", "[1-3]"]
TRICKY = ["-", "-Z", "-zz", "-\uff4c", "-W=", "-1", "---", "-h9", "--"]


def _glued(rnd):
    """An option word with something stuck to it or cut from it."""
    flag = rnd.choice(FLAGS)
    kind = rnd.randrange(3)
    if kind == 0:
        return flag + rnd.choice(["d", "xt", "pu", "utdir", "name", "4",
                                  "=1", rnd.choice(FLAGS)[1:]])
    if kind == 1 and len(flag) > 2:
        return flag[:rnd.randrange(2, len(flag))]
    return flag.upper() if flag.lower() == flag else flag.lower()


def _word(rnd):
    roll = rnd.random()
    if roll < 0.45:
        return rnd.choice(FLAGS)
    if roll < 0.65:
        return _glued(rnd)
    if roll < 0.75:
        return rnd.choice(TRICKY)
    return rnd.choice(PLAIN)


def _vector(rnd):
    return [_word(rnd) for _ in range(rnd.randint(0, 8))]


@MANY
@given(st.integers(0, 2 ** 32 - 1))
def test_no_vector_submits_a_command_that_starts_with_an_option_word(seed):
    rnd = random.Random(seed)
    for _ in range(PER_EXAMPLE):
        argv = _vector(rnd)
        note(repr(argv))
        _check(argv)


def _check(argv):
    try:
        opts = bsub._parse(argv)
    except NotSupported as e:
        # Refused whole: the refused word is an LSF option before the
        # command, and the message names it.
        assert str(e).startswith("bsub: option -") and "\n" not in str(e)
        return
    except UsageError as e:
        assert str(e).startswith("bsub: ") and "\n" not in str(e)
        return
    command = opts["command"]
    if not command:
        return                  # read from stdin: no word of argv
    # The command is what follows the options, word for word.
    assert tuple(argv[len(argv) - len(command):]) == command
    # Every option word before it was taken as an option or its value.
    before = argv[:len(argv) - len(command)]
    if _options_consumed(before, opts):
        return      # "--" ended the options: the rest is the user's own
    first = command[0]
    assert first not in FLAGS, (argv, command)
    assert first == "-" or not first.startswith("-"), (argv, command)


def _options_consumed(before, opts):
    """True when the options were ended by a word "--" (bsub(1))."""
    words = list(before)
    while words:
        word = words.pop(0)
        if word == "--":
            assert words == [], (before, word)
            return True
        opt = bsub.PARSER.by_flag.get(word)
        assert opt is not None, (before, word)
        if opt.takes:
            value = words.pop(0)
            got = opts[opt.dest]
            assert value in got if opt.multiple else got is not None
    return False


def test_the_issue_vectors_are_refused_whole():
    for argv in (["-outdir", "/x", "echo", "hi"],
                 ["-Jd", "nightly run", "echo", "hi"],
                 ["-ext", "foo", "echo", "hi"],
                 ["-gpu", "num=1", "echo", "hi"]):
        flag = argv[0]
        if flag in TAKEN:
            assert bsub._parse(argv)["command"] == ("echo", "hi")
            continue
        try:
            bsub._parse(argv)
        except UsageError as e:
            assert flag in str(e)
        else:
            raise AssertionError(f"{argv} was read as something else")
