"""The controller's side of user-assigned job priority
(xce.model.userprio): the policy of the configuration in force, who may
go above MAX_USER_PRIORITY, and the order key of a pending job."""

from xce.model import userprio


def policy(cfg):
    """The userprio.Policy of *cfg*'s parameters (None: -sp refused),
    kept on cfg (a reconfig brings a new Config)."""
    found = getattr(cfg, "_xce_userprio", False)
    if found is False:
        found = cfg._xce_userprio = userprio.policy(cfg.params)
    return found


def refusal(ctl, queue, user, asked):
    """The error key refusing -sp *asked* of *user* in *queue* (a
    QueueConf, or None), else None.  LSF's cluster and queue
    administrators may go above MAX_USER_PRIORITY."""
    privileged = ctl.is_admin(user) or \
        (queue is not None and user in (queue.admins or ()))
    return userprio.refusal(policy(ctl.cfg), asked, privileged)


def since(job):
    """When the job's priority was last set: bmod -sp/-spn, else its
    submission.  Escalation counts from there."""
    spec = job["spec"]
    return spec.get("user_priority_time") or job.get("submit_time")


def rank(cfg, job):
    """The pending job's place by priority (userprio.rank): higher first."""
    return userprio.rank(policy(cfg), job["spec"].get("user_priority"),
                         since(job))
