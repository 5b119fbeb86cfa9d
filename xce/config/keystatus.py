"""What xce does with an LSF key (xce.config.keys): it is *enforced*,
*accepted* (carried and validated, not acted on yet), *not needed*
(carried and shown, but it tunes something xce does not have) or *not
carried* (left out, with the reason)."""

ENFORCED = "enforced"
ACCEPTED = "accepted"
NOT_NEEDED = "not needed"
NOT_CARRIED = "not carried"
STATUSES = (ENFORCED, ACCEPTED, NOT_NEEDED, NOT_CARRIED)
