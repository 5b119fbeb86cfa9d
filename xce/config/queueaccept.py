"""Queue keys that decide which jobs a queue accepts at submission.

INTERACTIVE = YES (both kinds, LSF's default), NO (batch jobs only) or
ONLY (interactive jobs only: bsub -I, -Ip, -Is), refused with LSF's
"Queue does not accept interactive jobs" and "Queue only accepts
interactive jobs".
"""

from xce.errors import text

INTERACTIVE = ("YES", "NO", "ONLY")


def read_queue(q, props, check):
    """Fill *q*'s acceptance settings from its *props*."""
    value = props.get("INTERACTIVE")
    if value is None:
        q.interactive = "YES"
        return
    # YAML reads a bare YES or NO as a boolean.
    word = {True: "YES", False: "NO"}.get(value, str(value).strip().upper())
    word = {"Y": "YES", "N": "NO"}.get(word, word)
    if word not in INTERACTIVE:
        check.error(props, "INTERACTIVE", text(
            "CONFIG_ONE_OF", choices=", ".join(INTERACTIVE)))
        word = "YES"
    q.interactive = word


def refusal(q, spec):
    """Why *q* refuses the job *spec*, or None."""
    interactive = bool(spec.get("interactive"))
    if q.interactive == "ONLY" and not interactive:
        return text("QUEUE_ONLY_INTERACTIVE", q.name)
    if q.interactive == "NO" and interactive:
        return text("QUEUE_NO_INTERACTIVE", q.name)
    return None


def policy_names(conf):
    """bqueues -l's SCHEDULING POLICIES words for a queue's saved *conf*."""
    return {"NO": ["NO_INTERACTIVE"], "ONLY": ["ONLY_INTERACTIVE"]}.get(
        conf.get("interactive"), [])
