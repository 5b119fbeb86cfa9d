"""The words for a job output that went to the fallback file (pure).

When the job's user cannot open its -o (or -e) file, LSF mails that output
instead ("Sends the output by mail if the file does not exist, or the system
has trouble writing to it"); xce keeps it where output goes without -o.  The
agent's job report, ``bjobs -l`` and ``bhist -l`` all say so in these words.

*moved* is the agent's record: {"stdout": {"file", "reason"}, "stderr":
{...}, "to": the fallback file}, either stream absent when it opened.
"""

_WHAT = {"stdout": ("Output", "output"), "stderr": ("Error", "standard error")}


def fallback_sentences(moved):
    """One sentence per stream that went to the fallback file."""
    if not isinstance(moved, dict):
        return []
    out = []
    for stream, (label, what) in _WHAT.items():
        entry = moved.get(stream)
        if isinstance(entry, dict):
            out.append(f"{label} file <{entry.get('file')}> could not be "
                       f"opened ({entry.get('reason')}); the job's {what} "
                       f"was written to <{moved.get('to')}> instead.")
    return out
