"""bsub -pack: many submissions from one file, in one controller request.

Each non-blank line that is not a ``#`` comment holds the options and the
command of one ``bsub`` (without the word ``bsub``).  Lines are checked here
as bsub checks its own command line; the good ones go to the controller in a
single ``submit_many`` request, which accepts them in one commit: this is
what makes ten thousand submissions take seconds rather than minutes.
"""

import shlex
import sys

from xce.errors import EXIT_FAILURE, XceError, about, text

NOT_SUBMITTED = ". Job not submitted."
# Options that make no sense for one line of a pack file.
_REFUSED = {"block": "-K", "pack": "-pack", "version": "-V"}


def read_lines(path):
    """(line number, words) for each submission line of the pack file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise XceError(f"{path}: {e.strerror}{NOT_SUBMITTED}")
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("bsub ") or stripped == "bsub":
            stripped = stripped[4:]     # tolerate a leading "bsub"
        out.append((number, stripped))
    return out


def line_spec(words_text, parse, build):
    """The spec of one line; raises XceError with the line's error."""
    try:
        words = shlex.split(words_text)
    except ValueError:
        raise XceError(text("BAD_ARGUMENT"))
    opts = parse(words)
    for key, flag in _REFUSED.items():
        if opts.get(key):
            raise XceError(about(flag, "PACK_OPTION"))
    if not opts.get("command"):
        raise XceError(text("NO_COMMAND"))
    return build(opts)


def share_env(specs):
    """Send the environment once when the lines share it (they usually do:
    all come from this bsub's own environment)."""
    if not specs:
        return None
    env = specs[0].get("env")
    for spec in specs:
        if spec.get("env") == env:
            spec.pop("env", None)
            spec["env_shared"] = True
    return env


def report(lines, good, results, bad, out=None, err=None):
    """Print LSF's per-line results and summary; return the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    by_line = dict(zip((n for n, _ in good), results))
    submitted = 0
    for number, _ in lines:
        if number in bad:
            print(f"Line#{number}: {bad[number]}{NOT_SUBMITTED}", file=err)
            continue
        r = by_line[number]
        if not r.get("ok"):
            bad[number] = r.get("error") or "Request failed"
            print(f"Line#{number}: {bad[number]}{NOT_SUBMITTED}", file=err)
            continue
        submitted += 1
        where = "default queue" if r.get("default") else "queue"
        print(f"Line#{number} Job <{r['jobid']}> is submitted to {where} "
              f"<{r['queue']}>.", file=out)
    print(f"{len(lines)} lines parsed, {submitted} jobs submitted, "
          f"{len(bad)} errors found.", file=out)
    return EXIT_FAILURE if bad else 0


def submit_pack(site, path, parse, build, call):
    """Read, check and submit every line of PATH; print the results."""
    pack_size(site)         # refused at once when job packs are disabled
    lines = read_lines(path)
    good, specs, bad = [], [], {}
    for number, words_text in lines:
        try:
            specs.append(line_spec(words_text, parse, build))
            good.append((number, words_text))
        except XceError as e:
            bad[number] = str(e).removesuffix(NOT_SUBMITTED)
    size = pack_size(site)
    results = []
    if specs:
        env = share_env(specs)
        for start in range(0, len(specs), size or len(specs)):
            chunk = specs[start:start + (size or len(specs))]
            reply = call(site, "submit_many", {"specs": chunk, "env": env})
            if "results" not in reply:
                if not results:     # nothing submitted: one error line
                    raise XceError((reply.get("error") or
                                    text("REQUEST_FAILED")) + NOT_SUBMITTED)
                # Earlier requests went through: each line says its fate.
                failed = {"error": reply.get("error") or
                          text("REQUEST_FAILED")}
                results += [failed] * len(chunk)
                continue
            results += reply["results"]
    return report(lines, good, results, bad)


def pack_size(site):
    """The lines per request (LSB_MAX_PACK_JOBS of lsf.conf; as in LSF, not
    an environment variable); None: all in one.  0 means job packs are
    disabled, as in LSF."""
    value = str(site.conf.get("LSB_MAX_PACK_JOBS", "")).strip()
    if not value.isdigit():         # unset (the loader checks its range)
        return None
    size = int(value)
    if size == 0:
        raise XceError(text("PACK_DISABLED") + NOT_SUBMITTED)
    return size
