"""bgdel: delete a job group and its subgroups (none may hold a job), or
sweep the empty groups: 0 (the user's; -u user or all for an
administrator), -c group (it and the empty groups below it), -d
idle_time (groups unused for that many seconds)."""

from xce.cli.lsfargs import Opt, Parser, UsageError, run
from xce.client.jobgroups import request
from xce.client.site import Site
from xce.errors import text

OPTIONS = [
    Opt("-u", "owner", metavar="user_name | all",
        help="With 0: the empty groups of this user, or of all users "
        "(administrators)."),
    Opt("-c", "below", metavar="job_group_name",
        help="Delete this group and the empty groups below it."),
    Opt("-d", "idle", metavar="idle_time",
        help="Delete the empty groups unused for more than idle_time "
        "seconds."),
]
PARSER = Parser("bgdel", OPTIONS, args_metavar="job_group_name | 0",
                help_text="Delete a job group and its subgroups.",
                nargs=(0, 1))


def bgdel(o, args):
    forms = [bool(args), o["below"] is not None, o["idle"] is not None]
    if sum(forms) != 1:
        raise UsageError(text("JGROUP_SWEEP_ONE"))
    if o["idle"] is not None:
        idle = o["idle"]
        if not (idle.isascii() and idle.isdigit()):
            raise UsageError(text("BAD_ARGUMENT", "-d " + idle))
        return request(Site(), "del", "/", sweep="idle", idle=int(idle))
    if o["below"] is not None:
        return request(Site(), "del", o["below"], sweep="below")
    if args[0] == "0":
        return request(Site(), "del", "/", sweep="empty", owner=o["owner"])
    # LSF ignores -u with a group name.
    return request(Site(), "del", args[0])


def main(argv=None):
    run(PARSER, bgdel, argv)


if __name__ == "__main__":
    main()
